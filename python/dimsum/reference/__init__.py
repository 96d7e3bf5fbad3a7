"""Pure-Python reference engines: slow, readable, written from the rulebooks.

They are the oracle for the differential tests (the C++ core must agree with them at every
step of thousands of seeded games) and a readable statement of every rule and ruling.
``dimsum.reference.make("yum_cha", players=4)`` mirrors ``dimsum.make``.
"""

from __future__ import annotations

import importlib
from typing import Any

from .. import games
from .._common import check_game_name


def make(name: str, **options: Any):
    """The reference engine of game ``name`` with the given rule options (the names
    ``dimsum.games()`` lists; an unknown one is a ValueError naming the closest)."""
    module = importlib.import_module(f"dimsum.reference.{check_game_name(name, games())}")
    return module.Game(**options)
