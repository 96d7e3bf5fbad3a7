"""The betting read off a state's fields, for the package's readable forms (the ending, the views):
who bet, who is still in, who won. The rules themselves are the core's and the reference's; this
reads a finished or running position the way docs/rules/kuhn_poker.md (KP-4 to KP-6) describes it.
"""

from __future__ import annotations

from typing import Any, List, Mapping, Optional


def actions(fields: Mapping[str, Any]) -> str:
    """The betting so far, OpenSpiel's way: one letter a decision, ``p`` pass, ``b`` bet."""
    return "".join("b" if fields["bets"] >> i & 1 else "p" for i in range(fields["decisions"]))


def first_bettor(fields: Mapping[str, Any]) -> Optional[int]:
    """The seat that bet first (decision i is seat i % players's; the first bet comes in round one)."""
    bets = fields["bets"]
    return (bets & -bets).bit_length() - 1 if bets else None


def put_in(players: int, fields: Mapping[str, Any]) -> List[int]:
    """Each seat's chips in the pot: the ante, and one more for a bet or a call (KP-1, KP-3)."""
    bets = fields["bets"]
    return [1 + (bets >> p & 1 or bets >> (players + p) & 1) for p in range(players)]


def still_in(players: int, fields: Mapping[str, Any]) -> List[int]:
    """The seats at the showdown: all if nobody bet, else those that bet or called (KP-6)."""
    if not fields["bets"]:
        return list(range(players))
    return [p for p, chips in enumerate(put_in(players, fields)) if chips == 2]


def winner(players: int, fields: Mapping[str, Any]) -> int:
    """The seat with the highest card still in (KP-6)."""
    return max(still_in(players, fields), key=lambda p: fields["cards"][p])
