"""``dimsum.arena.run``: a seeded tournament on one process, on worker processes or on Ray."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

from .. import game_info
from .._common import check_seed
from .._secrets import check_secret
from . import local_backend
from .players import check_picklable, entrants as make_entrants
from .progress import Progress
from .results import Results
from .runner import Chunk, Task
from .schedule import Schedule, lineups


SAVE_EVERY = 10.0  # seconds between two writes of the JSON while a tournament runs
MOVE_SECONDS = 60.0  # the default move time limit: generous, it is there to stop a bot that hangs


class ArenaError(RuntimeError):
    """The tournament could not finish: a bot failed, or Ray could not be reached. ``results``
    holds the games that did finish (also written to ``json_path`` when one was given)."""

    def __init__(self, message: str, results: Optional[Results] = None) -> None:
        super().__init__(message)
        self.results = results


def run(game: Any, bots: Any, games: int = 100, seed: int = 0, workers: int = 1, ray: Optional[str] = None,
        record_dir: Union[str, Path, None] = None, json_path: Union[str, Path, None] = None,
        progress: bool = True, chunk_size: Optional[int] = None,
        move_seconds: Optional[float] = MOVE_SECONDS, secret: Optional[str] = None) -> Results:
    """Plays a tournament of ``bots`` at ``game`` and returns its :class:`Results`.

    ``game``: a Game from ``dimsum.make`` (or a game name, with default options). ``bots``: a spec
    list (``"ismcts:simulations=100,random"``) or a sequence of specs, bots and callables; objects
    are used as they are and must pickle for ``workers > 1`` or Ray. ``games``: at least this many,
    rounded up to whole rounds of the line-ups (``dimsum.arena.schedule``). ``workers``: processes
    on this machine; ``ray``: run on Ray instead (``"local"``, ``"auto"`` or ``"host:port"``).
    ``record_dir``: a directory that receives every game as a ``dimsum.records.Record``
    (``game-000042.json``) as it arrives. ``json_path``: the results as JSON, written every
    ``SAVE_EVERY`` seconds while games arrive, at the end, and when the tournament stops early
    (Ctrl-C among the causes: every finished game is kept). ``chunk_size``: games per task (default:
    a few tasks per worker). ``move_seconds``: the longest a bot may take for one move (default
    ``MOVE_SECONDS``, 60 s; None: no limit); a bot that takes longer is stopped in its move and
    stops the tournament as a failing bot does (docs/ARENA.md, "Time limit"). Records and the JSON
    are written atomically, never through a symbolic link (an OSError). ``secret``: the tournament's
    table secret (32 hex digits, ``dimsum._secrets``; default a fresh one), from which each game's
    is drawn and handed to the bots that send seeds to outsiders (external bots: their programs'
    seeds come from it, never from the deal's seed); each game's record keeps its own, and the
    JSON's last write and ``Results.secret`` keep the tournament's, so a run replays exactly.

    The same seed (and, with external bots, the same secret) gives the same results for any
    ``workers``, ``ray`` and ``chunk_size``. Bad
    arguments are ValueError/TypeError before any game; a bot that fails, or Ray that cannot be
    reached, is an :class:`ArenaError` that keeps the finished games. After a failure the games
    before it still finish, so the failure named is the first by game index whatever the workers."""
    import dimsum

    if isinstance(game, str):
        game = dimsum.make(game)
    if not all(hasattr(game, name) for name in ("new_state", "name", "options", "players")):
        raise TypeError(f"game is a Game from dimsum.make(...) or a game name, got {type(game).__name__}")
    if game.options.get("chance", "sampled") != "sampled":
        raise ValueError("the arena plays sampled games (chance='sampled'): it has no chance player of its own")
    seed = check_seed(seed)
    for name, value in (("games", games), ("workers", workers)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be an int >= 1, got {value!r}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size < 1):
        raise ValueError(f"chunk_size must be an int >= 1 or None, got {chunk_size!r}")
    move_seconds = check_move_seconds(move_seconds)
    secret = check_secret(secret)
    if ray is not None and not isinstance(ray, str):
        raise TypeError(f"ray is None (no Ray), 'local', 'auto' or 'host:port'; got {type(ray).__name__}")
    if ray is not None and workers > 1:
        raise ValueError(f"workers={workers} and ray={ray!r} exclude each other: on Ray the cluster's CPUs are the workers")
    entrants = make_entrants(bots, game)
    cooperative = game_info(game.name).cooperative  # all seats share one return: one team per bot
    schedule = Schedule.at_least(seed, lineups(len(entrants), game.players, cooperative), games)
    if ray is None and workers > 1:
        check_picklable(entrants, "worker processes")
    results = Results(game.name, dict(game.options), seed, [e.name for e in entrants], schedule, cooperative)
    records = Path(record_dir) if record_dir is not None else None
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)

    def tasks(chunks: int) -> List[Task]:
        size = chunk_size or max(1, -(-schedule.games // chunks))
        return [Task(game.name, dict(game.options), tuple(entrants), schedule,
                     tuple(range(start, min(start + size, schedule.games))), records is not None, move_seconds,
                     secret)
                for start in range(0, schedule.games, size)]

    label = f"{game.name}: {', '.join(results.bots)}"
    last_save = time.monotonic()
    try:
        with Progress(schedule.games, label, progress) as bar:
            def on_done(chunk: Chunk) -> None:
                finished, failure, _ = chunk
                for g in finished:
                    if records is not None and g.record is not None:
                        _save_record(records, g.index, g.record)
                    results.games.append(g)
                bar.advance(len(finished))
                if failure is not None and (results.failure is None or failure.index < results.failure.index):
                    results.failure = failure
                nonlocal last_save
                if json_path is not None and time.monotonic() - last_save > SAVE_EVERY:
                    results.save(json_path)  # a long run that dies loses at most SAVE_EVERY seconds of games
                    last_save = time.monotonic()

            def needed(task: Task) -> bool:
                return results.failure is None or task.indices[0] < results.failure.index

            if ray is not None:
                from . import ray_backend

                try:
                    started = ray_backend.connect(ray)
                except ray_backend.RayUnavailable as e:
                    raise ArenaError(str(e), results) from None
                import ray as ray_module

                try:
                    check_picklable(entrants, "Ray tasks", ray_module.cloudpickle.dumps)
                    ray_backend.run_ray(tasks(ray_backend.chunk_count(schedule.games)), on_done, needed)
                except ray_backend.RayUnavailable as e:
                    raise ArenaError(str(e), results) from None
                finally:
                    if started:
                        ray_module.shutdown()
            elif workers == 1:
                local_backend.run_inline(tasks(max(1, schedule.games // 8)), on_done, needed)
            else:
                try:
                    local_backend.run_processes(tasks(8 * workers), workers, on_done, needed)
                except local_backend.WorkerFailure as e:
                    raise ArenaError(str(e), results) from None
    finally:
        results.games.sort(key=lambda g: g.index)
        if any(callable(getattr(e.factory or e.obj, "use_table_secret", None)) for e in entrants):
            results.secret = secret  # only now, when no game runs any more (docs/ARENA.md, "Seeds")
        if json_path is not None:
            results.save(json_path)
    if results.failure is not None:
        raise ArenaError(results.failure.describe(), results)
    return results


def check_move_seconds(seconds: Any) -> Optional[float]:
    """A move time limit: None, or a number of seconds in [0.001, 10**6] (below a millisecond no
    bot could move; above it, the alarm's range)."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"move_seconds is a number of seconds or None, got {type(seconds).__name__} {seconds!r:.40}")
    if not 0.001 <= seconds <= 1e6:  # NaN fails this too
        raise ValueError(f"move_seconds must be in [0.001, 1000000] seconds (or None: no limit), got {seconds!r}")
    return float(seconds)


def _save_record(directory: Path, index: int, record: Dict[str, Any]) -> None:
    from ..records import Record

    Record.from_json(record).save(directory / f"game-{index:06d}.json")
