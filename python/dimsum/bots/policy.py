"""The policy bot: a small MLP policy (a policy file, docs/BASELINES.md) played in C++
(src/dimsum_core/bots/policy_net.hpp), no torch at run time.

    bot = dimsum.bots.make("policy", game, weights="shipped")          # the policy dimsum ships
    bot = dimsum.bots.make("policy", game, weights="my.dspolicy", greedy=False, temperature=0.5)

It sees what its seat sees: the network's input is the acting seat's observation and its legal
actions, nothing else of the state.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Union

from ._native import NativeBot


def load_net(weights: Union[str, Path], game: Any) -> Any:
    """The C++ network (``_batch.PolicyNet``) of ``weights`` (a policy file's path, or
    ``"shipped"``), checked to be made for ``game`` (PolicyFileError otherwise). Shared by the
    policy bot and the learner-seat BatchEnv's policy opponent."""
    from .. import _batch
    from ..baselines import load

    policy = load(weights, game)
    norm = policy.normalization or {}
    return _batch.PolicyNet(list(policy.inputs), policy.num_actions, policy.observation_size,
                            [(layer.weight, layer.bias, layer.activation) for layer in policy.layers],
                            norm.get("offset"), norm.get("scale"), norm.get("clip", 0.0))


class PolicyBot(NativeBot):
    """Plays ``weights`` (a policy file's path, or ``"shipped"``: the policy dimsum ships for this
    game and player count), made for this game and options (PolicyFileError otherwise).
    ``greedy``: the legal action of highest logit (the lowest action on a tie); else one drawn
    from softmax(logits / ``temperature``) over the legal actions, call k from
    ``derive_seed(seed, k)``."""

    kind = "policy"

    def __init__(self, game: Any, seed: int = 0, weights: Union[str, Path] = "shipped", greedy: bool = True,
                 temperature: float = 1.0) -> None:
        super().__init__(game, seed)
        if not isinstance(greedy, bool):
            raise TypeError(f"greedy is True or False, got {type(greedy).__name__}")
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float)):
            raise TypeError(f"temperature is a number > 0, got {type(temperature).__name__}")
        if not (math.isfinite(temperature) and temperature > 0):
            raise ValueError(f"temperature must be a finite number > 0, got {temperature!r}")
        self.weights = weights
        self.greedy = greedy
        self.temperature = float(temperature)
        self._net = self._load()

    def _load(self) -> Any:
        return load_net(self.weights, self.game)

    # The C++ network does not pickle: a pickled bot (sent to a worker process) loads its file again.
    def __getstate__(self) -> dict:
        return {k: v for k, v in super().__getstate__().items() if k != "_net"}

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        self._net = self._load()

    def _choose(self, name: str, config: bytes, state_size: int, version: int, state: bytes, call: int) -> int:
        from .. import _batch

        return _batch.policy_action(self._net, name, config, state_size, version, state, self.greedy,
                                    self.temperature, self.seed, call)

    def __repr__(self) -> str:
        how = "greedy" if self.greedy else f"temperature={self.temperature}"
        return f"PolicyBot({self.game.name}, weights={str(self.weights)!r}, {how}, seed={self.seed})"
