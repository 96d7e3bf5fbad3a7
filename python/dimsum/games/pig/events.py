"""Pig's notes on a step, for the shared events (``dimsum.play.events``): the die each roll showed
and the banked scores (Pig hides nothing but the future rolls)."""

from __future__ import annotations

from typing import List

from ...play.events import Step, counts, numbers, seat_texts, seat_words


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
        relative = numbers(step.after["scores"])  # the reader's first, then the next seats in turn
        scores = {(step.seat + k) % step.players: v for k, v in enumerate(relative)}
        out.append("scores: " + ", ".join(f"{seat_words(s, step.seat)} {scores[s]:g}" for s in sorted(scores)))
    return out
