"""A game's score for the candidate, in [0, 1]: the one number a rating is made of.

Competitive games: the candidate (bot 0 of the line-up) against the rung (bot 1), every pair of
their seats compared by return, as the arena's Bradley-Terry fit compares them (the higher return
wins the pair, equal returns are half a win each), averaged over the pairs, so every game weighs
the same whatever the seats each bot held. Cooperative games: 1 if the team won, else 0 (every seat
is the candidate's: a team plays the game, not an opponent).
"""

from __future__ import annotations

from typing import Sequence

CANDIDATE, RUNG = 0, 1  # the bot indices of a ladder match's line-ups


def pair_score(lineup: Sequence[int], returns: Sequence[float], first: int = CANDIDATE, second: int = RUNG) -> float:
    """The score of bot ``first`` against bot ``second`` in one game: its share of the seat pairs
    it won (a tie half)."""
    if len(lineup) != len(returns):
        raise ValueError(f"a game's returns hold one number per seat: {len(lineup)} seats, {len(returns)} returns")
    mine = [returns[s] for s, b in enumerate(lineup) if b == first]
    theirs = [returns[s] for s, b in enumerate(lineup) if b == second]
    if not mine or not theirs:
        raise ValueError(f"line-up {tuple(lineup)} does not seat both bots {first} and {second}")
    total = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in mine for b in theirs)
    return total / (len(mine) * len(theirs))


def team_score(winners: Sequence[int]) -> float:
    """A cooperative team's score: it won (1) or it did not (0)."""
    return 1.0 if len(winners) else 0.0
