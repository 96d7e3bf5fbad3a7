"""From a trained Stable-Baselines3 policy to a policy file (policy_file.py), so that it plays in
C++ without torch: ``dimsum.bots.make("policy", game, weights=path)``.

The architecture taken is the one sb3-contrib's MaskablePPO builds by default on dimsum's envs
(``"MultiInputPolicy"`` on ``Dict(action_mask, observation)``): each key flattened and the
flat parts concatenated in the Dict space's key order (CombinedExtractor), an MLP of Linear
layers with Tanh or ReLU between them (``net_arch``'s ``pi`` part), and the action head, a
Linear layer giving one logit per action; illegal actions masked out. The value head is left
out: the bot plays the policy. An observation normalized by ``VecNormalize`` keeps its running
mean and variance in the file, so the C++ side sees what the network saw in training.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Optional, Union

import numpy as np

from .policy_file import Layer, Policy, comparable_options, layout_of, write

_ACTIVATIONS = {"Tanh": "tanh", "ReLU": "relu"}


def export_sb3(model: Any, path: Union[str, Path], game: Any, vec_normalize: Any = None,
               source: str = "") -> Policy:
    """Writes ``model``'s policy (an SB3 / sb3-contrib model or its ``.policy``) to ``path`` as a
    policy file for ``game`` (a Game from dimsum.make, the one the model was trained on) and returns
    it. ``vec_normalize``: the ``VecNormalize`` the model was trained under, if any (only the
    ``"observation"`` key may be normalized). ``source``: free text stored in the file (how it was
    trained). ValueError when the model is not of the architecture above or does not fit ``game``."""
    policy = getattr(model, "policy", model)
    extractor: Any = getattr(policy, "features_extractor", None)
    parts = list(getattr(extractor, "extractors", {}).keys())
    if not parts or any(p not in ("action_mask", "observation") for p in parts):
        raise ValueError(f"export_sb3 takes a MultiInputPolicy over dimsum's Dict(action_mask, observation); "
                         f"this policy's features extractor is {type(extractor).__name__} over {parts}")
    for name, module in extractor.extractors.items():
        if type(module).__name__ != "Flatten":
            raise ValueError(f"export_sb3: input {name!r} goes through {type(module).__name__}; only Flatten is supported")
    if not getattr(policy, "share_features_extractor", True) and type(policy.pi_features_extractor) is not type(extractor):
        raise ValueError("export_sb3: the actor's features extractor differs from the shared one")
    layers = _dense_layers(list(policy.mlp_extractor.policy_net)) + _dense_layers([policy.action_net])
    exported = Policy(game=game.name, options=comparable_options(game.options), game_version=tuple(game.version),
                      num_actions=game.num_actions, observation_size=int(np.prod(game.observation_shape)),
                      observation_layout=layout_of(game), inputs=tuple(parts), layers=layers,
                      normalization=_normalization(vec_normalize), source=source)
    write(path, exported)  # checks that the shapes chain from the input to one logit per action
    return exported


def _dense_layers(modules: List[Any]) -> List[Layer]:
    """Linear layers, each with the activation module after it (or none)."""
    layers: List[Layer] = []
    for module in modules:
        kind = type(module).__name__
        if kind == "Linear":
            layers.append(Layer(module.weight.detach().cpu().numpy().astype(np.float32),
                                module.bias.detach().cpu().numpy().astype(np.float32), "none"))
        elif kind in _ACTIVATIONS and layers and layers[-1].activation == "none":
            layers[-1].activation = _ACTIVATIONS[kind]
        else:
            raise ValueError(f"export_sb3: the policy network has a {kind} where a Linear layer or one "
                             f"activation ({', '.join(_ACTIVATIONS)}) after a Linear layer was expected")
    return layers


def _normalization(vec_normalize: Any) -> Optional[dict]:
    if vec_normalize is None or not getattr(vec_normalize, "norm_obs", False):
        return None
    keys = vec_normalize.norm_obs_keys
    if list(keys) != ["observation"]:
        raise ValueError(f"export_sb3: VecNormalize must normalize only 'observation' (norm_obs_keys="
                         f"['observation']); it normalizes {list(keys)}")
    rms = vec_normalize.obs_rms["observation"]
    scale = 1.0 / np.sqrt(np.asarray(rms.var, np.float64) + vec_normalize.epsilon)
    return {"offset": np.asarray(rms.mean, np.float32), "scale": scale.astype(np.float32),
            "clip": float(vec_normalize.clip_obs)}
