"""dimsum.gymnasium.DimsumVectorEnv: ``num_envs`` games, one learning seat each, as a Gymnasium
``VectorEnv`` over ``dimsum.BatchEnv`` in its learner-seat mode (docs/ADAPTERS.md).

The work is C++ (src/dimsum_core/batch/opponent_env.hpp): the learner's actions are applied, the
other seats are played by a built-in opponent policy until the learner is to act again, ended
games are dealt again, and observations and masks are written, for every env in one call with
the GIL released. This class adds only the Gymnasium shapes around the arrays BatchEnv returns.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ._extras import needs_extra

with needs_extra("gymnasium", "dimsum.gymnasium"):
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode  # gymnasium 1.1 on
    from gymnasium.vector.utils import batch_space

from ._adapters import SEED_BOUND, check_max_steps, check_step_ticks, make_sampled_game, observation_space_of
from ._learner_batch import LearnerBatch
from ._common import check_int

RESET_OPTIONS = ("ticks",)


class DimsumVectorEnv(LearnerBatch, gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``game_name``, each with one learning seat (``learner_seat``: one seat
    for every env, or a sequence of one per env), the other seats played in C++ by the policy
    ``opponent`` ("random": uniformly random legal moves from each game's own seeded stream; the
    names of ``dimsum.BatchEnv.opponent_policies``; "policy" with ``opponent_weights``, a policy
    file's path or "shipped": that network, greedy).

    - Observations: the single env's ``Dict(observation, action_mask)`` batched: float32
      ``(num_envs, observation_size)`` and int8 ``(num_envs, num_actions)``. Actions:
      ``MultiDiscrete`` (one action per env, for the learner seat).
    - Rewards ``(num_envs,)`` float64: the learner's return on the step its game ends by the
      rules, else 0 (a truncated game gives 0), as ``DimsumEnv``.
    - Auto-reset in the same step (``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``):
      where ``terminated | truncated``, ``obs`` already shows the next game, and
      ``info["final_obs"][i]`` (an object array, ``info["_final_obs"]`` its mask) is the learner's
      observation of the game that ended, ``info["final_info"]["returns"][i]`` its returns.
    - ``copy=True`` (the default, like SyncVectorEnv) returns new arrays every call; ``copy=False``
      returns the env's own, overwritten by the next call (faster; copy what you keep).
    - ``ticks`` (Dim Sum Jam): None charges each learner action its default tick cost; an int is
      charged for every learner action instead, and ``step(actions, ticks=...)`` sets one call's.
      The other seats' actions always cost their default.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game_name: str, num_envs: int = 1, learner_seat: Any = 0, opponent: str = "random",
                 opponent_weights: Any = None,
                 max_steps: Optional[int] = None, threads: Optional[int] = None, copy: bool = True,
                 ticks: Optional[int] = None, **options: Any):
        self.game = make_sampled_game(game_name, options)
        self.num_envs = check_int(num_envs, "num_envs", 1, 1 << 24)
        self.max_steps = check_max_steps(max_steps, self.game)
        if not isinstance(copy, bool):
            raise TypeError(f"copy must be a bool, got {type(copy).__name__}")
        self.copy = copy
        self.ticks = check_step_ticks(self.game, ticks)
        self.render_mode = None
        self.single_observation_space = observation_space_of(self.game)
        self.single_action_space = spaces.Discrete(self.game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._open_batch(self.num_envs, threads, learner_seat, opponent, opponent_weights)
        self._reset_once = False

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """Deals every env a new game. ``seed`` (an int) deals env i's k-th game from
        ``derive_seed(derive_seed(seed, i), k)`` as BatchEnv does; None draws a seed from
        ``np_random``. ``options={"ticks": t}`` sets the ticks of the learner's later actions."""
        env = self.batch_env
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
            raise TypeError(f"seed must be an int or None (one base seed for every env), got {type(seed).__name__}")
        seed = None if seed is None else int(seed)  # gymnasium's seeding takes Python ints only
        super().reset(seed=seed)
        if options:
            unknown = sorted(set(options) - set(RESET_OPTIONS))
            if unknown:
                raise ValueError(f"unknown reset options {unknown}; known: {list(RESET_OPTIONS)}")
            if "ticks" in options:
                self.ticks = check_step_ticks(self.game, options["ticks"])
        base = seed if seed is not None else int(self.np_random.integers(SEED_BOUND))
        obs, info = env.reset(base)
        self._reset_once = True
        return self._observation(obs, info["legal_mask"], self.copy), {}

    def step(self, actions, ticks: Any = None):
        """One learner action per env; ``ticks`` (Dim Sum Jam) overrides ``self.ticks`` for this
        call: an int, or an integer array of shape ``(num_envs,)``. Illegal actions raise
        ``dimsum.IllegalActionError`` naming the first such env, and no env moves."""
        env = self.batch_env
        if not self._reset_once:
            raise RuntimeError("call reset() before step()")
        if ticks is None:
            ticks = self.ticks
        # the env's own arrays; what is returned is copied here (with copy=True)
        obs, rewards, terminated, truncated, info = env.step(actions, ticks=ticks)
        out_info: dict = {}
        ended = terminated | truncated
        if ended.any():
            self._add_final(out_info, ended, info)
        if self.copy:
            rewards, terminated, truncated = rewards.copy(), terminated.copy(), truncated.copy()
        return self._observation(obs, info["legal_mask"], self.copy), rewards, terminated, truncated, out_info

    def _observation(self, obs: np.ndarray, legal_mask: np.ndarray, copy: bool) -> dict:
        # a bool mask read as int8 is a view: no conversion pass
        if copy:
            obs, legal_mask = obs.copy(), legal_mask.copy()
        return {"observation": obs, "action_mask": legal_mask.view(np.int8)}

    def _add_final(self, out_info: dict, ended: np.ndarray, info: dict) -> None:
        """Gymnasium's SAME_STEP convention: ``final_obs`` an object array of the learner's last
        observations (a mask of zeros: no action is left), ``final_info`` their returns."""
        final_obs = np.full(self.num_envs, None, dtype=object)
        # one row per ended env (info["final_envs"], ascending): the learner's view, the only one
        # the BatchEnv hands out (its final_observations default)
        for row, i in enumerate(info["final_envs"]):
            final_obs[i] = {"observation": info["final_observation"][row].copy(),
                            "action_mask": np.zeros(self.game.num_actions, np.int8)}
        out_info["final_obs"] = final_obs
        out_info["_final_obs"] = ended.copy()
        out_info["final_info"] = {"returns": info["final_returns"].copy(), "_returns": ended.copy()}
        out_info["_final_info"] = ended.copy()

    def close_extras(self, **kwargs: Any) -> None:
        """Stops the env's worker threads; the env cannot be used afterwards."""
        self._env = None

    def __repr__(self) -> str:
        seat = self.learner_seat if isinstance(self.learner_seat, int) else "one per env"
        return (f"<DimsumVectorEnv {self.game.name}, num_envs={self.num_envs}, learner_seat={seat}, "
                f"opponent={self.opponent!r}>")

