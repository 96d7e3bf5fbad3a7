"""A rating's report: the rating with its 95% interval, where it sits among the rungs, the games
against each rung, every match; as text (what the command prints) and as JSON (``--json``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

from .estimate import Estimate
from .rater import Rater, RungResult

FORMAT = "dimsum-ladder-rating/1"


@dataclass(frozen=True)
class Report:
    ladder: Dict[str, Any]  # name, version, game, players, options, scale: what a citation needs
    bot: str
    seed: Optional[int]  # None: not shown (an agent rated over MCP: the seed is the deals of its games)
    settings: Dict[str, Any]  # width, max_games, match_games, min_games
    rating: Optional[Estimate]
    games: int
    stopped: Optional[str]
    per_rung: Tuple[RungResult, ...]
    matches: Tuple[Dict[str, Any], ...]
    complete: bool
    failure: Optional[str]
    cpu_seconds: Optional[float]  # None: not measured (the games were played elsewhere)
    rungs: Tuple[Tuple[str, float], ...]  # the ladder's rungs and ratings, for placing the rating

    @classmethod
    def of(cls, rater: Rater, bot: str, complete: bool, failure: Optional[str], cpu_seconds: Optional[float],
           show_seed: bool = True) -> "Report":
        """The report of ``rater``'s finished matches; ``show_seed`` False leaves out the rating's seed
        and the matches' (for a report handed to the player itself)."""
        ladder = rater.ladder
        matches = tuple({"number": p.number, "against": p.rung.name if p.rung else "the game",
                         **({"seed": p.seed} if show_seed else {}), "games": len(s), "score": sum(s)}
                        for p, s in zip(rater.plans, rater.scores))
        played = rater.games_played > 0
        return cls({"name": ladder.name, "version": ladder.version, "game": ladder.game, "players": ladder.players,
                    "options": ladder.options, "scale": ladder.scale},
                   bot, rater.seed if show_seed else None, {"width": rater.width, "max_games": rater.max_games,
                                     "match_games": rater.match_games, "min_games": rater.min_games,
                                     "one_seat": rater.one_seat},
                   rater.estimate() if played else None, rater.games_played, rater.stopped() if complete else None,
                   tuple(rater.results()) if played else (), matches, complete, failure, cpu_seconds,
                   tuple((r.name, r.rating) for r in sorted(ladder.rungs, key=lambda r: r.rating)))

    @property
    def cooperative(self) -> bool:
        return bool(self.ladder["scale"] == "win_rate")

    def citation(self) -> str:
        """How to cite the rating: the value and interval, the ladder and its version, the game."""
        if self.rating is None:
            return "no rating (no game finished)"
        return (f"{self._value(self.rating.value)} [{self._value(self.rating.low)}, {self._value(self.rating.high)}] "
                f"({'win rate against the game' if self.cooperative else 'Elo, random = 1000'}), dimsum ladder "
                f"{self.ladder['name']} v{self.ladder['version']}, {self.games} games"
                + ("" if self.seed is None else f", seed {self.seed}"))

    def _value(self, x: float) -> str:
        return f"{x:.3f}" if self.cooperative else f"{x:.0f}"

    def place(self) -> str:
        """Where the rating sits among the rungs."""
        if self.rating is None:
            return ""
        below = [r for r in self.rungs if r[1] <= self.rating.value]
        above = [r for r in self.rungs if r[1] > self.rating.value]
        def name(rung: Tuple[str, float]) -> str:
            return f"{rung[0]} ({self._value(rung[1])})"

        if not below:
            return f"below every rung (the lowest: {name(above[0])}): the rating is an extrapolation"
        if not above:
            return f"above every rung (the highest: {name(below[-1])}): the rating is an extrapolation"
        return f"between {name(below[-1])} and {name(above[0])}"

    def text(self) -> str:
        what = "team (this bot in every seat)" if self.cooperative else "bot"
        lines = [f"{what} {self.bot} on ladder {self.ladder['name']} v{self.ladder['version']}"]
        if self.rating is not None:
            scale = "win rate against the game" if self.cooperative else "rating (Elo scale, random = 1000)"
            lines.append(f"{scale}: {self._value(self.rating.value)}, 95% interval "
                         f"[{self._value(self.rating.low)}, {self._value(self.rating.high)}]; {self.place()}")
        header = f"{'against':<45}  {'rating':>7}  {'games':>5}  {'score':>7}  {'expected':>8}"
        lines += ["", header, "-" * len(header)]
        for r in self.per_rung:
            lines.append(f"{r.rung:<45}  {self._value(r.rating):>7}  {r.games:>5}  {r.score:>7.1f}  {r.expected:>8.1f}")
        end = self.stopped or ("stopped: " + self.failure if self.failure else "not finished")
        seed = "" if self.seed is None else f", seed {self.seed}"
        cpu = "" if self.cpu_seconds is None else f"; {self.cpu_seconds:.1f} s CPU"
        lines.append(f"{self.games} games in {len(self.matches)} matches{seed}; {end}{cpu}")
        lines.append("cite: " + self.citation())
        return "\n".join(lines)

    def to_json(self) -> Dict[str, Any]:
        return {
            "format": FORMAT, "ladder": self.ladder, "bot": self.bot, **({} if self.seed is None else {"seed": self.seed}),
            "settings": self.settings,
            "rating": None if self.rating is None else {"value": self.rating.value, "interval": [self.rating.low,
                                                                                                self.rating.high]},
            "citation": self.citation(), "place": self.place(), "games": self.games, "stopped": self.stopped,
            "per_rung": [r.__dict__ for r in self.per_rung], "matches": list(self.matches),
            "complete": self.complete, "failure": self.failure, "cpu_seconds": self.cpu_seconds,
        }

    def save(self, path: Union[str, Path]) -> None:
        from .._files import write_atomically

        write_atomically(Path(path), json.dumps(self.to_json(), indent=1) + "\n")
