"""What the human sees of the table, built only from what their seat may see.

Each game shows itself: ``dimsum.games.<name>.view.view(state, human, names)`` (a game without
one is shown ``state.observation_string(human)``, always a fair view). The helpers here are what
those views share: a game that hides nothing but future chance reads its readable dict without
the generator's state (``public_dict``); a game with hidden hands reads its observation string
(``observation_lines``). ``str(state)`` (the omniscient picture) is never used.
"""

from __future__ import annotations

import importlib
import re
from types import ModuleType
from typing import Any, Dict, List, Optional

HIDDEN_DICT_FIELDS = ("rng",)  # the only field of to_dict() that holds what no seat may see


def public_dict(state: Any) -> Dict[str, Any]:
    """``state.to_dict()`` without the fields that hold hidden information."""
    return {k: v for k, v in state.to_dict().items() if k not in HIDDEN_DICT_FIELDS}


def seat_name(seat: int, human: int, names: List[str]) -> str:
    """How a view names ``seat`` to its reader ``human``: ``"you (seat 0)"``, ``"seat 2 (random)"``
    (the same "seat N" as the move names and the events, ``dimsum.play.events.seat_words``)."""
    return f"you (seat {seat})" if seat == human else f"seat {seat} ({names[seat]})"


def counts_text(text: str) -> str:
    """``"Mid 2=1, Mid 3=2"`` -> ``"Mid 2, Mid 3 x2"`` (the observation string's count slices)."""
    return re.sub(r"=(\d+)", lambda m: "" if m.group(1) == "1" else f" x{m.group(1)}", text)


def observation_lines(state: Any, player: int) -> Dict[str, str]:
    """The slices of ``observation_string(player)`` by name (the first line is a title)."""
    lines = state.observation_string(player).splitlines()[1:]
    return dict(line.strip().split(": ", 1) for line in lines if ": " in line)


def sand_text(top: int, capacity: int, ticks_per_second: int, lying: bool = False, label: str = "Sand") -> str:
    """``"Sand: 112.0 s of 120.0 s [#########...]"``: the glass, shown the same way everywhere."""
    width = 30
    full = round(width * top / capacity) if capacity else 0
    state = " (lying down: stopped)" if lying else (" (empty)" if top == 0 else "")
    return (f"{label}: {top / ticks_per_second:.1f} s of {capacity / ticks_per_second:.1f} s "
            f"[{'#' * full}{'.' * (width - full)}]{state}")


def game_view_module(name: str) -> Optional[ModuleType]:
    """Game ``name``'s terminal module ``dimsum.games.<name>.view``, or None if it has none. It
    may declare ``view(state, human, names)`` and ``SHORTCUTS`` (``dimsum.play.commands.Shortcut``s).
    What happened is told by its ``events`` module (``dimsum.play.events``), what the words mean by
    its ``legend`` module (``dimsum.play.legend``)."""
    try:
        return importlib.import_module(f"dimsum.games.{name}.view")
    except ModuleNotFoundError as e:
        if e.name != f"dimsum.games.{name}.view":
            raise
        return None


def view_text(state: Any, human: int, names: List[str]) -> str:
    """The table as ``human`` sees it; ``names`` names every seat (the human's entry is unused).

    A game's own view is ``view(state, human, names)`` in ``dimsum.games.<name>.view``, built only
    from what that seat may see; a game without one is shown its observation string, always a
    fair view."""
    module = game_view_module(state.game.name)
    if module is None or not hasattr(module, "view"):
        return state.observation_string(human)
    return module.view(state, human, names)
