"""The files a training run writes (train.py), every one through the one atomic writer that never
follows a symbolic link (``dimsum._files.write_atomically``): the checkpoints ``step-*.dspolicy``
(policy_file.write), ``curve.json``, ``curve.png``, ``best.dspolicy`` and ``record.json`` in the
run's directory, and with ``--ship DIR`` ``<game>-<players>p.dspolicy`` / ``.json`` in DIR.

A link planted where one of them goes (``curve.json -> ~/.bashrc``) would make a plain
``write_text`` or ``shutil.copyfile`` overwrite its target. ``check_outputs`` looks before the run
starts, so that a run of hours is not refused at its end; the writer refuses a link planted
later, when the file is written, and its target is never touched.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any, Iterable, List, Optional

from .._files import read_regular, write_atomically

RUN_FILES = ("curve.json", "curve.png", "best.dspolicy", "record.json")
CHECKPOINT_GLOB = "step-*.dspolicy"


def shipped_names(game: str, players: int) -> List[str]:
    stem = f"{game}-{players}p"
    return [f"{stem}.dspolicy", f"{stem}.json"]


def check_directory(path: Path, flag: str) -> Optional[str]:
    """Why ``path`` cannot be the run's directory (``--out``, ``--ship``), or None: it must be a
    directory or not exist yet (it is made then)."""
    try:
        info = os.stat(path)  # a link to a directory is the operator's choice of directory
    except FileNotFoundError:
        return None
    except OSError as e:
        return f"{flag} {str(path)!r} cannot be used: {e.strerror or e}"
    if not stat.S_ISDIR(info.st_mode):
        return f"{flag} {str(path)!r} exists and is not a directory; give a directory (made if absent)"
    return None


def check_outputs(directory: Path, names: Iterable[str], flag: str) -> Optional[str]:
    """Why the run cannot write ``names`` (and its checkpoints, for the run's directory) in
    ``directory``, or None: a symbolic link (never written through) or a directory where a file
    goes. A regular file there (an earlier run's) is replaced, as before."""
    problem = check_directory(directory, flag)
    if problem is not None or not directory.exists():
        return problem
    paths = [directory / name for name in names]
    if flag == "--out":
        paths += sorted(directory.glob(CHECKPOINT_GLOB))
    for path in paths:
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(mode):
            return (f"{flag}: {str(path)!r} is a symbolic link; training never writes through one "
                    "(remove it, or give another directory)")
        if stat.S_ISDIR(mode):
            return f"{flag}: {str(path)!r} is a directory where the run writes a file (remove it, or give another directory)"
    return None


def write_json(path: Path, data: Any, end: str = "") -> None:
    write_atomically(path, json.dumps(data, indent=1) + end)


def copy_policy(source: Path, destination: Path) -> None:
    """A policy file the run wrote (a checkpoint) copied to ``destination`` through the writer:
    read back only as a regular file of at most the format's size (never a FIFO)."""
    from .policy_file import MAX_BYTES

    write_atomically(destination, read_regular(source, "checkpoint", MAX_BYTES))
