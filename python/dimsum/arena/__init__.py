"""The arena: seeded tournaments between bots, on one machine or on a Ray cluster (docs/ARENA.md).

    import dimsum.arena
    results = dimsum.arena.run(dimsum.make("nice_buns", players=2), "random,random", games=20, seed=1)
    print(results.table())

Modules, one job each: ``schedule`` (line-ups and seeds), ``players`` (bots from specs or
objects), ``runner`` (playing games: what a worker runs), ``move_timer`` (the per-move time limit
in the playing process), ``watchdog`` (the parent's backstop over its workers' moves),
``local_backend`` / ``ray_backend`` (where chunks of games run), ``ratings`` (Wilson,
Bradley-Terry), ``results`` (standings, table, JSON), ``progress`` (the bar), ``tournament``
(``run``, tying them together).
"""

from .results import Results, Standing
from .runner import BotFailure, GameResult
from .schedule import Schedule, lineups
from .tournament import ArenaError, run

__all__ = ["ArenaError", "BotFailure", "GameResult", "Results", "Schedule", "Standing", "lineups", "run"]
