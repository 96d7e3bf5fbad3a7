"""How a finished Nice Buns game ended (``state.outcome``), read off its state fields.

Two ways (docs/rules/nice_buns.md, "Returns"): a seat plates its ``sets_to_win``-th set and wins at
once, even on another player's turn (reason ``"plated"``); or the turn cap ``max_turns`` is reached
with nobody having won, a draw with no winner (reason ``"turn_cap"``).
"""

from __future__ import annotations

from typing import Any, Mapping, Tuple

from . import COLOURS


def _plated(plate_mask: int) -> str:
    names = [c for k, c in enumerate(COLOURS) if plate_mask >> k & 1]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def ending(cfg: Any, fields: Mapping[str, Any]) -> Tuple[str, str, Tuple[int, ...]]:
    winner = fields["winner"]
    turn = fields["turn"]
    if winner >= 0:
        sets = cfg.sets_to_win
        return ("plated",
                f"Seat {winner} plated {sets} set{'s' if sets != 1 else ''} ({_plated(fields['plate'][winner])}) "
                f"on turn {turn} and wins.",
                (winner,))
    cap = cfg.options["max_turns"]
    best = max(bin(m).count("1") for m in fields["plate"])
    return ("turn_cap",
            f"The {cap}-turn cap was reached with nobody plating {cfg.sets_to_win} sets (the most plated: "
            f"{best}): a draw, no winner.",
            ())
