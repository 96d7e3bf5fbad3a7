"""Runs chunks in this process (workers=1) or in worker processes (multiprocessing, spawn context:
the same on every platform, and safe with threads in the parent)."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Callable, List, Tuple

from .runner import Task, play_chunk

Done = Callable[[Tuple[list, object]], bool]  # on_done(chunk result) -> keep going?


def run_inline(tasks: List[Task], on_done: Done) -> None:
    for task in tasks:
        if not on_done(play_chunk(task)):
            return


def run_processes(tasks: List[Task], workers: int, on_done: Done) -> None:
    """At most ``workers`` chunks at a time; after ``on_done`` says stop, the chunks not yet started
    are cancelled and the running ones are still gathered (their finished games are kept)."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending = {pool.submit(play_chunk, task) for task in tasks}
        stopping = False
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                if future.cancelled():
                    continue
                if not on_done(future.result()) and not stopping:
                    stopping = True
                    for other in pending:
                        other.cancel()
