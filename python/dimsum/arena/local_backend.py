"""Runs chunks in this process (workers=1) or in worker processes (multiprocessing, spawn context:
the same on every platform, and safe with threads in the parent).

Both backends take ``on_done(chunk)`` (a :class:`.runner.Chunk`) and ``needed(task)``: after a bot
failure, a task whose games all come after the failing game is not needed any more (it is
cancelled if not started), while the tasks before it still run, so the failure reported is always
the first by game index.

Nothing finished is lost on an interruption (Ctrl-C): in this process every game is handed to
``on_done`` as it ends; worker processes ignore SIGINT (a Ctrl-C in the terminal reaches them
too, and one dying outside a chunk would break the pool and lose every running chunk's games):
the parent sets a stop event instead, each worker hands back the games it finished once its
current game ends, and workers still playing after ``INTERRUPT_GRACE`` seconds are stopped:
SIGTERM, on which a worker closes every program of its external bots (their whole process groups)
before it ends, and SIGKILL for one still there after ``STOP_GRACE`` seconds.

With a move time limit the parent also watches each worker's current move (:mod:`.watchdog`): a
bot stuck where its worker's own alarm cannot stop it is named as failing, and the workers are
stopped."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Callable, Dict, List, Tuple

from ..protocol.process import GRACE
from . import runner
from .runner import BotFailure, Chunk, Task, play_chunk, play_games
from .watchdog import MoveBeacons, backstop_seconds

# Seconds an interrupted run waits for its running workers to hand back their finished games.
INTERRUPT_GRACE = 5.0
# Seconds between two looks at the workers' moves, when there is a move time limit.
WATCH_EVERY = 0.5
# Seconds a stopped worker has to close its bots' programs (quit, their grace, their groups killed)
# and end, before it is killed.
STOP_GRACE = 3 * GRACE

OnDone = Callable[[Any], None]
Needed = Callable[[Task], bool]


class WorkerFailure(RuntimeError):
    """A worker process died or could not run its chunk (not a bot's failure: those are results)."""


def run_inline(tasks: List[Task], on_done: OnDone, needed: Needed) -> None:
    """Plays the tasks here, handing every game to ``on_done`` as it ends (an interruption keeps
    them all)."""
    for task in tasks:
        if not needed(task):
            continue
        for outcome in play_games(task):
            if isinstance(outcome, BotFailure):
                on_done(Chunk([], outcome))
            else:
                on_done(Chunk([outcome], None))


def run_processes(tasks: List[Task], workers: int, on_done: OnDone, needed: Needed) -> None:
    """At most ``workers`` chunks run at a time; a running chunk is always gathered. A worker that
    was interrupted makes this an interruption (KeyboardInterrupt) once its games are kept."""
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    beacons = MoveBeacons(context, workers)
    limit = tasks[0].move_seconds if tasks else None
    backstop = None if limit is None else backstop_seconds(limit)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start_worker,
                               initargs=(stop, beacons))
    pending: Dict[Future, Task] = {}
    stopped = False  # the workers were stopped: nothing left to wait for
    try:
        pending = {pool.submit(_worker_chunk, task): task for task in tasks}
        while pending:
            finished, _ = wait(pending, timeout=None if backstop is None else WATCH_EVERY,
                               return_when=FIRST_COMPLETED)
            interrupted = False
            for future in finished:
                del pending[future]
                if not future.cancelled():
                    chunk = _result(future)
                    on_done(chunk)
                    interrupted = interrupted or chunk.interrupted
            if interrupted:
                raise KeyboardInterrupt("a worker process was interrupted")
            stuck = beacons.overdue(backstop) if backstop is not None else None
            if stuck is not None:  # a move its worker's own alarm could not end: the parent steps in
                on_done(Chunk([], _stuck_failure(tasks[0], stuck)))
                _stop_workers(pool)
                stopped = True
                return
            for future, task in list(pending.items()):
                if not needed(task) and future.cancel():
                    del pending[future]
    except KeyboardInterrupt:
        stop.set()
        stopped = _gather_interrupted(pool, pending, on_done)
        raise
    finally:
        # after the workers were stopped, waiting on the pool could block on a worker killed
        # mid-read of its call queue (a CPython limitation): an interruption must not hang
        pool.shutdown(wait=not stopped, cancel_futures=True)


def _start_worker(stop: Any, beacons: MoveBeacons) -> None:
    """In each worker process: SIGINT ignored, SIGTERM an interruption that closes the bots first
    (:func:`_on_terminate`), the parent's stop event checked between games, the current move shown
    to the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_terminate)
    runner.STOP = stop
    beacons.attach()
    runner.BEACON = beacons


_playing = False  # in a worker: a chunk is being played (its bots may hold programs)
_terminated = False  # in a worker: SIGTERM came while playing; the worker ends once its bots are closed


def _worker_chunk(task: Task) -> Chunk:
    """``play_chunk`` in a worker process. Stopped by the parent (SIGTERM) mid-chunk, the worker
    closes its bots' programs (``play_games`` ends them in its ``finally``: quit, grace, process
    groups killed) and then ends itself, as SIGTERM would have ended it."""
    global _playing
    try:
        _playing = True
        return play_chunk(task)
    finally:
        _playing = False
        if _terminated:
            _die_of_sigterm()


def _on_terminate(signum: int, frame: Any) -> None:
    """SIGTERM in a worker (the parent stopping it, or anyone's ``kill``). Left to its default it
    would end the worker at once, and the programs of its external bots, in sessions of their own,
    would run on. Playing, it becomes a KeyboardInterrupt (the move in progress ends, every bot
    program is closed) and the worker ends after; idle (no program running), it ends the worker now."""
    global _terminated
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: a second SIGTERM must not cut the closing short
    if not _playing:
        _die_of_sigterm()
    _terminated = True
    raise KeyboardInterrupt("the worker process was stopped (SIGTERM)")


def _die_of_sigterm() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(60)  # the signal is delivered before this returns; never reached


def _stuck_failure(task: Task, stuck: Tuple[int, int, int, float]) -> BotFailure:
    """The failure of the bot whose move a worker could not end: named from the schedule."""
    index, seat, step, age = stuck
    schedule = task.schedule
    bot = task.entrants[schedule.lineup_of(index)[seat]].name
    return BotFailure(index, seat, bot, schedule.deal_seed(index), schedule.bot_seed(index, seat), step,
                      f"it took more than the move time limit of {task.move_seconds:g} s to choose a move and "
                      f"its worker process could not stop it (after {age:.1f} s: stuck where no signal "
                      f"reaches, such as native code); the worker processes were stopped")


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """SIGTERM to every worker; each closes its bots' programs and ends (:func:`_on_terminate`). A
    worker still there after ``STOP_GRACE`` seconds (stuck where no signal reaches) is killed."""
    workers = [p for p in list(getattr(pool, "_processes", {}).values()) if p.is_alive()]  # no public kill
    for process in workers:
        process.terminate()
    deadline = time.monotonic() + STOP_GRACE
    for process in workers:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(STOP_GRACE)


def _result(future: Future) -> Chunk:
    try:
        return Chunk(*future.result())
    except Exception as e:  # BrokenProcessPool, or dimsum missing in the worker
        raise WorkerFailure(f"a worker process failed: {type(e).__name__}: {e}") from None


def _gather_interrupted(pool: ProcessPoolExecutor, pending: Dict[Future, Any], on_done: OnDone) -> bool:
    """After Ctrl-C (the stop event set): no new chunk starts; the running ones hand back their
    finished games when their current game ends, for up to INTERRUPT_GRACE seconds; the workers
    still running after that are stopped (the games they were playing are lost, the others kept).
    True if workers had to be stopped; idle workers are left to the pool's own orderly shutdown
    (stopping one blocked on the pool's queue could hang the others)."""
    running = [future for future in pending if not future.cancel()]
    done, late = wait(running, timeout=INTERRUPT_GRACE)
    for future in done:
        try:
            on_done(Chunk(*future.result()))
        except Exception:  # a worker that died: its games are lost, the others are still kept
            pass
    if late:
        _stop_workers(pool)
    return bool(late)
