"""PPO's default torch RLModule with the env's action mask applied to its logits.

The env's observation is ``Dict(observations=Box, action_mask=Box)`` (dimsum.rllib's env, or any
env with those keys, the ones RLlib's own masking example reads). PPO's catalog builds its
encoders for a Box, so the networks are built for the ``observations`` part; the mask never enters
a network, it only sets the logits of the actions it excludes to the lowest float, so that no
distribution built from them (sampling, greedy, the PPO loss's log-probabilities and entropy)
puts weight on an illegal action.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN

from ._env import ACTION_MASK, OBSERVATIONS


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """``RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config={...})``: PPO's default
    module (``model_config`` as ``DefaultModelConfig``) that never picks a masked action."""

    def __init__(self, *args: Any, observation_space: Optional[gym.Space] = None, **kwargs: Any):
        if not (isinstance(observation_space, gym.spaces.Dict)
                and {OBSERVATIONS, ACTION_MASK} <= set(observation_space.spaces)):
            raise ValueError(f"MaskedPPOTorchRLModule needs a Dict observation space with the keys "
                             f"{OBSERVATIONS!r} (the networks' input) and {ACTION_MASK!r} (1 for a legal "
                             f"action); got {observation_space}")
        # RLModule.__init__ runs setup(), which builds the networks for self.observation_space:
        # the Box. Afterwards the module shows the env's Dict again, the space its inputs have
        # (what RLlib checks batches against and saves in checkpoints to rebuild the module).
        self._space_with_mask = observation_space
        super().__init__(*args, observation_space=observation_space[OBSERVATIONS], **kwargs)
        self.observation_space = self._space_with_mask

    def _forward(self, batch: Dict[str, Any], **kwargs: Any) -> Dict[str, Any]:
        mask, batch = _split(batch)
        return _masked(super()._forward(batch, **kwargs), mask)

    def _forward_train(self, batch: Dict[str, Any], **kwargs: Any) -> Dict[str, Any]:
        mask, batch = _split(batch)
        return _masked(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch: Dict[str, Any], embeddings: Optional[Any] = None) -> Any:
        # the value of a state needs no mask (the last observation of an episode has none at all)
        if embeddings is None:
            _, batch = _split(batch)
        return super().compute_values(batch, embeddings)


def _split(batch: Dict[str, Any]) -> Tuple[Any, Dict[str, Any]]:
    """The mask and a shallow copy of ``batch`` whose observations are the networks' part alone.
    A copy: RLlib hands the same batch to compute_values and to the forward passes."""
    observations = batch[Columns.OBS]
    if not isinstance(observations, dict) or ACTION_MASK not in observations or OBSERVATIONS not in observations:
        raise ValueError(f"MaskedPPOTorchRLModule takes observations as a dict with the keys {OBSERVATIONS!r} and "
                         f"{ACTION_MASK!r}; got {type(observations).__name__}"
                         + (f" with keys {sorted(observations)}" if isinstance(observations, dict) else ""))
    return observations[ACTION_MASK], dict(batch, **{Columns.OBS: observations[OBSERVATIONS]})


def _masked(outputs: Dict[str, Any], mask: Any) -> Dict[str, Any]:
    logits = outputs[Columns.ACTION_DIST_INPUTS]
    outputs[Columns.ACTION_DIST_INPUTS] = torch.where(mask > 0, logits, torch.full_like(logits, FLOAT_MIN))
    return outputs
