"""Pig's notes on a step, for the shared events (``dimsum.play.events``): the die each roll showed
and the banked scores (Pig hides nothing but the future rolls)."""

from __future__ import annotations

from typing import List

from ...play.events import Step, counts, numbers, seat_texts


def notes(step: Step) -> List[str]:
    out: List[str] = []
    if "last_roll" in step.changed:
        roll = next(iter(counts(step.after["last_roll"])), "")
        total = numbers(step.after.get("turn_total", "0"))
        if roll:
            out.append(f"the die shows {roll.replace('roll ', '')}; turn total {int(total[0]) if total else 0}")
    if "turn_player" in step.changed:
        player = next(iter(counts(step.after["turn_player"])), "")
        out.append(f"{seat_texts(player, step.seat, step.players)} to play")
    if "scores" in step.changed:
        scores = numbers(step.after["scores"])
        out.append("scores: " + ", ".join(f"{'you (seat %d)' % s if s == step.seat else 'seat %d' % s} {v:g}"
                                          for s, v in enumerate(scores)))
    return out
