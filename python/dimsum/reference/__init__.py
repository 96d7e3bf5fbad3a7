"""Pure-Python reference engines: slow, readable, written from the rulebooks.

They are the oracle for the differential tests (the C++ core must agree with them at every
step of thousands of seeded games) and a readable statement of every rule and ruling.
``dimsum.reference.make("yum_cha", players=4)`` mirrors ``dimsum.make``.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..games import GAMES


def make(name: str, **options: Any):
    """The reference engine of game ``name`` with the given rule options."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; the games are {list(GAMES)}")
    module = importlib.import_module(f"dimsum.reference.{name}")
    return module.Game(**options)
