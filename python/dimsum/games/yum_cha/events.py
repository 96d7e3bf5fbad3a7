"""Yum Cha's notes on a step, for the shared events (``dimsum.play.events``): the cards the seat
drew (its own hand grew without a take), a round's end and the scores. Read only from the seat's
observation slices, so another seat's draw is never named (Yum Cha rulebook, "Setup": hands are
hidden)."""

from __future__ import annotations

from typing import List

from ...play.events import Step, counts, seat_texts


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
    if "scores" in step.changed and step.after["scores"] != "none":
        out.append("scores: " + seat_texts(step.after["scores"], step.seat, step.players).replace("=", " "))
    return out
