"""A rating against rungs whose ratings are fixed: the one-parameter Bradley-Terry fit, and its
95% interval; and, for a cooperative game, a win rate with its Wilson interval.

A game against rung k is scored in [0, 1] (:mod:`.scores`); on the Elo scale the model says the
candidate's expected score against k is ``p_k(R) = 1 / (1 + 10 ** ((R_k - R) / 400))``. The
rating is the R at which the scores add up to what the model expects (the Bradley-Terry maximum
likelihood with the rungs held fixed), with one virtual tie against every rung played, the prior
the arena's fit uses (``dimsum.arena.ratings.bradley_terry``), which keeps a bot that won or lost
every game finite.

The interval is ``R +- 1.96 se``, the variance of the score sum taken as the larger of two
estimates: the model's (each game a Bernoulli draw with mean ``p_k``, which over-states the
variance of scores with ties or shares), and the empirical one over *rounds* (the games of a round
share one deal, so their scores may move together; a sum of squared round residuals captures
that). The larger of the two errs towards a wider interval, never a narrower one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, Hashable, List, Sequence, Tuple

from ..arena.ratings import Z95, wilson

ELO = 400.0  # 400 points: 10:1 odds
SLOPE = math.log(10) / ELO  # d logit / d rating
SEARCH = 4000.0  # the fit looks this far beyond the lowest and highest rung


def expected(rating: float, opponent: float) -> float:
    """The expected score against a rung of rating ``opponent``."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / ELO))


@dataclass(frozen=True)
class Estimate:
    """A rating and its 95% interval on the ladder's scale (Elo, or a win rate for a cooperative
    game)."""

    value: float
    low: float
    high: float

    @property
    def width(self) -> float:
        return self.high - self.low


@dataclass(frozen=True)
class Observation:
    """Some games of one round against one rung (games of a round share a deal): the rung's fixed
    rating, the candidate's score summed over the games (each game's in [0, 1]), and how many games."""

    opponent: float
    score: float
    round: Hashable
    games: int = 1


def fit_fixed(games: Sequence[Observation]) -> Estimate:
    """The candidate's rating against fixed rungs, with its 95% interval (module docstring)."""
    if not games:
        raise ValueError("a rating needs at least one game")
    opponents = sorted({g.opponent for g in games})
    # the data, plus one virtual tie against each rung played (a round of its own)
    data: List[Observation] = list(games) + [Observation(r, 0.5, ("virtual", r)) for r in opponents]

    def excess(rating: float) -> float:  # decreasing in rating: the scores above what the model expects
        return sum(g.score - g.games * expected(rating, g.opponent) for g in data)

    low, high = opponents[0] - SEARCH, opponents[-1] + SEARCH
    for _ in range(200):  # bisection: robust, and exact enough long before 200 halvings
        middle = (low + high) / 2
        if excess(middle) > 0:
            low = middle
        else:
            high = middle
        if high - low < 1e-9:
            break
    rating = (low + high) / 2
    information = sum(g.games * expected(rating, g.opponent) * (1 - expected(rating, g.opponent)) for g in data)
    rounds: Dict[Hashable, float] = {}
    for g in data:
        rounds[g.round] = rounds.get(g.round, 0.0) + g.score - g.games * expected(rating, g.opponent)
    variance = max(information, sum(r * r for r in rounds.values()))
    se = math.sqrt(variance) / (information * SLOPE)
    return Estimate(rating, rating - Z95 * se, rating + Z95 * se)


def win_rate(wins: float, games: int) -> Estimate:
    """A cooperative team's win rate against the game, with its 95% Wilson interval."""
    if games < 1:
        raise ValueError("a win rate needs at least one game")
    low, high = wilson(wins, games)
    return Estimate(wins / games, low, high)


def rung_ratings(names: Sequence[str], scores: Dict[Tuple[int, int], Tuple[float, int]], anchor: int,
                 anchor_rating: float) -> List[float]:
    """The rungs' own ratings from their tournament: ``scores[(a, b)] = (a's score sum, games)``
    for a < b. Bradley-Terry on the Elo scale as the arena fits it (one virtual tie per pair that
    met), shifted so that rung ``anchor`` has ``anchor_rating``."""
    from ..arena.ratings import bradley_terry

    n = len(names)
    wins = [[0.0] * n for _ in range(n)]
    for (a, b), (score, games) in scores.items():
        wins[a][b] += score
        wins[b][a] += games - score
    fitted = bradley_terry(wins, iterations=100000, tolerance=1e-13)
    shift = anchor_rating - fitted[anchor]
    return [r + shift for r in fitted]
