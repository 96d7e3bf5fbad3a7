"""Dim Sum Jam as the terminal player shows it to one seat (``python -m dimsum play dim_sum_jam``).

Only the future draws are hidden (the bag's order and the faces behind the order deck's backs:
ruling DSJ-18; docs/OBSERVATIONS.md): the view reads the readable dict without the generator's
state (``public_dict``).
"""

from __future__ import annotations

from typing import Any, List

from ...play.commands import Shortcut
from ...play.views import public_dict, sand_text, seat_name

# The reward for a fulfilled order is flipping the glass (docs/rules/dim_sum_jam.md, section 6):
# on the clock, a key that plays it at once.
SHORTCUTS = (Shortcut(keys=("f", "flip"), action="flip the glass",
                      help="flip the glass (when the team may: the reward for a fulfilled order); if the "
                           "sand runs out, the team gets a complaint",
                      refused="You can flip the glass only as the team's reward for a fulfilled order "
                              "(Dim Sum Jam rulebook, 'Game Play').",
                      realtime=True),)


def view(state: Any, human: int, names: List[str]) -> str:
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
