"""Who plays the other seats while a policy trains, chosen anew for each evaluation period:

- ``heuristic``: the heuristic bot, throughout;
- ``self``: the heuristic until ``warm_start`` learner steps, then the latest checkpoint (the
  policy's own previous self, greedy in C++);
- ``league``: the heuristic until ``warm_start``, then for each period one of the heuristic and
  every checkpoint so far, drawn uniformly (seeded), so the policy keeps beating all of them.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np

MODES = ("heuristic", "self", "league")


class OpponentSchedule:
    def __init__(self, mode: str, warm_start: int, seed: int) -> None:
        if mode not in MODES:
            raise ValueError(f"opponents must be one of {', '.join(MODES)}, got {mode!r}")
        if warm_start < 0:
            raise ValueError(f"warm_start must be >= 0 learner steps, got {warm_start}")
        self.mode, self.warm_start = mode, warm_start
        self.rng = np.random.default_rng([seed, 24])  # its own stream: the draws do not move the training's

    def pick(self, steps: int, checkpoints: List[str]) -> Tuple[str, Optional[str]]:
        """The opponent for the period starting at ``steps`` learner steps, given the checkpoints
        written so far (oldest first): ("heuristic", None) or ("policy", a checkpoint's path)."""
        if self.mode == "heuristic" or steps < self.warm_start or not checkpoints:
            return "heuristic", None
        if self.mode == "self":
            return "policy", checkpoints[-1]
        k = int(self.rng.integers(len(checkpoints) + 1))
        return ("heuristic", None) if k == len(checkpoints) else ("policy", checkpoints[k])

    def describe(self) -> str:
        if self.mode == "heuristic":
            return "the heuristic bot"
        then = ("its latest checkpoint" if self.mode == "self"
                else "one of the heuristic and every earlier checkpoint, drawn per evaluation period (a league)")
        return f"the heuristic bot for {self.warm_start} steps, then {then}"
