from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

# What reset and step return (dimsum.BatchEnv documents them): observations (num_envs, size)
# float32; rewards (num_envs, players) float64; terminated, truncated (num_envs,) bool; info:
# current_player int32, legal_mask bool, and after a step final_envs, final_observation (the
# learner's views alone with a learner seat, unless every_seat_final), final_returns.
Info = Dict[str, NDArray[Any]]
ResetResult = Tuple[NDArray[np.float32], Info]
StepResult = Tuple[NDArray[np.float32], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], Info]

# A Game crosses from dimsum._core as (game.name, game.config_bytes(), game.state_size,
# game.version[0]): its built C++ Config, copied, never parsed again.

def random_playouts(game: str, config: bytes, state_size: int, state_version: int, n_games: int, seed: int,
                    threads: int = 1) -> Tuple[NDArray[np.float64], NDArray[np.int64]]: ...

# The C++ bots (python/dimsum/bots/heuristic.py, ismcts.py): `state` is State.to_bytes(), and
# call k of a bot seeded `seed` draws from derive_seed(seed, k). ismcts_search returns (action,
# simulations, rollout steps, [(action, visits, mean)] per root action, tree steps); rollout
# 'policy' and guide 'policy', 'policy_ucb' or 'policy_heuristic' take `net` (PolicyNet, below).
def heuristic_action(game: str, config: bytes, state_size: int, state_version: int, state: bytes, seed: int,
                     call: int) -> int: ...
def ismcts_search(game: str, config: bytes, state_size: int, state_version: int, state: bytes, simulations: int,
                  seconds: float, c: float, bias: float, rollout: str, threads: int, seed: int, call: int,
                  min_return: float, max_return: float, guide: str = "heuristic",
                  net: Optional[PolicyNet] = None) -> Tuple[int, int, int, List[Tuple[int, int, float]], int]: ...

# The policy network (python/dimsum/bots/policy.py; src/dimsum_core/bots/policy_net.hpp): built
# once from a policy file's arrays, then one call per move.
class PolicyNet:
    """A small MLP policy in C++."""

    def __init__(self, inputs: Sequence[str], num_actions: int, observation_size: int,
                 layers: Sequence[Tuple[NDArray[np.float32], NDArray[np.float32], str]],
                 obs_offset: Optional[NDArray[np.float32]] = None, obs_scale: Optional[NDArray[np.float32]] = None,
                 obs_clip: float = 0.0) -> None: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def input_size(self) -> int: ...
    def logits(self, observations: NDArray[np.float32], masks: NDArray[Any]) -> NDArray[np.float32]: ...

def policy_action(net: PolicyNet, game: str, config: bytes, state_size: int, state_version: int, state: bytes,
                  greedy: bool, temperature: float, seed: int, call: int) -> int: ...

class IllegalAction(ValueError):
    """args == (env, action): that env's action is out of range or illegal; the step moved no env."""

class _BatchEnv:
    """The C++ side of dimsum.BatchEnv (python/dimsum/_batch_env.py)."""

    def __init__(self, game: str, config: bytes, state_size: int, state_version: int, num_envs: int, seed: int,
                 threads: int, max_steps: int, learner_seats: Sequence[int] = ..., opponent: str = "random",
                 every_seat_final: bool = False, opponent_net: Optional[PolicyNet] = None) -> None: ...
    def reset(self, seed: Optional[int] = None) -> ResetResult: ...
    def step(self, actions: Any, copy: bool = False, ticks: Optional[NDArray[np.int64]] = None) -> StepResult: ...
    def sample_actions(self, seed: int) -> NDArray[np.int64]: ...
    def _state_bytes(self, i: int) -> bytes: ...
    def _set_state_bytes(self, i: int, data: bytes, steps: int) -> None: ...
    def _call_locked(self, f: Callable[[], Any]) -> Any: ...  # tests only: f() with the env's lock held
    @property
    def num_envs(self) -> int: ...
    @property
    def timed(self) -> bool: ...
    @property
    def threads(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def max_episode_steps(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def observation_size(self) -> int: ...

def hardware_threads() -> int: ...
def opponent_policies(game: str) -> List[str]: ...
