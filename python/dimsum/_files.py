"""Writing a file whole, and never through a symbolic link: what the record and results writers
share (``dimsum.records.Record.save``, the arena's ``--record DIR`` and ``--json``).

A link planted where the file goes (``game-000042.json -> ~/.bashrc``) would make a plain
``write_text`` overwrite its target. Here the text goes to a new temporary file in the same
directory (created exclusively, so never through a link) that is renamed over the
path: a rename replaces a link itself rather than following it, and a reader sees the old file or
the new one, never half of one. A link already at the path is refused outright, so that the
writer learns of it rather than silently replacing it.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path
from typing import Union


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
