"""Kuhn poker as the terminal player shows it to one seat (``python -m dimsum play kuhn_poker``):
the seat's own card, the other seats' cards face down, each seat's chips in the pot and the
betting so far."""

from __future__ import annotations

from typing import Any, List

from ...play.commands import Shortcut
from ...play.views import seat_name
from . import card_name
from .betting import actions, put_in

# OpenSpiel's letters for the two decisions (its betting strings read "pb"): typing one plays it.
SHORTCUTS = (Shortcut(keys=("p",), action="pass", help="p: pass (check, or fold to a bet)",
                      refused="pass is a decision: it is not your turn"),
             Shortcut(keys=("b",), action="bet", help="b: bet (or call a bet)",
                      refused="bet is a decision: it is not your turn"))


def view(state: Any, human: int, names: List[str]) -> str:
    cfg = state.game.spec
    fields = state.fields()
    chips = put_in(cfg.players, fields)
    bets = actions(fields) or "none yet"
    out = [f"Kuhn poker, cards 0 (lowest) to {cfg.players}; pot {sum(chips)} chips; betting: {bets} (p pass, b bet)"]
    for seat in range(cfg.players):
        card = fields["cards"][seat]
        shown = "face down" if seat != human else ("not dealt yet" if card < 0 else card_name(card))
        marker = "  <- to play" if seat == state.current_player else ""
        out.append(f"  {seat_name(seat, human, names):<28} {shown:<14} {chips[seat]} in the pot{marker}")
    return "\n".join(out)
