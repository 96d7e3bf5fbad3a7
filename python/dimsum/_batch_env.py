"""dimsum.BatchEnv: many games of one configuration stepped together in C++ (docs/API.md).

The work (applying actions, auto-resetting, writing observations and masks) is
dimsum::BatchEnv<Game> in src/dimsum_core/batch/batch_env.hpp, run on a persistent thread pool
with the GIL released; dimsum._batch binds it. This subclass only adds what needs the Python
side of a game: the Game object, readable error messages, and per-move State objects.
A Game crosses to the C++ side as its built config's bytes (``Game.config_bytes()``), not parsed
again; an illegal action comes back as ``_batch.IllegalAction(env, action)`` and is worded here.
"""

from __future__ import annotations

from typing import Any, Optional

from . import _batch
from ._common import IllegalActionError, check_int, check_sampled, check_seed, describe_actions

_MAX_ENVS = 1 << 24
_step = _batch._BatchEnv.step  # the C++ step, called with no super() lookup on the hot path


class BatchEnv(_batch._BatchEnv):
    """``num_envs`` games of ``game`` (a Game from ``dimsum.make``), stepped with one call.

    ``reset() -> (obs, info)``; ``step(actions) -> (obs, rewards, terminated, truncated, info)``.
    Env i's k-th game is dealt from ``derive_seed(derive_seed(seed, i), k)``: results never
    depend on ``threads`` or on the batch size. A game that ends is replaced in the same step
    (Gymnasium's ``AutoresetMode.SAME_STEP``); its returns stay in ``info["final_returns"]``
    (row per env), and every player's last observation in ``info["final_observation"]``, one row
    per env that ended on this step, those envs listed in ``info["final_envs"]`` (ascending).
    The returned arrays belong to
    the env and are overwritten by the next call (``step(actions, copy=True)`` returns copies).
    """

    def __init__(
        self,
        game: Any,
        num_envs: int,
        seed: int = 0,
        threads: Optional[int] = None,
        max_episode_steps: Optional[int] = None,
    ) -> None:
        from ._core import Game

        if not isinstance(game, Game):
            raise TypeError(f"BatchEnv takes a Game from dimsum.make(...), got {type(game).__name__}")
        check_sampled(game, "BatchEnv")
        num_envs = check_int(num_envs, "num_envs", 1, _MAX_ENVS)
        seed = check_seed(seed)
        if threads is None:
            threads = min(_batch.hardware_threads(), num_envs)
        threads = check_int(threads, "threads", 1, 1024)
        if max_episode_steps is None:
            max_episode_steps = game.max_game_length
        max_episode_steps = check_int(max_episode_steps, "max_episode_steps", 1, (1 << 31) - 1)
        super().__init__(game.name, game.config_bytes(), game.state_size, game.version[0], num_envs, seed, threads,
                         max_episode_steps)
        self.game = game
        # to_bytes' header (format, game, version, config fingerprint) is the same for every
        # state of this game: take it from any state, and put it in front of an env's raw bytes.
        opening = game.new_state(0).to_bytes()
        self._header = opening[: len(opening) - game.state_size]

    def reset(self, seed: Optional[int] = None):  # type: ignore[override]
        """Deals game 0 of every env again (from ``seed`` if given, which then becomes the env's
        seed); returns ``(obs, info)``."""
        return super().reset(None if seed is None else check_seed(seed))

    def step(self, actions, copy: bool = False):
        """One action per env (an integer array-like of shape ``(num_envs,)``); returns ``(obs,
        rewards, terminated, truncated, info)``. All or nothing: if any action is out of range or
        illegal, raises IllegalActionError naming the first such env, and no env moves."""
        try:
            return _step(self, actions, copy)
        except _batch.IllegalAction as e:
            raise IllegalActionError(self._illegal_message(*e.args)) from None

    @property
    def observation_shape(self):
        return (self.observation_size,)

    def clone_state(self, i: int):
        """Env ``i``'s current game as a per-move API State (an independent copy)."""
        i = check_int(i, "env", 0, self.num_envs - 1)
        return self.game.state_from_bytes(self._header + self._state_bytes(i))

    def set_state(self, i: int, state: Any) -> None:
        """Puts a copy of ``state`` (a State of this same game, not terminal) into env ``i``.

        Env i's obs, mask and current player are rewritten at once; its game counter k is
        unchanged, so its next game is still k + 1. ``len(state.history)`` counts as the actions
        already played, for truncation at ``max_episode_steps``.
        """
        i = check_int(i, "env", 0, self.num_envs - 1)
        if getattr(state, "game", None) != self.game:
            raise TypeError(f"set_state takes a State of {self.game!r}, got {type(state).__name__}")
        data = state.to_bytes()
        self._set_state_bytes(i, data[len(self._header):], min(len(state.history), (1 << 31) - 1))

    def _illegal_message(self, i: int, action: int) -> str:
        """The IllegalActionError message for env ``i`` (step moved nothing)."""
        where = f"BatchEnv.step: env {i}"
        if not 0 <= action < self.num_actions:
            return f"{where}: action {action} is out of range: actions are 0..{self.num_actions - 1}; no env has moved"
        state = self.clone_state(i)
        space = self.game.spec.action_space
        return (f"{where}: action {action} ({space.name(action)}) is not legal for player {state.current_player}; "
                f"legal: {describe_actions(space, state.legal_actions())}; no env has moved")

    def __repr__(self) -> str:
        return (f"<dimsum.BatchEnv {self.game!r}, num_envs={self.num_envs}, threads={self.threads}, "
                f"seed={self.seed}>")
