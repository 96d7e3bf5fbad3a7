"""``dimsum.ladder.rate``: rates a bot by playing a :class:`.rater.Rater`'s matches through the
arena (``dimsum.arena.run``: the same seeding, seat balance, move time limit, failure handling,
records, worker processes and Ray).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Optional, Union

from ..arena.tournament import MOVE_SECONDS
from .ladders import Ladder
from .rater import DEFAULT_MAX_GAMES, MATCH_GAMES, Rater
from .report import Report


class RatingStopped(RuntimeError):
    """A match could not finish (a bot failed, Ray unreachable): ``report`` holds the rating of
    the matches that did finish (also written to ``json_path`` when one was given)."""

    def __init__(self, message: str, report: Optional[Report] = None) -> None:
        super().__init__(message)
        self.report = report


def rate(ladder: Ladder, bot: Any, seed: Optional[int] = None, width: Optional[float] = None,
         max_games: int = DEFAULT_MAX_GAMES, match_games: int = MATCH_GAMES, workers: int = 1,
         ray: Optional[str] = None, record_dir: Union[str, Path, None] = None,
         json_path: Union[str, Path, None] = None, progress: bool = True,
         move_seconds: Optional[float] = MOVE_SECONDS, name: Optional[str] = None) -> Report:
    """Rates ``bot`` (a spec string such as ``"ismcts:simulations=200"``, a ``(kind, params)`` pair,
    a bot object or a callable: what the arena takes) on ``ladder`` (``dimsum.ladder.load``).

    ``seed``: the rating's seed (None: one drawn from the operating system, reported; the same seed
    gives the same matches, and for a seeded bot the same rating). ``width``, ``max_games``,
    ``match_games``: the :class:`Rater`'s. ``workers``, ``ray``, ``move_seconds``, ``progress``: the
    arena's, for each match. ``record_dir``: every game as a record, ``DIR/match-003/game-000001.json``.
    ``json_path``: the report as JSON, after every match and at the end. ``name``: the bot's name
    in the report (default: the arena's name for it). A bot that fails stops the rating
    (:class:`RatingStopped`, with the report of the finished matches)."""
    import dimsum.arena
    from ..arena import ray_backend
    from ..arena.players import entrants

    game = ladder.make_game()
    if seed is None:
        from .._secrets import new_secret, secret_seed

        seed = secret_seed(new_secret(), 0)
    rater = Rater(ladder, seed, width, max_games, match_games)
    candidate = entrants([bot], game)[0]  # checks the bot now, before any game
    report_name = name or candidate.name
    started_ray = False
    if ray is not None:  # one connection for every match (each arena run reuses it)
        try:
            started_ray = ray_backend.connect(ray)
        except ray_backend.RayUnavailable as e:
            raise RatingStopped(str(e)) from None
    cpu_start = _cpu_seconds()

    def report(complete: bool, failure: Optional[str] = None) -> Report:
        return Report.of(rater, report_name, complete, failure, _cpu_seconds() - cpu_start)

    try:
        while (plan := rater.next_match()) is not None:
            bots = [bot] if plan.rung is None else [bot, plan.rung.spec]
            records = None if record_dir is None else Path(record_dir) / f"match-{plan.number:03d}"
            try:
                results = dimsum.arena.run(game, bots, games=plan.game_count, seed=plan.seed, workers=workers,
                                           ray=ray, record_dir=records, progress=progress,
                                           move_seconds=move_seconds)
            except dimsum.arena.ArenaError as e:
                stopped = report(False, f"match {plan.number} against {_against(plan)}: {e}")
                if json_path is not None:
                    stopped.save(json_path)
                raise RatingStopped(stopped.failure or str(e), stopped) from None
            assert results.schedule == plan.schedule  # the arena played the plan's games
            rater.record(plan, results.games)
            if json_path is not None:
                report(False).save(json_path)
    finally:
        if started_ray:
            import ray as ray_module

            ray_module.shutdown()
    final = report(True)
    if json_path is not None:
        final.save(json_path)
    return final


def _against(plan: Any) -> str:
    return "the game" if plan.rung is None else plan.rung.name


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (worker processes)."""
    times = os.times()
    return time.process_time() + times.children_user + times.children_system
