"""A tournament's results: every game by index, each bot's standing, the table and the JSON.

Everything here is computed from the games in index order, so the same seed gives the same
standings, table and JSON however many workers played and in whatever order games finished.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

from .ratings import bradley_terry, wilson
from .runner import BotFailure, GameResult
from .schedule import Schedule

FORMAT = "dimsum-arena/1"


@dataclass(frozen=True)
class Standing:
    """One bot's line in the table. ``games``: games it played; ``mean_return``: its mean return
    per seat; ``win_rate``: its share of wins per seat (a win shared by k seats counts 1/k; in a
    cooperative game every seat of a winning team counts 1), with the 95% Wilson interval over
    games; ``rating``: Bradley-Terry on the Elo scale, when more than two bots meet;
    ``invalid_rate``: for a bot that counts its model's replies (the llm bot), the share of them
    that named no legal move (None for other bots, and before any reply)."""

    bot: str
    games: int
    mean_return: float
    win_rate: float
    interval: Tuple[float, float]
    rating: Optional[float]
    invalid_rate: Optional[float] = None


@dataclass
class Results:
    game: str
    options: Dict[str, Any]
    seed: int
    bots: List[str]
    schedule: Schedule
    cooperative: bool
    games: List[GameResult] = field(default_factory=list)
    failure: Optional[BotFailure] = None
    # the tournament's table secret, set once no game runs any more (dimsum.arena.run's ``secret``)
    secret: Optional[str] = None

    @property
    def complete(self) -> bool:
        return self.failure is None and len(self.games) == self.schedule.games

    def standings(self) -> List[Standing]:
        n = len(self.bots)
        played = [0] * n
        returns = [0.0] * n
        wins = [0.0] * n
        pairwise = [[0.0] * n for _ in range(n)]
        replies, invalid = [0] * n, [0] * n
        for g in sorted(self.games, key=lambda g: g.index):
            for seat, (read, refused) in enumerate(g.replies or ()):
                replies[g.lineup[seat]] += read
                invalid[g.lineup[seat]] += refused
            seats_of: Dict[int, List[int]] = {}
            for seat, bot in enumerate(g.lineup):
                seats_of.setdefault(bot, []).append(seat)
            for bot, seats in seats_of.items():
                played[bot] += 1
                returns[bot] += sum(g.returns[s] for s in seats) / len(seats)
                wins[bot] += sum(self._win(g, s) for s in seats) / len(seats)
            for s, a in enumerate(g.lineup):
                for t, b in enumerate(g.lineup):
                    if a != b and g.returns[s] > g.returns[t]:
                        pairwise[a][b] += 1.0
                    elif a != b and s < t and g.returns[s] == g.returns[t]:
                        pairwise[a][b] += 0.5
                        pairwise[b][a] += 0.5
        rated = n > 2 and not self.cooperative
        ratings = bradley_terry(pairwise) if rated else [None] * n
        return [Standing(self.bots[b], played[b], returns[b] / played[b] if played[b] else 0.0,
                         wins[b] / played[b] if played[b] else 0.0, wilson(wins[b], played[b]), ratings[b],
                         invalid[b] / replies[b] if replies[b] else None)
                for b in range(n)]

    def _win(self, g: GameResult, seat: int) -> float:
        if self.cooperative:
            return 1.0 if g.winners else 0.0
        return 1.0 / len(g.winners) if seat in g.winners else 0.0

    # ---- output -------------------------------------------------------------------------------
    def table(self) -> str:
        """The standings as a text table, best win rate first (ties in the order the bots were given)."""
        rows = sorted(self.standings(), key=lambda s: -s.win_rate)
        rated = any(s.rating is not None for s in rows)
        what = "team (one bot in every seat)" if self.cooperative else "bot"
        width = max([len(what)] + [len(s.bot) for s in rows])
        header = f"{what:<{width}}  {'games':>6}  {'mean return':>11}  {'win rate':>8}  {'95% CI (Wilson)':>15}"
        header += f"  {'rating':>6}" if rated else ""
        counted = any(s.invalid_rate is not None for s in rows)  # a column only where a bot counts replies
        header += f"  {'invalid':>7}" if counted else ""
        lines = [header, "-" * len(header)]
        for s in rows:
            line = (f"{s.bot:<{width}}  {s.games:>6}  {s.mean_return:>11.3f}  {s.win_rate:>8.3f}  "
                    f"{f'[{s.interval[0]:.3f}, {s.interval[1]:.3f}]':>15}")
            line += f"  {s.rating:>6.0f}" if rated and s.rating is not None else ""
            if counted:
                line += f"  {s.invalid_rate:>7.3f}" if s.invalid_rate is not None else f"  {'-':>7}"
            lines.append(line)
        played = f"{len(self.games)} of {self.schedule.games} games" if not self.complete else f"{len(self.games)} games"
        lines.append(f"{played} of {self.game} {self._options_text()}, seed {self.seed}: "
                     f"{len(self.schedule.lineups)} line-ups x {self.schedule.rounds} rounds"
                     + ("; rating: Bradley-Terry, Elo scale" if rated else ""))
        if self.failure is not None:
            lines.append("stopped: " + self.failure.describe())
        return "\n".join(lines)

    def _options_text(self) -> str:
        """The options that differ from the game's defaults (all of them would fill a screen)."""
        import dimsum

        defaults = dimsum.make(self.game).options
        changed = [f"{k}={v}" for k, v in sorted(self.options.items()) if defaults.get(k) != v]
        return "(" + (", ".join(changed) or "default options") + ")"

    def to_json(self) -> Dict[str, Any]:
        """The whole tournament as a JSON object: settings, standings, and every finished game."""
        return {
            "format": FORMAT,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "bots": list(self.bots),
            "cooperative": self.cooperative,
            "lineups": [list(lineup) for lineup in self.schedule.lineups],
            "rounds": self.schedule.rounds,
            "complete": self.complete,
            "failure": None if self.failure is None else {**self.failure.__dict__, "description": self.failure.describe()},
            "standings": [{**s.__dict__, "interval": list(s.interval)} for s in self.standings()],
            **({"secret": self.secret} if self.secret is not None else {}),
            "games": [{"index": g.index, "round": g.round, "seed": g.seed,
                       "players": [self.bots[b] for b in g.lineup], "returns": list(g.returns),
                       "winners": list(g.winners), "reason": g.reason, "length": g.length,
                       **({"replies": [list(r) for r in g.replies]} if g.replies is not None else {})}
                      for g in sorted(self.games, key=lambda g: g.index)],
        }

    def save(self, path: Union[str, Path]) -> None:
        """Writes :meth:`to_json` to ``path`` through a temporary file, so a reader never sees half a
        file, and never through a symbolic link (OSError): ``dimsum._files.write_atomically``."""
        from .._files import write_atomically

        write_atomically(Path(path), json.dumps(self.to_json(), indent=1) + "\n")
