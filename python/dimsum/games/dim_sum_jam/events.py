"""Dim Sum Jam's notes on a step, for the shared events (``dimsum.play.events``): a complaint and
its cause (Dim Sum Jam rulebook, "Complaints": the sand running out, or the active player unable to
serve), the glass, and the end. Read only from the seat's observation slices (the step's ``before``
and ``after``), so a seat's events hold nothing it could not see."""

from __future__ import annotations

from typing import Any, List

from ...play.events import Step, counts, relative_seat, seat_words

ENDINGS = {"win": "the team wins: the last VIP order is fulfilled",
           "deck_out": "the team loses: the deck ran out while a VIP order was unfulfilled",
           "complaints": "the team loses: the complaint limit is reached"}


def _one(text: str) -> str:
    """The label of a one-hot slice (``"+2=1"`` -> ``"+2"``), or "" if none."""
    return next(iter(counts(text)), "")


def notes(step: Step) -> List[str]:
    out: List[str] = []
    old, new = counts(step.before.get("counts", "")), counts(step.after.get("counts", ""))
    before_c, after_c = int(old.get("complaints", 0)), int(new.get("complaints", 0))
    if after_c > before_c:
        limit = after_c + int(new.get("complaints left", 0))
        clock = counts(step.after.get("clock", ""))
        if _one(step.after.get("phase", "")) == "timeout_discard" or clock.get("top", 0) == 0:
            why = "the sand ran out."
            then = " The game pauses: players may discard and replenish, then the glass is flipped."
        else:  # the other cause: the active player had nothing to play at the required table
            active = relative_seat(_one(step.after.get("active_player", "")), step.seat, step.players)
            who = "the active player" if active is None else seat_words(active, step.seat)
            why = f"{who} could not serve (the glass is laid down)."
            then = (" You may" if active == step.seat else " They may") + \
                " discard and replenish, then stand the glass and play on any table."
        lost = " That is the last one: the team loses." if after_c >= limit else then
        out.append(f"COMPLAINT {after_c} of {limit}: {why}{lost}")
    if step.kind == "time" and "clock" in step.changed and counts(step.after["clock"]).get("top", 0) == 0:
        if after_c <= before_c:
            out.append("the sand ran out")
    if "outcome" in step.changed:
        ending = _one(step.after["outcome"])
        if ending:
            out.append("GAME OVER: " + ENDINGS.get(ending, ending))
    return out
