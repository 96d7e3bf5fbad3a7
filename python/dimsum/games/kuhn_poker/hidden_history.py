"""Kuhn poker's resample, explicit mode: the history rewritten to agree with the redrawn cards.

In explicit mode the history holds the deal: one chance outcome a seat, seat 0 first (KP-2). A
resample for seat ``p`` redraws every other seat's card (the core's ``resample``), so the deal's
outcomes for those seats are replaced by their new cards; ``p``'s own outcome and every decision
stay, which is exactly what ``p`` saw. The rewritten history is replayed to check that it reaches
the resampled position; if not (a history that began after part of the deal, whose dealt cards
the history cannot change), None: the caller then keeps only ``p``'s view (dimsum._views).
"""

from __future__ import annotations

from typing import Any, List, Optional


def resample_history(game: Any, start: Any, history: List[int], resampled: Any, player: int,
                     seed: int) -> Optional[List[int]]:
    """A history from ``start`` (where ``history`` began) to the position of ``resampled``, equal
    to ``history`` wherever seat ``player`` saw the outcome; None if there is none."""
    cards = resampled.fields()["cards"]
    state, new = start.clone(), []
    for action in history:
        if state.is_chance_node:
            seat = sum(1 for c in state.fields()["cards"] if c >= 0)  # the seat this card goes to
            if seat != player:
                action = cards[seat]
        if not state.is_legal(action):
            return None
        state.apply(action)
        new.append(action)
    target = {k: v for k, v in resampled.fields().items() if k != "rng"}
    return new if {k: v for k, v in state.fields().items() if k != "rng"} == target else None
