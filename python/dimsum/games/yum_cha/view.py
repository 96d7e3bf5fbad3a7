"""Yum Cha as the terminal player shows it to one seat (``python -m dimsum play yum_cha``).

Yum Cha hides the other hands (Yum Cha rulebook, "Setup"; docs/rules/yum_cha.md), so the view is
made from ``state.observation_string(p)`` alone: exactly the information of ``observation(p)``.
"""

from __future__ import annotations

import re
from typing import Any, List

from ...play.views import counts_text, observation_lines

def view(state: Any, human: int, names: List[str]) -> str:
    n = len(names)
    slices = observation_lines(state, human)

    def absolute(text: str) -> str:  # the observation's seats are relative to the observer
        text = re.sub(r"\bseat\+(\d+)", lambda m: f"seat {(human + int(m.group(1))) % n}", text)
        return re.sub(r"\bme\b", f"you (seat {human})", text)

    out = [f"Your hand:  {counts_text(slices.pop('hand', 'none'))}",
           f"Centre:     {counts_text(slices.pop('centre', 'none'))}"]
    labels = {"known": "Known cards in other hands (taken from the centre)", "hand_sizes": "Hand sizes",
              "deck_size": "Cards in the deck", "scores": "Scores", "round": "Round", "phase": "Phase",
              "current_player": "To act", "last_taken": "Last taken", "turn": "Turn"}
    numbers = ("hand_sizes", "scores", "deck_size", "turn")  # "me=10": a number per seat, not a count of cards
    for key, value in slices.items():
        value = value.replace("=", " ") if key in numbers else counts_text(value)
        out.append(f"{labels.get(key, key)}: {absolute(value)}")
    return "\n".join(out)
