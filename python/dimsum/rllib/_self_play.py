"""Self-play with RLlib's PPO: every seat played by one shared policy, or each seat by its own.

RLlib maps each agent of an episode to a module with ``policy_mapping_fn(agent_id, episode,
**kwargs)``; these are plain module-level functions so that every env runner (another process,
maybe another machine) gets them by reference when the config is pickled.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from ._env import DimsumMultiAgentEnv
from ._masking import MaskedPPOTorchRLModule

SHARED = "shared"
SELF_PLAY_MODES = ("shared", "per_seat")


def shared_policy(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """Every seat plays the one module ``"shared"`` (it learns from every seat's turns)."""
    return SHARED


def policy_per_seat(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """Each seat plays its own module, named as its agent (``"player_0"``, ...)."""
    return agent_id


def ppo_self_play(game: str, policies: str = "shared", model_config: Optional[Dict[str, Any]] = None,
                  **env_config: Any) -> PPOConfig:
    """A ``PPOConfig`` for self-play in ``game`` (``env_config``: DimsumMultiAgentEnv's keys and
    ``dimsum.make``'s options): the env, the policies (``"shared"``: one module for all seats;
    ``"per_seat"``: one module per seat) and MaskedPPOTorchRLModule for each, built with
    ``model_config`` (RLlib's ``DefaultModelConfig`` keys; None: RLlib's defaults). Chain the rest
    as on any PPOConfig: ``.env_runners(num_env_runners=4).training(lr=...)``."""
    if policies not in SELF_PLAY_MODES:
        raise ValueError(f"policies must be one of {SELF_PLAY_MODES}, got {policies!r}")
    env_config = dict(env_config, game=game)
    agents = DimsumMultiAgentEnv(env_config).possible_agents  # checks the game and options now, not in a runner
    module_ids = [SHARED] if policies == SHARED else agents
    spec = RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=dict(model_config or {}))
    return (
        PPOConfig()
        .environment(DimsumMultiAgentEnv, env_config=env_config)
        .multi_agent(policies=set(module_ids),
                     policy_mapping_fn=shared_policy if policies == SHARED else policy_per_seat)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={m: spec for m in module_ids}))
    )
