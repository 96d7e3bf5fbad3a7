"""What the human sees of the table, per game, built only from what their seat may see.

- Yum Cha hides the other hands (Yum Cha rulebook, "Setup"; docs/rules/yum_cha.md), so its view is
  made from ``state.observation_string(p)`` alone: exactly the information of ``observation(p)``.
- Nice Buns and Dim Sum Jam hide nothing but the future draws (the bag's order, and in Dim Sum Jam
  the faces behind the order deck's backs: ruling DSJ-18; docs/OBSERVATIONS.md). Their readable
  dict (``state.to_dict()``) holds those only as the generator's state, ``rng``: the view reads
  every other field and never that one.

``str(state)`` (the omniscient picture) is never used here.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List

HIDDEN_DICT_FIELDS = ("rng",)  # the only field of to_dict() that holds what no seat may see


def public_dict(state: Any) -> Dict[str, Any]:
    """``state.to_dict()`` without the fields that hold hidden information."""
    return {k: v for k, v in state.to_dict().items() if k not in HIDDEN_DICT_FIELDS}


def seat_name(seat: int, human: int, names: List[str]) -> str:
    return "you" if seat == human else f"seat {seat} ({names[seat]})"


def _counts(text: str) -> str:
    """``"Mid 2=1, Mid 3=2"`` -> ``"Mid 2, Mid 3 x2"`` (the observation string's count slices)."""
    return re.sub(r"=(\d+)", lambda m: "" if m.group(1) == "1" else f" x{m.group(1)}", text)


def _observation_lines(state: Any, player: int) -> Dict[str, str]:
    """The slices of ``observation_string(player)`` by name (the first line is a title)."""
    lines = state.observation_string(player).splitlines()[1:]
    return dict(line.strip().split(": ", 1) for line in lines if ": " in line)


# ---- Yum Cha -------------------------------------------------------------------------------------
def yum_cha_view(state: Any, human: int, names: List[str]) -> str:
    n = len(names)
    slices = _observation_lines(state, human)

    def absolute(text: str) -> str:  # the observation's seats are relative to the observer
        text = re.sub(r"\bseat\+(\d+)", lambda m: f"seat {(human + int(m.group(1))) % n}", text)
        return re.sub(r"\bme\b", "you", text)

    out = [f"Your hand:  {_counts(slices.pop('hand', 'none'))}",
           f"Centre:     {_counts(slices.pop('centre', 'none'))}"]
    labels = {"known": "Known cards in other hands (taken from the centre)", "hand_sizes": "Hand sizes",
              "deck_size": "Cards in the deck", "scores": "Scores", "round": "Round", "phase": "Phase",
              "current_player": "To act", "last_taken": "Last taken", "turn": "Turn"}
    numbers = ("hand_sizes", "scores", "deck_size", "turn")  # "me=10": a number per seat, not a count of cards
    for key, value in slices.items():
        value = value.replace("=", " ") if key in numbers else _counts(value)
        out.append(f"{labels.get(key, key)}: {absolute(value)}")
    return "\n".join(out)


# ---- Nice Buns -----------------------------------------------------------------------------------
def _buns(counts: Dict[str, int]) -> str:
    return ", ".join(f"{v} {k}" for k, v in counts.items() if v) or "none"


def nice_buns_view(state: Any, human: int, names: List[str]) -> str:
    d = public_dict(state)
    dice = "   ".join(f"{die}: {face['shows']}" for die, face in d["dice"].items())
    out = [f"Turn {d['turn']}, phase {d['phase']}; {seat_name(d['roller'], human, names)} rolled   {dice}"]
    extras = [f"{label} {d[key]}" for key, label in (("split", "split"), ("chooser_takes", "chooser takes"),
                                                    ("die", "die"), ("draws_left", "draws left"))
              if d.get(key) not in (None, 0, [])]
    if d.get("cascade"):
        extras.append(f"cascade {d['cascade']}")
    if extras:
        out.append("   ".join(extras))
    out.append(f"Bag: {_buns(d['bag'])}   Tray: {_buns(d['tray'])}")
    for seat, info in enumerate(d["seats"]):
        plate = ", ".join(info["plate"]) or "-"
        fish = f"   fish head on {info['fish_on']}" if info.get("fish_on") else ""
        out.append(f"  {seat_name(seat, human, names):<28} in front: {_buns(info['front']):<36} plate: {plate}{fish}")
    return "\n".join(out)


# ---- Dim Sum Jam ---------------------------------------------------------------------------------
def sand_text(top: int, capacity: int, ticks_per_second: int, lying: bool = False, label: str = "Sand") -> str:
    """``"Sand: 112.0 s of 120.0 s [#########...]"``: the glass, shown the same way everywhere."""
    width = 30
    full = round(width * top / capacity) if capacity else 0
    state = " (lying down: stopped)" if lying else (" (empty)" if top == 0 else "")
    return (f"{label}: {top / ticks_per_second:.1f} s of {capacity / ticks_per_second:.1f} s "
            f"[{'#' * full}{'.' * (width - full)}]{state}")


def dim_sum_jam_view(state: Any, human: int, names: List[str]) -> str:
    d = public_dict(state)
    tps = state.game.options["ticks_per_second"]
    clock = d["clock"]
    limit = state.game.options["complaint_limit"]
    required = "any table" if d["required_table"] == 0 else f"table {d['required_table']}"
    discarder = "" if d["discarder"] is None else f"   discarding: {seat_name(d['discarder'], human, names)}"
    out = [sand_text(clock["top"], clock["capacity"], tps, clock["lying"], "Glass after the last move"),
           f"Complaints {d['complaints']} of {limit}   Exotic tea: {d['tea_supply']} in supply, "
           f"{d['tea_reception']} on reception   Deck: {len(d['deck'])} cards ({d['deck']}, V = VIP)",
           f"Phase {d['phase']}   active: {seat_name(d['active'], human, names)}   next play: {required}{discarder}"]
    for k, table in enumerate(d["tables"], start=1):
        if table["card"] is None:
            out.append(f"  table {k}: no card")
            continue
        slots = " ".join(slot.upper() if slot == "tea" else slot if slot else f"({icon})"
                         for icon, slot in zip(table["icons"], table["slots"]))
        out.append(f"  table {k}: card {table['card']:>2}  {slots}")
    for seat, hand in enumerate(d["hands"]):
        out.append(f"  {seat_name(seat, human, names):<28} hand: {' '.join(hand) or '-'}")
    out.append(f"Bag: {len(d['bag'])} tokens   Discard pile: {' '.join(d['discard']) or '-'}")
    return "\n".join(out)


VIEWS: Dict[str, Callable[[Any, int, List[str]], str]] = {
    "yum_cha": yum_cha_view, "nice_buns": nice_buns_view, "dim_sum_jam": dim_sum_jam_view}


def view_text(state: Any, human: int, names: List[str]) -> str:
    """The table as ``human`` sees it; ``names`` names every seat (the human's entry is unused)."""
    try:
        view = VIEWS[state.game.name]
    except KeyError:  # a game added later: its observation string is always a fair view
        return state.observation_string(human)
    return view(state, human, names)
