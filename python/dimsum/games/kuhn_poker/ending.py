"""How a finished Kuhn poker game ended (``state.outcome``), read off its state fields.

Three ways (docs/rules/kuhn_poker.md, KP-6): everyone passed and the highest card takes the antes
(reason ``"checked"``); a bet was called by at least one seat and the highest card among them wins
(``"showdown"``); or every other seat folded to the bet (``"fold"``). The description names the
winner and the pot, never a card: who won is public (the returns), the cards are not.
"""

from __future__ import annotations

from typing import Any, Mapping, Tuple

from .betting import put_in, still_in, winner


def ending(cfg: Any, fields: Mapping[str, Any]) -> Tuple[str, str, Tuple[int, ...]]:
    players = cfg.players
    won, pot, seats = winner(players, fields), sum(put_in(players, fields)), still_in(players, fields)
    if not fields["bets"]:
        return ("checked", f"Every seat passed; seat {won} held the highest card and takes the pot of {pot} chips.",
                (won,))
    if len(seats) == 1:
        return ("fold", f"Every other seat folded to seat {won}'s bet; seat {won} takes the pot of {pot} chips.",
                (won,))
    listed = ", ".join(str(p) for p in seats)
    return ("showdown", f"Seats {listed} bet; at the showdown seat {won} held the highest card and takes the pot of "
                        f"{pot} chips.", (won,))
