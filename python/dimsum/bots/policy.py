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
from typing import Any, Tuple, Union

import numpy as np

from ._native import NativeBot


def load_net(weights: Union[str, Path], game: Any) -> Any:
    """The C++ network (``_batch.PolicyNet``) of ``weights`` (a policy file's path, or
    ``"shipped"``), checked to be made for ``game`` and to compute finite logits on every
    observation of it (PolicyFileError, a ValueError naming the file and the layer, otherwise).
    Shared by the policy bot, the searches it guides and the learner-seat BatchEnv's policy
    opponent, so all of them refuse a network the same way."""
    from .. import _batch
    from ..baselines import load, shipped_path
    from ..baselines.policy_file import check_bounded

    policy = load(weights, game)
    name = str(shipped_path(game) if isinstance(weights, str) and weights == "shipped" else weights)
    low, high = game.observation_bounds
    check_bounded(policy, low, high, name)  # no observation within the game's bounds can overflow it
    norm = policy.normalization or {}
    net = _batch.PolicyNet(list(policy.inputs), policy.num_actions, policy.observation_size,
                           [(layer.weight, layer.bias, layer.activation) for layer in policy.layers],
                           norm.get("offset"), norm.get("scale"), norm.get("clip", 0.0))
    _check_probes(net, policy, game, name)
    return net


def _probes(game: Any, games: int = 2, every: int = 5) -> Tuple[np.ndarray, np.ndarray]:
    """Inputs the network is tried on before it is used: all zeros, all ones, and the observations
    (with their legal masks) of every ``every``-th decision node of ``games`` seeded random games,
    as the acting seat sees them. The same ones on every load."""
    size = int(np.prod(game.observation_shape))
    obs = [np.zeros(size, np.float32), np.ones(size, np.float32)]
    masks = [np.zeros(game.num_actions, np.uint8), np.ones(game.num_actions, np.uint8)]
    rng = np.random.default_rng(0)
    for g in range(games):
        s = game.new_state(g)
        for k in range(game.max_game_length):
            if s.is_terminal:
                break
            if s.is_chance_node:
                s.apply(int(s.chance_outcomes()[0][0]))
                continue
            if k % every == 0:
                obs.append(np.asarray(s.observation(s.current_player), np.float32).ravel())
                masks.append(np.asarray(s.legal_mask(), np.uint8))
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    return np.stack(obs), np.stack(masks)


def _check_probes(net: Any, policy: Any, game: Any, name: str) -> None:
    """PolicyFileError naming ``name`` unless the C++ network's logits on _probes() are all finite
    (check_bounded already promises it for observations within the game's bounds; this tries the
    very code a search runs, on the game's real observations)."""
    from ..baselines import PolicyFileError

    obs, masks = _probes(game)
    logits = net.logits(obs, masks)
    bad = ~np.isfinite(logits).all(axis=1)
    if bad.any():
        row = int(np.argmax(bad))
        what = ("all zeros", "all ones")[row] if row < 2 else f"observation {row - 2} of a random game"
        raise PolicyFileError(f"{name}: its logits are not finite on {what} (layer {_first_overflow(policy, obs[row], masks[row])} "
                              "overflows): a search or a move would have no probabilities")


def _first_overflow(policy: Any, observation: np.ndarray, mask: np.ndarray) -> int:
    """The first layer of ``policy`` whose output is not finite on this input, in float32 as the C++
    network computes (the last layer if none: it is the logits that were not finite)."""
    x = np.concatenate([mask.astype(np.float32) if part == "action_mask" else _normalized(policy, observation)
                        for part in policy.inputs])
    with np.errstate(all="ignore"):
        for i, layer in enumerate(policy.layers):
            x = layer.weight @ x + layer.bias
            x = np.tanh(x) if layer.activation == "tanh" else np.maximum(x, 0) if layer.activation == "relu" else x
            if not np.isfinite(x).all():
                return i
    return len(policy.layers) - 1


def _normalized(policy: Any, observation: np.ndarray) -> np.ndarray:
    norm = policy.normalization
    if norm is None:
        return observation.astype(np.float32)
    return np.clip((observation - norm["offset"]) * norm["scale"], -norm["clip"], norm["clip"]).astype(np.float32)


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
    _remade_on_load = NativeBot._remade_on_load + ("_net",)

    def _remake(self) -> None:
        super()._remake()
        self._net = self._load()

    def _choose(self, name: str, config: bytes, state_size: int, version: int, state: bytes, call: int) -> int:
        from .. import _batch

        return _batch.policy_action(self._net, name, config, state_size, version, state, self.greedy,
                                    self.temperature, self.seed, call)

    def __repr__(self) -> str:
        how = "greedy" if self.greedy else f"temperature={self.temperature}"
        return f"PolicyBot({self.game.name}, weights={str(self.weights)!r}, {how}, seed={self.seed})"
