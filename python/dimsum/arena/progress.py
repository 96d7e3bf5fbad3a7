"""The arena's progress display: a live rich bar on a terminal, a few plain lines elsewhere (CI
logs, pipes), nothing when switched off. It writes to stderr, so stdout holds only the results."""

from __future__ import annotations

import sys
from typing import Any, Optional


class Progress:
    """``with Progress(total, label, enabled) as p: p.advance(k)``."""

    def __init__(self, total: int, label: str, enabled: bool = True, stream: Any = None) -> None:
        self.total = total
        self.label = label
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self._bar: Any = None
        self._task: Any = None
        self._next_line = 0

    def __enter__(self) -> "Progress":
        if not self.enabled:
            return self
        sys.stdout.flush()  # what was printed before the bar comes before it, even through a pipe
        from rich.console import Console

        console = Console(file=self.stream)
        if console.is_terminal:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeRemainingColumn

            self._bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), console=console, transient=False)
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=self.total)
        return self

    def advance(self, games: int) -> None:
        self.done += games
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done)
        elif self.done >= self._next_line or self.done == self.total:
            # not a terminal: a line at every quarter, so a log shows it is alive without flooding
            print(f"{self.label}: {self.done}/{self.total} games", file=self.stream, flush=True)
            self._next_line = self.done + max(1, self.total // 4)

    def __exit__(self, *exc: Optional[BaseException]) -> None:
        if self._bar is not None:
            self._bar.stop()
