"""The parent's watch over its worker processes' moves: the backstop of the move time limit.

A worker's own alarm (:mod:`.move_timer`) stops a bot that hangs in Python or in native code that
checks for signals. A bot stuck where no signal reaches (native code that never checks, signals
blocked, a platform with no SIGALRM such as Windows) keeps its worker's only thread: nothing in that
process can answer. So every worker also notes, in memory shared with the parent, the move it is in
(game index, seat, step) and when it started; the parent looks between its waits, and a move older
than the limit plus a grace (:func:`backstop_seconds`) is declared a failure of that bot, and the
workers are stopped (a pool cannot lose one worker alone; the games the others were in the middle
of are lost, every game already handed back is kept).

The failure named is the first by game index, as for any other failure: while another worker is
still playing an earlier game (one that could yet fail, or get stuck in its turn), the parent
waits for it. Chunks start in game order, so a game not started yet comes after every running one.
"""

from __future__ import annotations

import time
from typing import Any, Optional, Tuple

# Beyond the limit, how long the parent leaves a worker's own alarm to act before it steps in.
GRACE_SECONDS = 5.0


def backstop_seconds(limit: float) -> float:
    """How old a move must be before the parent stops its worker: the limit, then as long again
    (at least GRACE_SECONDS) for the worker's own alarm."""
    return limit + max(GRACE_SECONDS, limit)


class MoveBeacons:
    """One slot per worker process: the move it is in. Made by the parent (``context``: the pool's
    multiprocessing context) and handed to each worker at its start, which takes a slot
    (:meth:`attach`)."""

    def __init__(self, context: Any, workers: int) -> None:
        self.started = context.Array("d", workers, lock=False)  # time.monotonic() of the move; 0: idle
        self.where = context.Array("q", 3 * workers, lock=False)  # game index, seat, step of the move
        self.taken = context.Value("i", 0)
        self.slot: Optional[int] = None

    def attach(self) -> None:
        """In a worker: takes the next free slot (none if every slot is taken: no watch then)."""
        with self.taken.get_lock():
            slot = self.taken.value
            self.taken.value += 1
        self.slot = slot if slot < len(self.started) else None
        self.playing(-1)

    def playing(self, index: int) -> None:
        """In a worker: game ``index`` is being played (from before its bots are made to when the
        next game starts); -1: none (between chunks)."""
        if self.slot is not None:
            self.where[3 * self.slot] = index

    def moving(self, index: int, seat: int, step: int) -> None:
        slot = self.slot
        if slot is not None:
            self.where[3 * slot], self.where[3 * slot + 1], self.where[3 * slot + 2] = index, seat, step
            self.started[slot] = time.monotonic()

    def idle(self) -> None:
        if self.slot is not None:
            self.started[self.slot] = 0.0

    def overdue(self, seconds: float) -> Optional[Tuple[int, int, int, float]]:
        """In the parent: (game index, seat, step, age) of the earliest game whose current move is
        older than ``seconds``, once no other worker is still playing an earlier game; else None.
        (The monotonic clock is the machine's, the same in every process.)"""
        now = time.monotonic()
        stuck, first_running = None, None  # the earliest overdue move; the earliest game still playing
        for slot, started in enumerate(self.started):
            index = self.where[3 * slot]
            if started and now - started > seconds:
                if stuck is None or index < stuck[0]:
                    stuck = (index, self.where[3 * slot + 1], self.where[3 * slot + 2], now - started)
            elif index >= 0 and (first_running is None or index < first_running):
                first_running = index
        if stuck is None or (first_running is not None and first_running < stuck[0]):
            return None  # nothing stuck, or an earlier game may still fail first: wait for it
        return stuck
