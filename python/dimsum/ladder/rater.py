"""Rating a bot on a ladder, one match at a time: :class:`Rater` proposes the next match and takes
its results, and knows when to stop. It plays nothing itself, so whoever can play a game can be
rated: :func:`dimsum.ladder.rate` plays the matches through the arena for any bot; a server that
seats an agent (MCP) plays each proposed game with the agent in the candidate's seats and the rung
bots, made with the seeds given, in the others, and hands back the returns.

A match is some whole rounds of the arena's two-bot schedule (``dimsum.arena.schedule``): the
candidate is bot 0, the rung bot 1, every assignment of the two to the seats in which both play,
each round on one deal; in a cooperative game the candidate fills every seat and there is no
rung. With ``one_seat`` (an agent: a mind in several seats would see several hands), the
candidate holds exactly one seat a game, the rung all the others: a round is the candidate in
each seat once (at two seats, the same round as the arena's). Match ``k``'s arena seed is ``derive_seed(seed ^ STREAM, k)``, so the same seed proposes the
same matches and, for the same results, gives the same rating.

Which rung: the estimate so far lies between two rungs (or beyond the last one); the next match is
against whichever of those two has played the candidate fewer games (the nearer one on a tie), so
the candidate meets rungs on both sides of its strength, where a game says the most. The first
match is against the middle rung. Stopping: once at least ``min_games`` are played and the 95%
interval is narrower than ``width``, or when another match would exceed ``max_games``.

The deal seeds a match holds are the operator's: a player who learned them could compute every
hidden card and future draw. Give an outsider none of them (the arena hands a bot only its view,
its future redrawn); a rating for publication uses a seed nobody could guess (the default: drawn
from the operating system and reported).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..arena.schedule import Schedule, lineups
from ..reference.rng import derive_seed
from .estimate import Estimate, Observation, fit_fixed, win_rate
from .ladders import Ladder, Rung
from .scores import CANDIDATE, RUNG, pair_score, team_score

STREAM = 0x4C414444  # "LADD": a rating's match seeds apart from any other stream of its seed
MATCH_GAMES = 8  # a match is the fewest whole rounds holding this many games
DEFAULT_WIDTH = {"elo": 100.0, "win_rate": 0.1}  # a 95% interval of +-50 points, or +-5 points of win rate
DEFAULT_MAX_GAMES = 400


@dataclass(frozen=True)
class PlannedGame:
    """One game of a match: its index in the match's arena schedule, the deal's seed (the
    operator's: never an outsider's), the bot index in each seat (0: the candidate, 1: the rung),
    and the seed of the rung bot in each of the rung's seats."""

    index: int
    deal_seed: int
    lineup: Tuple[int, ...]
    rung_seeds: Dict[int, int]

    @property
    def candidate_seats(self) -> Tuple[int, ...]:
        return tuple(s for s, b in enumerate(self.lineup) if b == CANDIDATE)


@dataclass(frozen=True)
class MatchPlan:
    """Match ``number`` of a rating: against ``rung`` (None in a cooperative game), ``schedule``
    (the arena's, with the match's seed), :meth:`games` to play."""

    number: int
    rung: Optional[Rung]
    schedule: Schedule

    @property
    def seed(self) -> int:
        return self.schedule.seed

    @property
    def game_count(self) -> int:
        return self.schedule.games

    def games(self) -> List[PlannedGame]:
        s = self.schedule
        return [PlannedGame(i, s.deal_seed(i), s.lineup_of(i),
                            {seat: s.bot_seed(i, seat) for seat, b in enumerate(s.lineup_of(i)) if b == RUNG})
                for i in range(s.games)]


@dataclass(frozen=True)
class RungResult:
    """The candidate's games against one rung: how many, its score summed, and what the rating
    expects it to score."""

    rung: str
    rating: float
    games: int
    score: float
    expected: float


@dataclass
class Rater:
    """Rates one candidate on ``ladder`` (module docstring). ``width``: stop when the 95% interval
    is narrower (Elo points, or a win rate's fraction in a cooperative game; default
    ``DEFAULT_WIDTH``); ``max_games``: the budget; ``match_games``: games a match holds at least,
    rounded up to whole rounds; ``min_games``: none stops before (default two matches);
    ``one_seat``: the candidate holds one seat a game (module docstring; not in a cooperative
    game, where the candidate is the whole team)."""

    ladder: Ladder
    seed: int
    width: Optional[float] = None
    max_games: int = DEFAULT_MAX_GAMES
    match_games: int = MATCH_GAMES
    min_games: Optional[int] = None
    one_seat: bool = False
    plans: List[MatchPlan] = field(default_factory=list, init=False)
    scores: List[List[float]] = field(default_factory=list, init=False)  # per match, per game index

    def __post_init__(self) -> None:
        from .._common import check_seed

        self.seed = check_seed(self.seed)
        if self.width is None:
            self.width = DEFAULT_WIDTH[self.ladder.scale]
        if isinstance(self.width, bool) or not isinstance(self.width, (int, float)) or not self.width > 0:
            raise ValueError(f"width is the widest 95% interval to stop at, a number > 0; got {self.width!r}")
        for name in ("max_games", "match_games"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an int >= 1, got {value!r}")
        if self.one_seat and self.ladder.cooperative:
            raise ValueError(f"{self.ladder.name} rates a team (one bot in every seat) by its win rate against the "
                             f"game: a candidate holding one seat cannot be rated on it")
        self._lineups = (one_seat_lineups(self.ladder.players) if self.one_seat else
                         lineups(1 if self.ladder.cooperative else 2, self.ladder.players, self.ladder.cooperative))
        self._match_size = Schedule.at_least(0, self._lineups, self.match_games).games
        if self.max_games < self._match_size:
            raise ValueError(f"max_games={self.max_games} is less than one match of {self.ladder.name} "
                             f"({self._match_size} games: whole rounds of {len(self._lineups)} seatings)")
        if self.min_games is None:
            self.min_games = min(2 * self._match_size, self.max_games)
        self._open: Optional[MatchPlan] = None

    # ---- the conversation: next_match, record ---------------------------------------------------
    @property
    def games_played(self) -> int:
        return sum(len(s) for s in self.scores)

    def stopped(self) -> Optional[str]:
        """Why the rating is over (None while it is not): the interval is narrower than asked, or
        another match would exceed the game budget."""
        played, least, width = self.games_played, self.min_games or 0, self.width or 0.0
        if played >= least and self.estimate().width < width:
            return f"the 95% interval is narrower than {self.width:g}"
        if played + self._match_size > self.max_games:
            return f"the budget of {self.max_games} games is spent"
        return None

    def next_match(self) -> Optional[MatchPlan]:
        """The match to play next, or None when the rating is over. The same plan again until its
        results are recorded."""
        if self._open is not None:
            return self._open
        if self.stopped() is not None:
            return None
        number = len(self.plans)
        seed = derive_seed(self.seed ^ STREAM, number)
        self._open = MatchPlan(number, self._next_rung(), Schedule.at_least(seed, self._lineups, self.match_games))
        return self._open

    def record(self, plan: MatchPlan, games: Sequence[Any]) -> None:
        """The results of ``plan``: every one of its games, each an arena ``GameResult`` or a
        mapping, with ``index`` (in the plan), ``returns`` (one per seat) and ``winners`` (seats).
        ValueError, the rating unchanged, for results that are not the plan's."""
        if plan is not self._open:
            raise ValueError("these results are not for the match proposed last (next_match())")
        found: Dict[int, float] = {}
        for game in games:
            index, returns, winners = _read(game)
            if index in found or not 0 <= index < plan.game_count:
                raise ValueError(f"game index {index} is not one of this match's games (0..{plan.game_count - 1}), "
                                 f"or came twice")
            if len(returns) != self.ladder.players:
                raise ValueError(f"game {index}: {len(returns)} returns for {self.ladder.players} seats")
            if any(not 0 <= w < self.ladder.players for w in winners):
                raise ValueError(f"game {index}: winners {winners} are not seats")
            lineup = plan.schedule.lineup_of(index)
            found[index] = team_score(winners) if self.ladder.cooperative else pair_score(lineup, returns)
        if len(found) != plan.game_count:
            raise ValueError(f"a match is recorded whole: {len(found)} of its {plan.game_count} games given")
        self.plans.append(plan)
        self.scores.append([found[i] for i in range(plan.game_count)])
        self._open = None

    # ---- the rating ------------------------------------------------------------------------------
    def estimate(self) -> Estimate:
        """The rating so far with its 95% interval (ValueError before any game)."""
        if self.ladder.cooperative:
            return win_rate(sum(sum(s) for s in self.scores), self.games_played)
        return fit_fixed(self._observations())

    def _observations(self) -> List[Observation]:
        found = []
        for plan, scores in zip(self.plans, self.scores):
            assert plan.rung is not None
            rounds: Dict[int, List[float]] = {}
            for index, score in enumerate(scores):
                rounds.setdefault(plan.schedule.round_of(index), []).append(score)
            found += [Observation(plan.rung.rating, sum(s), (plan.number, r), len(s)) for r, s in rounds.items()]
        return found

    def _next_rung(self) -> Optional[Rung]:
        if self.ladder.cooperative:
            return None
        rungs = sorted(self.ladder.rungs, key=lambda r: (r.rating, r.name))
        if not self.scores:
            return rungs[(len(rungs) - 1) // 2]
        rating = self.estimate().value
        below = [r for r in rungs if r.rating <= rating]
        above = [r for r in rungs if r.rating > rating]
        if not below or not above:
            return (below or above)[-1 if below else 0]
        played = self.per_rung()
        pair = [below[-1], above[0]]
        return min(pair, key=lambda r: (played.get(r.name, (0, 0.0))[0], abs(r.rating - rating)))

    def per_rung(self) -> Dict[str, Tuple[int, float]]:
        """Games and score sum against each rung played (in a cooperative game: the team's, under
        the name "the game")."""
        found: Dict[str, Tuple[int, float]] = {}
        for plan, scores in zip(self.plans, self.scores):
            name = plan.rung.name if plan.rung is not None else "the game"
            games, score = found.get(name, (0, 0.0))
            found[name] = (games + len(scores), score + sum(scores))
        return found

    def results(self) -> List[RungResult]:
        """Per rung played, its games and the candidate's score, against the score the rating expects."""
        from .estimate import expected

        value = self.estimate().value
        out = []
        for name, (games, score) in self.per_rung().items():
            if self.ladder.cooperative:
                out.append(RungResult(name, value, games, score, games * value))
            else:
                rating = self.ladder.rung(name).rating
                out.append(RungResult(name, rating, games, score, games * expected(value, rating)))
        return sorted(out, key=lambda r: r.rating)


def one_seat_lineups(players: int) -> List[Tuple[int, ...]]:
    """The candidate in each seat once, the rung in every other seat."""
    return [tuple(CANDIDATE if s == seat else RUNG for s in range(players)) for seat in range(players)]


def _read(game: Any) -> Tuple[int, Tuple[float, ...], Tuple[int, ...]]:
    """(index, returns, winners) of a game result given as an object or a mapping."""
    def get(key: str) -> Any:
        return game.get(key) if isinstance(game, Mapping) else getattr(game, key, None)

    index, returns, winners = get("index"), _or_empty(get("returns")), _or_empty(get("winners"))
    if isinstance(index, bool) or not isinstance(index, int):
        raise ValueError(f"a game result's index is an int, got {type(index).__name__}")
    try:
        returns_t = tuple(float(r) for r in returns)
        winners_t = tuple(int(w) for w in winners)
    except (TypeError, ValueError):
        raise ValueError(f"game {index}: returns are numbers (one per seat) and winners are seats") from None
    if any(r != r or r in (float("inf"), float("-inf")) for r in returns_t):
        raise ValueError(f"game {index}: returns must be finite numbers")
    return index, returns_t, winners_t


def _or_empty(value: Any) -> Any:
    return () if value is None else value
