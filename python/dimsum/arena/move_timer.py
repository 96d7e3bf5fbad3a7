"""The arena's move time limit: an alarm that stops a bot that takes too long in ``act``.

``with move_timer(seconds) as timer:`` around the games of a chunk installs a SIGALRM handler and a
repeating ``ITIMER_REAL`` that ticks every tenth of the limit (at most every second), if this
process can have one: Unix, the main thread, no alarm of its own already set. ``with timer:``
around each ``act`` notes when the move started; a tick that finds the move older than the limit
raises :class:`MoveTimeout` there: in Python code at once, in native code when it next checks for
signals (the C++ searches do, at a bounded interval). So a move is stopped between the limit and
the limit plus a tick. A move that returns after the limit where no alarm could be set is late all
the same: the caller compares the clock (:attr:`MoveTimer.limit`).

One ticking timer per chunk rather than a timer armed and disarmed for every move: arming costs
two system calls, about 3 µs, a third of what the arena spends on a random bot's move; noting the
start costs a clock read. With no limit (None) nothing is installed.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from typing import Any, Iterator, Optional


MAX_TICK = 1.0  # seconds between two ticks at most: how late a long limit may stop a move


class MoveTimeout(BaseException):
    """Raised inside a bot's ``act`` when its time is up. A BaseException, as KeyboardInterrupt is:
    a bot's own ``except Exception`` does not swallow it."""


class MoveTimer:
    """``with timer:`` around one move. ``limit``: the seconds a move may take, or None;
    ``started``: when the last move started (``time.monotonic``)."""

    def __init__(self, limit: Optional[float], alarm: bool = False) -> None:
        self.limit = limit
        self.alarm = alarm and limit is not None  # whether the ticking SIGALRM handler is installed
        self.started = 0.0
        self._in_move = False

    def __enter__(self) -> "MoveTimer":
        self.started = time.monotonic()
        self._in_move = True
        return self

    def __exit__(self, *exc: Any) -> None:
        self._in_move = False

    def _on_tick(self, signum: int, frame: Any) -> None:
        if self._in_move and self.limit is not None and time.monotonic() - self.started >= self.limit:
            self._in_move = False
            raise MoveTimeout()

    def too_slow(self, seconds: float) -> str:
        """The failure's message for a move that took ``seconds``."""
        return (f"it took more than the move time limit of {self.limit:g} s to choose a move (stopped after "
                f"{seconds:.1f} s; the limit is dimsum.arena.run's move_seconds, --move-seconds)")


def _can_alarm() -> bool:
    """SIGALRM can be handled here, and nobody else in this process is using the real-time timer."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return False
    if signal.getitimer(signal.ITIMER_REAL) != (0.0, 0.0):
        return False
    return signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, signal.SIG_IGN, None)


@contextlib.contextmanager
def move_timer(limit: Optional[float]) -> Iterator[MoveTimer]:
    """A :class:`MoveTimer` for ``limit`` seconds a move, its ticking alarm installed while the
    block runs (and the previous SIGALRM handler put back after)."""
    if limit is None or not _can_alarm():
        yield MoveTimer(limit)
        return
    timer = MoveTimer(limit, alarm=True)
    tick = min(limit / 10, MAX_TICK)
    previous = signal.signal(signal.SIGALRM, timer._on_tick)
    try:
        signal.setitimer(signal.ITIMER_REAL, tick, tick)
        yield timer
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
