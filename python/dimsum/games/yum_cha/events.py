"""Yum Cha's notes on a step, for the shared events (``dimsum.play.events``): the cards the seat
drew (its own hand grew without a take), a round's end and the scores. Read only from the seat's
observation slices, so another seat's draw is never named (Yum Cha rulebook, "Setup": hands are
hidden)."""

from __future__ import annotations

from typing import List

from ...play.events import Step, counts, relative_seat, seat_words


def _cards(added: dict) -> str:
    return ", ".join(name if n == 1 else f"{name} x{n:g}" for name, n in added.items())


def notes(step: Step) -> List[str]:
    out: List[str] = []
    took = step.kind == "move" and step.actor == step.seat and (step.move or "").startswith("take ")
    if "hand" in step.changed and not took:
        old, new = counts(step.before.get("hand", "")), counts(step.after["hand"])
        added = {name: n - old.get(name, 0) for name, n in new.items() if n > old.get(name, 0)}
        if added and "round" not in step.changed:
            out.append(f"you drew {_cards(added)}")
    if "round" in step.changed:
        ended = next(iter(counts(step.before.get("round", ""))), "")
        begun = next(iter(counts(step.after["round"])), "")
        if ended:
            out.append(f"{ended} is over")
        if begun:
            out.append(f"{begun} begins")
    if "scores" in step.changed:  # the slice lists the non-zero scores by relative seat: every seat told
        scores = {relative_seat(name, step.seat, step.players): n for name, n in counts(step.after["scores"]).items()}
        out.append("scores: " + ", ".join(f"{seat_words(s, step.seat)} {scores.get(s, 0):g}"
                                          for s in range(step.players)))
    return out
