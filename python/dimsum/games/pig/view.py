"""Pig as the terminal player shows it to one seat (``python -m dimsum play pig``).

Pig hides nothing but the future rolls, so the view reads the readable dict without the
generator's state (``public_dict``).
"""

from __future__ import annotations

from typing import Any, List

from ...play.views import public_dict, seat_name


def view(state: Any, human: int, names: List[str]) -> str:
    d = public_dict(state)
    target = state.game.spec.winscore
    last = d["last_roll"] or "no roll yet"
    out = [f"Move {d['moves']} of at most {state.game.spec.horizon}; {seat_name(d['turn_player'], human, names)} "
           f"to play: turn total {d['turn_total']}, last roll: {last}"]
    for seat, score in enumerate(d["scores"]):
        marker = "  <- to play" if seat == d["turn_player"] and not state.is_terminal else ""
        out.append(f"  {seat_name(seat, human, names):<28} {score:>5} of {target}{marker}")
    return "\n".join(out)
