"""Nice Buns' notes on a step, for the shared events (``dimsum.play.events``): the winner. Every
move and roll is public (only the bag's order is hidden, NB-12) and is named by the shared events."""

from __future__ import annotations

from typing import List

from ...play.events import Step, counts


def notes(step: Step) -> List[str]:
    if "winner" in step.changed:
        winner = next(iter(counts(step.after["winner"])), "")
        if winner:
            return [f"GAME OVER: {'you (' + winner + ')' if winner == f'seat {step.seat}' else winner} wins"]
    return []
