"""The system C++ compiler, for the C++ programs built outside setup.py: the benchmarks' own
(rollout_floor.cpp) and the tests' check programs (tests/cpp/core_hooks.py)."""

from __future__ import annotations

import os
import shlex
import shutil
from typing import List, Optional


def find_compiler() -> Optional[List[str]]:
    """The C++ compiler command to use ($CXX, else g++, clang++ or c++), or None if there is none."""
    if os.environ.get("CXX"):
        command = shlex.split(os.environ["CXX"])
        if command and shutil.which(command[0]):
            return command
    for name in ("g++", "clang++", "c++"):
        path = shutil.which(name)
        if path:
            return [path]
    return None
