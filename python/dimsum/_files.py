"""Files from and for the outside world: read only when they are regular files of bounded size,
parsed only to a bounded depth, and written whole, never through a symbolic link.

Reading (:func:`read_regular`, :func:`parse_json`): a path handed in by someone else may name a
FIFO (opening it blocks until a writer comes: forever), a device (``/dev/zero``: endless), a
directory, or a file of gigabytes. It is opened without blocking, checked to be a regular file
with ``fstat`` on the open descriptor (no race with a swap of the path), and read up to a bound.
JSON from elsewhere is refused past a nesting depth before ``json.loads`` recurses into it (a
``RecursionError`` is not an answer about a file, and a deep one can exhaust the stack).

Writing (:func:`write_atomically`): what the record and results writers
share (``dimsum.records.Record.save``, the arena's ``--record DIR`` and ``--json``, training's files).

A link planted where the file goes (``game-000042.json -> ~/.bashrc``) would make a plain
``write_text`` overwrite its target. Here the text goes to a new temporary file in the same
directory (created exclusively, so never through a link) that is renamed over the
path: a rename replaces a link itself rather than following it, and a reader sees the old file or
the new one, never half of one. A link already at the path is refused outright, so that the
writer learns of it rather than silently replacing it.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import stat
from pathlib import Path
from typing import Any, Union

MAX_JSON_DEPTH = 64  # the files and messages we read nest a few levels; deeper is refused


def read_regular(path: Union[str, Path], what: str, max_bytes: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``max_bytes``; ValueError naming
    ``what`` and saying what is allowed otherwise (a FIFO, a device, a directory, too large), and
    OSError for a path that cannot be opened. Never blocks on a FIFO."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        raise ValueError(f"{what} {str(path)!r} is a directory; it must be a regular file") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):  # open() for reading succeeds on a directory on POSIX
            raise ValueError(f"{what} {str(path)!r} is a directory; it must be a regular file")
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{what} {str(path)!r} is not a regular file (a FIFO, a device or a socket "
                             "is never read); give the path of a file")
        if info.st_size > max_bytes:
            raise ValueError(f"{what} {str(path)!r} has {info.st_size} bytes, more than the {max_bytes} read")
        chunks, left = [], max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > max_bytes:  # it grew while being read
            raise ValueError(f"{what} {str(path)!r} has more than the {max_bytes} bytes read")
        return data
    finally:
        os.close(fd)


def json_depth(text: str) -> int:
    """How deep the arrays and objects of JSON ``text`` nest (brackets inside strings do not
    count): a cheap scan that lets a reader refuse deep input before json.loads recurses."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def parse_json(text: Union[str, bytes], what: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads(text)`` for text from elsewhere: ValueError naming ``what`` for text that is
    not JSON or nests deeper than ``max_depth`` (never a RecursionError)."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"{what} is not UTF-8 text ({e})") from None
    depth = json_depth(text)
    if depth > max_depth:
        raise ValueError(f"{what} nests {depth} levels deep; at most {max_depth} are read")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:  # RecursionError: only below max_depth on a tiny stack
        raise ValueError(f"{what} is not JSON ({str(e)[:200]})") from None


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def write_atomically(path: Path, text: Union[str, bytes]) -> None:
    """Writes ``text`` (a str as UTF-8, or bytes as they are: a policy file) to ``path`` in one
    step; OSError (ELOOP) if ``path`` is a symbolic link, OSError for a path that cannot be written."""
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode):
            raise OSError(errno.ELOOP, "refusing to write through a symbolic link (remove it, or write elsewhere)",
                          str(path))
    except FileNotFoundError:
        pass
    # O_CREAT | O_EXCL never opens an existing file, nor follows a link planted under the name;
    # mode 0o666 less the umask gives the file the usual permissions
    temporary = path.parent / f".{path.name}.{secrets.token_hex(6)}.part"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8") if isinstance(text, str) else text)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
