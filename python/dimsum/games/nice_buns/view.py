"""Nice Buns as the terminal player shows it to one seat (``python -m dimsum play nice_buns``).

Everything is public but the bag's order (NB-12), which the readable dict holds only as the
generator's state: the view reads every other field (``public_dict``) and never that one.
"""

from __future__ import annotations

from typing import Any, Dict, List

from ...play.views import public_dict, seat_name


def _buns(counts: Dict[str, int]) -> str:
    return ", ".join(f"{v} {k}" for k, v in counts.items() if v) or "none"


def view(state: Any, human: int, names: List[str]) -> str:
    d = public_dict(state)
    dice = "   ".join(f"{die}: {face['shows']}" for die, face in d["dice"].items())
    # Before the first roll (an explicit-chance game's opening chance node) no seat has rolled yet.
    if d["roller"] is None:
        out = [f"Turn {d['turn']}, phase {d['phase']}; no dice rolled yet"]
    else:
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
