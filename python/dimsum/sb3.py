"""dimsum.sb3.DimsumVecEnv: ``num_envs`` games, one learning seat each, as a Stable-Baselines3
``VecEnv`` over ``dimsum.BatchEnv`` in its learner-seat mode, the other seats played in C++.

    from sb3_contrib import MaskablePPO
    from dimsum.sb3 import DimsumVecEnv
    env = DimsumVecEnv("nice_buns", num_envs=64, players=3, opponent="heuristic")
    model = MaskablePPO("MultiInputPolicy", env, seed=0).learn(100_000)

SB3 cannot take a Gymnasium ``VectorEnv`` (it wants its own ``VecEnv`` class), so without this
an SB3 user reaches the engine only through ``DummyVecEnv``/``SubprocVecEnv`` over single Python
envs. The stepping is BatchEnv's (src/dimsum_core/batch/opponent_env.hpp: learner actions
applied, other seats played, ended games dealt again, observations and masks written, for every
env in one call with the GIL released); this class adds SB3's shapes and conventions
(docs/TRAINING.md):

- Observations: the single env's ``Dict(observation, action_mask)``, batched as SB3 expects
  (a dict of ``(num_envs, ...)`` arrays, new arrays every step: SB3 keeps the previous ones).
- ``step`` returns ``(obs, rewards, dones, infos)``: rewards float32 ``(num_envs,)``, the
  learner's return on the step its game ends by the rules, else 0 (0 for a cut game);
  ``dones = terminated | truncated``. Auto-reset in the same step, as SB3's own VecEnvs: where
  ``dones[i]``, ``obs`` is already the next game's and ``infos[i]`` has ``terminal_observation``
  (the learner's last observation of the ended game, its mask all zero) and
  ``TimeLimit.truncated`` (cut by ``max_steps``, not ended by the rules: SB3 bootstraps it), and
  ``returns`` (every seat's) when the rules ended it, as ``DimsumEnv``'s last ``info``.
- ``action_masks()`` (bool ``(num_envs, num_actions)``) and ``env_method("action_masks")`` (one
  row per env), so sb3-contrib's MaskablePPO finds the masks by itself; ``get_attr`` gives what a
  single env would (``learner_seat`` per env, shared settings such as ``render_mode``).
- ``seed(s)`` seeds the next ``reset``: env i's k-th game is dealt from
  ``derive_seed(derive_seed(s, i), k)``, as BatchEnv deals it (``seed`` returns the per-env
  seeds ``derive_seed(s, i)``). An unseeded ``reset`` deals from a seed drawn from the env's own
  generator (seeded by the constructor's ``seed``).
- Illegal or badly shaped actions raise (``dimsum.IllegalActionError``, ValueError, TypeError)
  from ``step``, and no env moves. A trainer that samples unmasked actions (plain PPO) needs
  the single env's ``illegal_action="terminate"`` through ``DummyVecEnv`` instead.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Type

import numpy as np

from ._extras import needs_extra

with needs_extra("sb3", "dimsum.sb3"):
    from gymnasium import spaces
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvStepReturn

from ._adapters import SEED_BOUND, check_max_steps, check_render_mode, check_step_ticks, make_sampled_game, \
    observation_space_of
from ._learner_batch import LearnerBatch
from ._common import check_int
from .reference.rng import derive_seed

RESET_OPTIONS = ("ticks",)
# The settings get_attr gives, the same for every env; the per-env ones are in _per_env_attr.
SHARED_ATTRS = ("render_mode", "game", "max_steps", "opponent", "ticks", "observation_space", "action_space")


class DimsumVecEnv(LearnerBatch, VecEnv):
    """``num_envs`` games of ``game_name`` for SB3, each with one learning seat (``learner_seat``:
    one seat for every env, or a sequence of one per env), the other seats played in C++ by the
    policy ``opponent`` ("random" or "heuristic": ``dimsum.BatchEnv.opponent_policies``; "policy"
    with ``opponent_weights``, a policy file's path or "shipped": that network, greedy).
    ``threads``: BatchEnv's worker threads (default: one per core, at most one per env).
    ``seed``: the generator of unseeded resets (None: fresh entropy). ``ticks`` (Dim Sum Jam) as
    the Gymnasium envs. ``render_mode``: None, "ansi" or "rgb_array" (each env's learner view).
    Every other keyword is an option of ``dimsum.make``."""

    def __init__(self, game_name: str, num_envs: int = 8, learner_seat: Any = 0, opponent: str = "random",
                 opponent_weights: Any = None,
                 max_steps: Optional[int] = None, threads: Optional[int] = None, seed: Optional[int] = None,
                 ticks: Optional[int] = None, render_mode: Optional[str] = None, **options: Any) -> None:
        self.game = make_sampled_game(game_name, options)
        num_envs = check_int(num_envs, "num_envs", 1, 1 << 24)
        self.max_steps = check_max_steps(max_steps, self.game)
        self.ticks = check_step_ticks(self.game, ticks)
        if render_mode == "human":
            raise ValueError("render_mode 'human' prints every env's text: use 'ansi' or 'rgb_array' "
                             "(SB3 shows rgb_array frames with render('human'))")
        self.render_mode = check_render_mode(render_mode)
        self._open_batch(num_envs, threads, learner_seat, opponent, opponent_weights)
        self._np_random = np.random.default_rng(seed)
        self._actions: Optional[np.ndarray] = None
        self._mask: Optional[np.ndarray] = None  # the learner's legal actions, bool (num_envs, num_actions)
        self._no_mask = np.zeros(self.game.num_actions, np.int8)
        super().__init__(num_envs, observation_space_of(self.game), spaces.Discrete(self.game.num_actions))


    # ---- SB3's VecEnv --------------------------------------------------------------------------

    def reset(self) -> Dict[str, np.ndarray]:
        """Deals every env a new game: from the seed given to ``seed()`` since the last reset, else
        from one drawn from the env's generator; ``set_options({"ticks": t})`` sets the ticks."""
        env = self.batch_env
        self._apply_options()
        base = self._seeds[0] if self._seeds[0] is not None else int(self._np_random.integers(SEED_BOUND))
        obs, info = env.reset(base)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        self._actions = None
        return self._observation(obs, info["legal_mask"])

    def step_async(self, actions: np.ndarray) -> None:
        if self._env is None:
            raise RuntimeError("the env is closed")
        if self._mask is None:
            raise RuntimeError("call reset() before step()")
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        env = self.batch_env
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async(actions)")
        actions, self._actions = self._actions, None
        # IllegalActionError, ValueError (shape) or TypeError (dtype) with no env moved
        obs, rewards, terminated, truncated, info = env.step(actions, ticks=self.ticks)
        # a new dict per env (SB3's wrappers, VecMonitor among them, write into them)
        infos: List[Dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if len(info["final_envs"]):  # the envs that ended (most steps none): no pass over dones
            self._add_terminal(infos, terminated, truncated, info)
        dones = terminated | truncated
        return self._observation(obs, info["legal_mask"]), rewards.astype(np.float32), dones, infos

    def _observation(self, obs: np.ndarray, legal_mask: np.ndarray) -> Dict[str, np.ndarray]:
        # copies: the BatchEnv overwrites its arrays at the next step, and SB3 keeps the last obs
        self._mask = legal_mask.copy()
        return {"observation": obs.copy(), "action_mask": legal_mask.view(np.int8).copy()}

    def _add_terminal(self, infos: List[Dict[str, Any]], terminated: np.ndarray, truncated: np.ndarray,
                      info: Dict[str, np.ndarray]) -> None:
        """SB3's convention (as DummyVecEnv's), one info per ended env; info["final_envs"] lists
        them ascending, one row each of the learner's last observation (the only view the
        BatchEnv hands out: its final_observations default)."""
        final_observation, final_returns = info["final_observation"], info["final_returns"]
        for row, i in enumerate(info["final_envs"]):
            infos[i]["terminal_observation"] = {
                "observation": final_observation[row].copy(),
                "action_mask": self._no_mask.copy()}
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            if terminated[i]:
                infos[i]["returns"] = tuple(final_returns[i].tolist())

    def action_masks(self) -> np.ndarray:
        """Every env's legal actions for its learner seat, bool ``(num_envs, num_actions)``."""
        if self._mask is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._mask.copy()

    def _row_mask(self, i: int) -> np.ndarray:
        if self._mask is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._mask[i].copy()

    def seed(self, seed: Optional[int] = None) -> Sequence[Optional[int]]:
        """Seeds the next ``reset()``: env i's k-th game is dealt from ``derive_seed(derive_seed(seed,
        i), k)``; returns env i's seed ``derive_seed(seed, i)``. None draws one from the generator."""
        if seed is None:
            seed = int(self._np_random.integers(SEED_BOUND))
        elif isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"seed must be an int or None (one base seed for every env), got {type(seed).__name__}")
        seed = int(seed)
        self._np_random = np.random.default_rng(seed)  # so later unseeded resets replay too
        self._seeds = [seed] * self.num_envs
        return [derive_seed(seed, i) for i in range(self.num_envs)]

    def _apply_options(self) -> None:
        """set_options: one set for every env (they share one C++ batch), "ticks" only."""
        first = self._options[0]
        if any(options != first for options in self._options):
            raise ValueError("DimsumVecEnv's envs share one batch: set_options takes one dict for every env")
        unknown = sorted(set(first) - set(RESET_OPTIONS))
        if unknown:
            raise ValueError(f"unknown reset options {unknown}; known: {list(RESET_OPTIONS)}")
        if "ticks" in first:
            self.ticks = check_step_ticks(self.game, first["ticks"])

    def close(self) -> None:
        """Stops the BatchEnv's worker threads; the env cannot be used afterwards."""
        self._env = None

    # ---- what SB3 asks of the envs inside ------------------------------------------------------

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> List[Any]:
        """What each env would give: ``learner_seat`` (env i's), ``action_masks`` (env i's method),
        or a setting they share (``render_mode``, ``game``, ...); AttributeError otherwise."""
        return [self._per_env_attr(attr_name, i) for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Only ``ticks`` (Dim Sum Jam), for every env at once: the envs share one C++ batch."""
        if attr_name != "ticks":
            raise AttributeError(f"DimsumVecEnv's envs share one C++ batch: set_attr sets only 'ticks', not {attr_name!r}")
        if sorted(self._indices(indices)) != list(range(self.num_envs)):
            raise ValueError("DimsumVecEnv sets ticks for every env at once (indices=None)")
        self.ticks = check_step_ticks(self.game, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> List[Any]:
        """``action_masks`` (one bool row per env, what sb3-contrib's MaskablePPO calls) or ``render``
        (each env's learner view)."""
        if method_name == "action_masks" and not method_args and not method_kwargs:
            # MaskablePPO's call at every step: the rows of one array (a new one each step, so
            # the rows stay as they were), not one call per env
            if self._mask is None:
                raise RuntimeError("call reset() before action_masks()")
            return list(self._mask if indices is None else self._mask[self._indices(indices)])
        return [self._per_env_attr(method_name, i)(*method_args, **method_kwargs) for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: Type[Any], indices: VecEnvIndices = None) -> List[bool]:
        return [False for _ in self._indices(indices)]  # no Gymnasium env inside to wrap

    def get_images(self) -> Sequence[Optional[np.ndarray]]:
        """Each env's learner view as an RGB frame (render_mode "rgb_array"), for ``render()``."""
        if self.render_mode != "rgb_array":
            raise ValueError(f"get_images needs render_mode='rgb_array', this env has {self.render_mode!r}")
        return [self._render(i) for i in range(self.num_envs)]

    def _per_env_attr(self, name: str, i: int) -> Any:
        if name == "learner_seat":
            return int(self.learner_seats[i])
        if name == "action_masks":
            return lambda: self._row_mask(i)
        if name == "render":
            return lambda: self._render(i)
        if name in SHARED_ATTRS:
            return getattr(self, name)
        raise AttributeError(f"DimsumVecEnv's envs have no attribute {name!r}; they have learner_seat, "
                             f"action_masks, render and {', '.join(SHARED_ATTRS)}")

    def _render(self, i: int) -> Any:
        from ._adapters import render_seat_view

        return render_seat_view(self.render_mode, self.batch_env.clone_state(i), int(self.learner_seats[i]))

    def _indices(self, indices: VecEnvIndices) -> List[int]:
        if indices is None:
            return list(range(self.num_envs))
        return [check_int(i, "env index", 0, self.num_envs - 1) for i in self._get_indices(indices)]

    def __repr__(self) -> str:
        seat = self.learner_seat if isinstance(self.learner_seat, int) else "one per env"
        return (f"<DimsumVecEnv {self.game.name}, num_envs={self.num_envs}, learner_seat={seat}, "
                f"opponent={self.opponent!r}>")


__all__ = ["DimsumVecEnv"]
