"""What a view's words and marks mean: one legend per game, declared once in its package and shown by
every view (the terminal player's ``legend`` command, the MCP view, the ``llm`` prompt, the browser).

A game declares ``legend(game) -> list[(term, meaning)]`` in ``dimsum.games.<name>.legend``, read
from its component data (never retyped); every game's legend ends with the seat names shared by
all views (:data:`SEAT_TERMS`). A game without one gets those alone. The legend depends on the
game's configuration only, never on a state: it is the same for every seat and every position.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, List, Optional, Tuple

Entry = Tuple[str, str]

SEAT_TERMS: Tuple[Entry, ...] = (
    ("seat N", "the player in seat N (seats are numbered from 0 in turn order); move names say "
               "\"seat N\" too"),
    ("you (seat N)", "your own seat"),
)


def legend_module(name: str) -> Optional[ModuleType]:
    """Game ``name``'s ``dimsum.games.<name>.legend``, or None if it declares none."""
    try:
        return importlib.import_module(f"dimsum.games.{name}.legend")
    except ModuleNotFoundError as e:
        if e.name != f"dimsum.games.{name}.legend":
            raise
        return None


def legend(game: Any) -> List[Entry]:
    """The terms a view of ``game`` (from ``dimsum.make``) uses and what they mean: the game's own
    (its components: Yum Cha's tiers and teas, Dim Sum Jam's token codes and marks), then the seat
    names every view shares."""
    module = legend_module(game.name)
    own = list(module.legend(game)) if module is not None and hasattr(module, "legend") else []
    return own + list(SEAT_TERMS)


def legend_text(game: Any, width: int = 18) -> str:
    """The legend as lines ``term: meaning`` (terms padded to ``width``), for a screen or a prompt."""
    return "\n".join(f"  {term + ':':<{width}} {meaning}" for term, meaning in legend(game))
