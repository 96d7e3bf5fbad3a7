"""Training progress over a whole run that calls ``model.learn`` once per evaluation period: SB3's
progress bar (tqdm + rich, its ``[extra]``) on a terminal when they are installed, else a plain
line every ``every`` of the run (what a log file, or a machine without them, gets)."""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Optional, TextIO


def progress_callback(total: int, every: float = 0.05, stream: Optional[TextIO] = None,
                      bar: Optional[bool] = None) -> Any:
    """A callback for every ``model.learn`` call of one run of ``total`` learner steps. ``bar``:
    None picks the bar when ``stream`` is a terminal and SB3's bar can be built."""
    from stable_baselines3.common.callbacks import BaseCallback, ProgressBarCallback

    out = stream if stream is not None else sys.stdout
    if bar is None:
        bar = bool(getattr(out, "isatty", lambda: False)())
    if bar:
        try:
            ProgressBarCallback()  # ImportError without tqdm and rich
        except ImportError:
            bar = False
    if bar:
        class RunBar(ProgressBarCallback):
            """SB3's bar, opened once for the run's total instead of once per ``learn`` call."""

            def _on_training_start(self) -> None:
                if not hasattr(self, "pbar"):
                    super()._on_training_start()
                    self.pbar.reset(total=total)
                    self.pbar.update(self.model.num_timesteps)

            def _on_training_end(self) -> None:
                self.pbar.refresh()

            def close(self) -> None:
                if hasattr(self, "pbar"):
                    self.pbar.close()

        return RunBar()

    class Lines(BaseCallback):
        """A line ``steps / total (percent), minutes, steps per second`` every ``every`` of the run."""

        def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
            super().__init__()
            self.clock = clock
            self.start = clock()
            self.step = max(1, int(total * every))
            self.next = self.step

        def _on_step(self) -> bool:
            done = self.model.num_timesteps
            if done >= self.next:
                self.next = (done // self.step + 1) * self.step
                elapsed = self.clock() - self.start
                print(f"  progress {done:>9} / {total} steps ({min(done / total, 1):.0%}), "
                      f"{elapsed / 60:.1f} min, {done / max(elapsed, 1e-9):,.0f} steps/s", file=out, flush=True)
            return True

        def close(self) -> None:
            pass

    return Lines()
