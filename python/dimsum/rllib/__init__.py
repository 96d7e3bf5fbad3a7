"""RLlib (Ray's reinforcement-learning library), new API stack: every dimsum game as a multi-agent
env, an action-masking PPO module and self-play configs. docs/RLLIB.md.

    from dimsum.rllib import ppo_self_play
    algo = ppo_self_play("nice_buns", players=2).env_runners(num_env_runners=2).build_algo()
    for _ in range(10):
        print(algo.train()["env_runners"]["episode_return_mean"])

- ``DimsumMultiAgentEnv({"game": name, **options})``: a ``MultiAgentEnv``, one agent per seat
  (``"player_i"``), each observation ``{"observations": Box, "action_mask": Box(0, 1)}`` of the
  agent to act only; rewards every seat's return at the end.
- ``MaskedPPOTorchRLModule``: PPO's default torch module, the mask applied to its logits.
- ``ppo_self_play(game, policies="shared" | "per_seat", model_config=None, **env_config)``: a
  ``PPOConfig`` with all three set; ``shared_policy`` and ``policy_per_seat`` are its mappings.

Needs the ``rllib`` extra: ``pip install "dimsum-games[rllib]"`` (RLlib with its dependencies,
torch). ``import dimsum`` never imports this module.
"""

try:
    import ray.rllib  # noqa: F401  (RLlib's own dependencies: dm_tree, pandas, pyarrow, ...)
    import torch  # noqa: F401
except ImportError as e:
    raise ImportError(f'dimsum.rllib needs RLlib and torch ({e}): pip install "dimsum-games[rllib]"') from e

from ._env import ACTION_MASK, OBSERVATIONS, DimsumMultiAgentEnv
from ._masking import MaskedPPOTorchRLModule
from ._self_play import policy_per_seat, ppo_self_play, shared_policy

__all__ = ["ACTION_MASK", "OBSERVATIONS", "DimsumMultiAgentEnv", "MaskedPPOTorchRLModule", "policy_per_seat",
           "ppo_self_play", "shared_policy"]
