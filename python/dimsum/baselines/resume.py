"""Continue training from a policy file (``train --resume PATH``): the inverse of export.py.

A ``.dspolicy`` keeps the actor (its dense layers and the action head) and the observation
statistics it was trained under, not the value head: those are loaded into a fresh MaskablePPO
model of the same widths and into its ``VecNormalize``, and the value head starts untrained.
PPO's first advantages would then come from a critic that knows nothing and push the loaded
policy off where it was, so ``--critic-warmup`` first trains with the actor frozen
(``freeze_actor``) and the observation statistics kept (train.py): only the value head learns
until it rates the policy's own games, and the policy played is the loaded one throughout.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, List, Tuple

import numpy as np

from .policy_file import Policy

# The running count VecNormalize's statistics are given back: the file does not keep the count,
# and a large one keeps the loaded mean and variance from jumping to the first batches' values.
RESUMED_OBS_COUNT = 1e6


def hidden_widths(policy: Policy) -> Tuple[List[int], str]:
    """The widths of the hidden layers of ``policy`` and their activation (``"tanh"`` or
    ``"relu"``): what the fresh model must be built with to take its weights."""
    hidden = policy.layers[:-1]
    kinds = {layer.activation for layer in hidden}
    if len(kinds) > 1 or kinds - {"tanh", "relu"}:
        raise ValueError(f"--resume takes a network whose hidden layers are all tanh or all relu; this one has "
                         f"{[layer.activation for layer in hidden]}")
    return [int(layer.weight.shape[0]) for layer in hidden], (kinds.pop() if kinds else "tanh")


def load_into(model: Any, vec_normalize: Any, policy: Policy) -> None:
    """Copies ``policy``'s actor into ``model`` (MaskablePPO, MultiInputPolicy of the same widths)
    and its observation statistics into ``vec_normalize``; ValueError when they do not fit."""
    import torch

    net = model.policy
    parts = tuple(net.features_extractor.extractors.keys())
    if parts != tuple(policy.inputs):
        raise ValueError(f"--resume: the file's inputs are {list(policy.inputs)}, the model's {list(parts)}")
    linears = [m for m in net.mlp_extractor.policy_net if type(m).__name__ == "Linear"] + [net.action_net]
    if len(linears) != len(policy.layers):
        raise ValueError(f"--resume: the file has {len(policy.layers)} layers, the model {len(linears)}")
    with torch.no_grad():
        for module, layer in zip(linears, policy.layers):
            if tuple(module.weight.shape) != layer.weight.shape:
                raise ValueError(f"--resume: a layer of shape {layer.weight.shape} where the model has "
                                 f"{tuple(module.weight.shape)}")
            module.weight.copy_(torch.from_numpy(layer.weight))
            module.bias.copy_(torch.from_numpy(layer.bias))
    norm = policy.normalization
    if norm is None:
        raise ValueError("--resume: the file keeps no observation statistics; train under VecNormalize to resume")
    if not np.isclose(norm["clip"], vec_normalize.clip_obs):
        raise ValueError(f"--resume: the file clips observations at {norm['clip']}, the env at {vec_normalize.clip_obs}")
    rms = vec_normalize.obs_rms["observation"]
    scale = norm["scale"].astype(np.float64)
    rms.mean = norm["offset"].astype(np.float64)
    rms.var = np.maximum(1.0 / (scale * scale) - vec_normalize.epsilon, 0.0)  # export wrote 1 / sqrt(var + eps)
    rms.count = RESUMED_OBS_COUNT


def actor_parameters(model: Any) -> List[Any]:
    net = model.policy
    return list(net.mlp_extractor.policy_net.parameters()) + list(net.action_net.parameters())


@contextmanager
def freeze_actor(model: Any) -> Iterator[None]:
    """While inside, the actor's parameters get no gradient (Adam skips them): only the value head
    (and its own layers) learn. Their values, not only their gradients, stay as they were."""
    params = actor_parameters(model)
    for p in params:
        p.requires_grad_(False)
    try:
        yield
    finally:
        for p in params:
            p.requires_grad_(True)
