"""The clocks the real-time loop reads: the wall clock, and a fake one that a test moves.

The loop only ever calls ``clock.now() -> seconds`` (any origin, never going back), so a test can
script time: "3 seconds pass, then I type 4" is "write 3 to the clock file, then type 4".
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Union


class WallClock:
    """Real time: ``time.monotonic()``, which no change of the system's date can move."""

    def now(self) -> float:
        return time.monotonic()


class ManualClock:
    """A clock that moves only by :meth:`advance` (for tests calling the loop in-process)."""

    def __init__(self, start: float = 0.0) -> None:
        self.seconds = float(start)

    def now(self) -> float:
        return self.seconds

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"a clock cannot go back ({seconds} s)")
        self.seconds += seconds


class FileClock:
    """A clock whose time is the number written in a file (``--fake-clock FILE``).

    A test drives a game in a real terminal and writes, say, ``3`` into the file: from then on
    ``now()`` is 3.0. A missing or empty file reads as 0. A value that is not a number, or one
    smaller than the last, is ignored (the last good value stays), so a half-written file or a
    slip in a test can never move time backwards."""

    def __init__(self, path: Union[str, Path]) -> None:
        self.path = Path(path)
        self._last = 0.0

    def now(self) -> float:
        try:
            text = self.path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            text = ""
        try:
            value = float(text) if text else 0.0
        except ValueError:
            return self._last
        if value == value and value >= self._last:  # a NaN or a step back is ignored
            self._last = value
        return self._last
