"""The IS-MCTS bot: single-observer information-set MCTS with UCT, in C++
(src/dimsum_core/bots/ismcts.hpp; Cowling, Powley and Whitehouse 2012).

Each simulation determinizes with ``resample(player, seed)`` (hidden cards and future draws
redrawn from what the player has seen), so the bot is fair by construction. docs/BOTS.md
describes the parameters."""

from __future__ import annotations

import math
from typing import Any, List, Optional, Tuple

from ._native import NativeBot

ROLLOUTS = ("random", "heuristic")


def _number(value: Any, name: str, allowed: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"ismcts parameter {name} is a number ({allowed}), got {type(value).__name__}")
    return float(value)


class IsmctsBot(NativeBot):
    """IS-MCTS for the player to act.

    - ``simulations``: iterations per move, over all threads (>= 1; default 1000);
    - ``seconds``: a time budget per move instead (> 0; then ``simulations`` is not used, and
      the choice depends on the machine's speed);
    - ``c``: the UCB exploration constant, rewards being scaled to [0, 1] (>= 0; default 0.3);
    - ``bias``: progressive bias towards the game's heuristic move at every tree node, worth
      ``bias / (visits + 1)`` in UCB (>= 0; 0 turns it off; default 5);
    - ``rollout``: ``"random"`` or ``"heuristic"`` (the game's heuristic bot) to the end of the game;
    - ``threads``: root-parallel trees on a C++ thread pool, their root visits summed (>= 1).

    The defaults (c 0.3, bias 5, heuristic rollouts) were the strongest of those tried in every
    game (docs/BOTS.md, "Strength"). With a given seed, simulations and thread count the choices
    are the same on every run."""

    kind = "ismcts"

    def __init__(self, game: Any, seed: int = 0, simulations: int = 1000, seconds: Optional[float] = None,
                 c: float = 0.3, bias: float = 5.0, rollout: str = "heuristic", threads: int = 1) -> None:
        super().__init__(game, seed)
        if isinstance(simulations, bool) or not isinstance(simulations, int):
            raise TypeError(f"ismcts parameter simulations is an int >= 1, got {type(simulations).__name__}")
        if simulations < 1:
            raise ValueError(f"ismcts parameter simulations must be >= 1, got {simulations}")
        if seconds is not None:
            seconds = _number(seconds, "seconds", "> 0")
            if not (seconds > 0 and math.isfinite(seconds)):
                raise ValueError(f"ismcts parameter seconds must be a finite number > 0, got {seconds}")
        c = _number(c, "c", ">= 0")
        if not (c >= 0 and math.isfinite(c)):
            raise ValueError(f"ismcts parameter c must be a finite number >= 0, got {c}")
        bias = _number(bias, "bias", ">= 0")
        if not (bias >= 0 and math.isfinite(bias)):
            raise ValueError(f"ismcts parameter bias must be a finite number >= 0, got {bias}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"ismcts parameter rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        if isinstance(threads, bool) or not isinstance(threads, int):
            raise TypeError(f"ismcts parameter threads is an int >= 1, got {type(threads).__name__}")
        if not 1 <= threads <= 256:
            raise ValueError(f"ismcts parameter threads must be in 1..256, got {threads}")
        self.simulations, self.seconds, self.c, self.bias = simulations, seconds, c, bias
        self.rollout, self.threads = rollout, threads
        # the last search: (simulations run, rollout actions, [(action, visits, mean reward in [0, 1])])
        self.last_search: Optional[Tuple[int, int, List[Tuple[int, int, float]]]] = None

    def _choose(self, name: str, config: bytes, state_size: int, version: int, state: bytes, call: int) -> int:
        from .. import _batch

        action, simulations, steps, root = _batch.ismcts_search(
            name, config, state_size, version, state, self.simulations, self.seconds or 0.0, self.c, self.bias,
            self.rollout,
            self.threads, self.seed, call, self.game.min_return, self.game.max_return)
        self.last_search = (simulations, steps, root)
        return action

    def __repr__(self) -> str:
        budget = f"seconds={self.seconds}" if self.seconds else f"simulations={self.simulations}"
        return (f"IsmctsBot({self.game.name}, seed={self.seed}, {budget}, c={self.c}, bias={self.bias}, "
                f"rollout={self.rollout!r}, "
                f"threads={self.threads})")
