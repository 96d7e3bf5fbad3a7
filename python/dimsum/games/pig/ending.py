"""How a finished Pig game ended (``state.outcome``), read off its state fields.

Two ways (docs/rules/pig.md): a seat banks the target score and wins (reason ``"target"``,
PIG-5); or the horizon's number of decisions is reached first, with no winner (reason
``"horizon"``, PIG-6).
"""

from __future__ import annotations

from typing import Any, Mapping, Tuple


def ending(cfg: Any, fields: Mapping[str, Any]) -> Tuple[str, str, Tuple[int, ...]]:
    scores = fields["scores"]
    won = [p for p, score in enumerate(scores) if score >= cfg.winscore]
    if won:
        p = won[0]
        return ("target", f"Seat {p} banked {scores[p]} points, reaching the target of {cfg.winscore}, after "
                          f"{fields['moves']} moves, and wins.", (p,))
    return ("horizon", f"The horizon of {cfg.horizon} moves was reached with nobody at the target of {cfg.winscore} "
                       f"(the most banked: {max(scores)}): no winner.", ())
