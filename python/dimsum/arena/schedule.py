"""Who plays which seat in which game, and with which seeds: a function of (seed, game index) only.

Line-ups (a bot index per seat):

- competitive games, at least as many bots as seats: every ordered choice of distinct bots
  (``n!/(n-p)!`` line-ups: 2 bots and 2 seats give AB and BA; 3 bots and 2 seats give 6);
- competitive games, fewer bots than seats: every assignment of bots to seats in which each bot
  plays at least once (2 bots and 3 seats give the 6 of AAB, ABA, BAA, ABB, BAB, BBA);
- cooperative games (every seat shares the return): one team per bot, that bot in every seat.

Each set is closed under renaming the bots, so every bot sits in every seat equally often. The
arena plays whole rounds: a round is one game of every line-up, all dealt from the same seed
(``derive_seed(seed, round)``, a "duplicate" tournament: a line-up and its rotations meet the same
deal, which removes the luck of the deal from the comparison). Game ``i`` is line-up
``i % len(lineups)`` in round ``i // len(lineups)``; the bot in seat ``s`` of game ``i`` is seeded
with ``derive_seed(derive_seed(seed ^ BOT_STREAM, i), s)``. So a game's seeds never depend on how
many workers play the tournament or in which order games finish.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import List, Tuple

from ..reference.rng import derive_seed

# Separates the bots' seeds from the deals' ("BOTS" in ASCII), so no bot shares a stream with a deal.
BOT_STREAM = 0x424F5453

Lineup = Tuple[int, ...]


def lineups(n_bots: int, seats: int, cooperative: bool = False) -> List[Lineup]:
    """The line-ups of one round, in a fixed order (see the module docstring)."""
    if n_bots < 1 or seats < 1:
        raise ValueError(f"a tournament needs at least one bot and one seat (got {n_bots} bots, {seats} seats)")
    if cooperative:
        return [(b,) * seats for b in range(n_bots)]
    if n_bots >= seats:
        return list(itertools.permutations(range(n_bots), seats))
    return [lineup for lineup in itertools.product(range(n_bots), repeat=seats) if len(set(lineup)) == n_bots]


@dataclass(frozen=True)
class Schedule:
    """``rounds`` rounds of ``lineups``: ``len(lineups) * rounds`` games."""

    seed: int
    lineups: Tuple[Lineup, ...]
    rounds: int

    @classmethod
    def at_least(cls, seed: int, lineups: List[Lineup], games: int) -> "Schedule":
        """The fewest whole rounds that hold ``games`` games (so every line-up plays equally often)."""
        if games < 1:
            raise ValueError(f"games must be at least 1, got {games}")
        return cls(seed, tuple(lineups), -(-games // len(lineups)))

    @property
    def games(self) -> int:
        return len(self.lineups) * self.rounds

    def round_of(self, index: int) -> int:
        return index // len(self.lineups)

    def lineup_of(self, index: int) -> Lineup:
        return self.lineups[index % len(self.lineups)]

    def deal_seed(self, index: int) -> int:
        """The seed of ``new_state`` for game ``index``: the same for every game of a round."""
        return derive_seed(self.seed, self.round_of(index))

    def bot_seed(self, index: int, seat: int) -> int:
        return derive_seed(derive_seed(self.seed ^ BOT_STREAM, index), seat)
