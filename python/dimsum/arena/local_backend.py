"""Runs chunks in this process (workers=1) or in worker processes (multiprocessing, spawn context:
the same on every platform, and safe with threads in the parent).

Both backends take ``on_done(chunk result)`` and ``needed(task)``: after a bot failure, a task whose
games all come after the failing game is not needed any more (it is cancelled if not started),
while the tasks before it still run, so the failure reported is always the first by game index."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Callable, List

from .runner import Task, play_chunk

OnDone = Callable[[Any], None]
Needed = Callable[[Task], bool]


class WorkerFailure(RuntimeError):
    """A worker process died or could not run its chunk (not a bot's failure: those are results)."""


def run_inline(tasks: List[Task], on_done: OnDone, needed: Needed) -> None:
    for task in tasks:
        if needed(task):
            on_done(play_chunk(task))


def run_processes(tasks: List[Task], workers: int, on_done: OnDone, needed: Needed) -> None:
    """At most ``workers`` chunks run at a time; a running chunk is always gathered."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending = {pool.submit(play_chunk, task): task for task in tasks}
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                del pending[future]
                if not future.cancelled():
                    try:
                        chunk = future.result()
                    except Exception as e:  # BrokenProcessPool, or dimsum missing in the worker
                        raise WorkerFailure(f"a worker process failed: {type(e).__name__}: {e}") from None
                    on_done(chunk)
            for future, task in list(pending.items()):
                if not needed(task) and future.cancel():
                    del pending[future]
