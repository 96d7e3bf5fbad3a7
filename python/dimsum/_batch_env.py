"""dimsum.BatchEnv: many games of one configuration stepped together in C++ (docs/API.md).

The work (applying actions, auto-resetting, writing observations and masks) is
dimsum::BatchEnv<Game> in src/dimsum_core/batch/batch_env.hpp, run on a persistent thread pool
with the GIL released; dimsum._batch binds it. This subclass only adds what needs the Python
side of a game: the Game object, readable error messages, and per-move State objects.
A Game crosses to the C++ side as its built config's bytes (``Game.config_bytes()``), not parsed
again; an illegal action comes back as ``_batch.IllegalAction(env, action)`` and is worded here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Optional, Tuple

import numpy as np

from . import _batch
from ._common import IllegalActionError, check_int, check_sampled, check_seed, describe_actions

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from ._batch import ResetResult, StepResult
    from ._core import Game, State

_MAX_ENVS = 1 << 24
_MAX_TICKS = 1 << 62  # beyond this no game's check_ticks is asked (they refuse far less already)
_step = _batch._BatchEnv.step  # the C++ step, called with no super() lookup on the hot path


class BatchEnv(_batch._BatchEnv):
    """``num_envs`` games of ``game`` (a Game from ``dimsum.make``), stepped with one call.

    ``reset() -> (obs, info)``; ``step(actions) -> (obs, rewards, terminated, truncated, info)``.
    Env i's k-th game is dealt from ``derive_seed(derive_seed(seed, i), k)``: results never
    depend on ``threads`` or on the batch size. A game that ends is replaced in the same step
    (Gymnasium's ``AutoresetMode.SAME_STEP``); its returns stay in ``info["final_returns"]``
    (row per env), and its last observations in ``info["final_observation"]``, one row per env
    that ended on this step, those envs listed in ``info["final_envs"]`` (ascending): every
    player's, ``(ended, players, observation_size)``.
    The returned arrays belong to
    the env and are overwritten by the next call (``step(actions, copy=True)`` returns copies).

    ``learner_seat=s`` (with ``opponent``, a C++ policy's name, "random" by default): ``step``
    takes seat s's actions only, the other seats are played in C++ until s is to act again, and
    ``rewards`` is s's, shape ``(num_envs,)`` (docs/API.md, "Learner seat"). Nothing of another
    seat is returned then: ``info["final_observation"]`` is s's last view alone, ``(ended,
    observation_size)``, unless ``final_observations="all"`` asks for every seat's (for a caller
    entitled to see every seat: an evaluator, a centralized critic).

    ``opponent="policy"`` with ``opponent_weights`` (a policy file's path, or ``"shipped"``;
    docs/BASELINES.md): the other seats are played by that network, greedy, in C++, as
    ``dimsum.bots.make("policy", game, weights=...)`` plays them: each from its own seat's
    observation and legal actions. The file must be made for this game (PolicyFileError).
    """

    def __init__(
        self,
        game: Game,
        num_envs: int,
        seed: int = 0,
        threads: Optional[int] = None,
        max_episode_steps: Optional[int] = None,
        learner_seat: Any = None,
        opponent: str = "random",
        final_observations: Optional[str] = None,
        opponent_weights: Any = None,
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
        seats = _learner_seats(learner_seat, num_envs, game.players)
        if not isinstance(opponent, str):
            raise TypeError(f"opponent must be a policy name (str), got {type(opponent).__name__}")
        final_observations = _final_observations(final_observations, seats is not None)
        net = _opponent_net(game, opponent, opponent_weights, seats is not None)
        super().__init__(game.name, game.config_bytes(), game.state_size, game.version[0], num_envs, seed, threads,
                         max_episode_steps, [] if seats is None else seats.tolist(), opponent,
                         final_observations == "all", net)
        self.game = game
        # as given (an int, or one seat per env as a tuple), and env i's seat as an int32 array
        self.learner_seat = learner_seat if seats is None or np.ndim(learner_seat) == 0 else tuple(seats.tolist())
        self.learner_seats = seats
        self.opponent = opponent if seats is not None else None
        self.opponent_weights = opponent_weights if net is not None else None
        self.final_observations = final_observations  # whose last views a step hands out: "learner" or "all"
        # to_bytes' header (format, game, version, config fingerprint) is the same for every
        # state of this game: take it from any state, and put it in front of an env's raw bytes.
        opening = game.new_state(0).to_bytes()
        self._header = opening[: len(opening) - game.state_size]

    def reset(self, seed: Optional[int] = None) -> ResetResult:
        """Deals game 0 of every env again (from ``seed`` if given, which then becomes the env's
        seed); returns ``(obs, info)``."""
        return super().reset(None if seed is None else check_seed(seed))

    def step(self, actions: ArrayLike, copy: bool = False, ticks: Optional[ArrayLike] = None) -> StepResult:
        """One action per env (an integer array-like of shape ``(num_envs,)``); returns ``(obs,
        rewards, terminated, truncated, info)``. All or nothing: if any action is out of range or
        illegal, raises IllegalActionError naming the first such env, and no env moves.

        ``ticks`` (timed games: Dim Sum Jam): None charges each action its default tick cost; an
        int, or an integer array of shape ``(num_envs,)``, is the time each env's action took, as
        ``state.apply(action, ticks)`` takes it (0 to 1,000,000, and 0 when time is off)."""
        if ticks is not None:
            ticks = self._ticks_array(ticks)
        try:
            return _step(self, actions, copy, ticks)
        except _batch.IllegalAction as e:
            raise IllegalActionError(self._illegal_message(*e.args)) from None

    def _ticks_array(self, ticks: ArrayLike) -> np.ndarray:
        """``ticks`` as int64 of shape (num_envs,): TypeError for what is not integers, ValueError
        for another shape or an untimed game; the values are checked by the game in C++."""
        if not self.timed:
            raise ValueError(f"ticks: {self.game.name} is not timed (its actions take no time); pass ticks=None")
        if isinstance(ticks, (bool, np.bool_)):
            raise TypeError("ticks must be None, an int or an integer array, got bool")
        if isinstance(ticks, (int, np.integer)):
            return np.full(self.num_envs, check_int(ticks, "ticks", 0, _MAX_TICKS), np.int64)
        array = np.asarray(ticks)
        if array.dtype.kind not in "iu":
            raise TypeError(f"ticks must be None, an int or an integer array, got dtype {array.dtype}")
        if array.shape != (self.num_envs,):
            raise ValueError(f"ticks must have shape (num_envs,) = ({self.num_envs},), got {array.shape}")
        # clipped into int64 without wrapping: a value beyond the bound is refused by its game as too large
        return np.minimum(array, _MAX_TICKS).astype(np.int64) if array.dtype.kind == "u" else array

    @staticmethod
    def opponent_policies(game: Any) -> List[str]:
        """The names ``opponent`` takes for ``game`` (a Game): the C++ policies that can play the
        seats other than the learner's (src/dimsum_core/batch/opponent_policy.hpp)."""
        return _batch.opponent_policies(getattr(game, "name", game)) + [POLICY_OPPONENT]

    @property
    def observation_shape(self) -> Tuple[int]:
        return (self.observation_size,)

    def clone_state(self, i: int) -> State:
        """Env ``i``'s current game as a per-move API State (an independent copy)."""
        i = check_int(i, "env", 0, self.num_envs - 1)
        return self.game.state_from_bytes(self._header + self._state_bytes(i))

    def set_state(self, i: int, state: State) -> None:
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
        seat = ""
        if self.learner_seats is not None:
            given = self.learner_seat if isinstance(self.learner_seat, int) else "one per env"
            seat = f", learner_seat={given}, opponent={self.opponent!r}"
            if self.opponent_weights is not None:
                seat += f", opponent_weights={str(self.opponent_weights)!r}"
            if self.final_observations == "all":
                seat += ', final_observations="all"'
        return (f"<dimsum.BatchEnv {self.game!r}, num_envs={self.num_envs}, threads={self.threads}, "
                f"seed={self.seed}{seat}>")


FINAL_OBSERVATIONS = ("learner", "all")
POLICY_OPPONENT = "policy"  # the opponent played by a policy network (opponent_weights)


def _opponent_net(game: Any, opponent: str, weights: Any, learner_mode: bool) -> Any:
    """The C++ network that plays the other seats (``opponent="policy"``), else None; ValueError
    for weights without that opponent or that opponent without weights or a learner seat."""
    if opponent != POLICY_OPPONENT:
        if weights is not None:
            raise ValueError(f'opponent_weights is for opponent="{POLICY_OPPONENT}", got opponent={opponent!r}')
        return None
    if not learner_mode:
        raise ValueError(f'opponent="{POLICY_OPPONENT}" plays the seats other than learner_seat: give a learner_seat')
    if weights is None:
        raise ValueError(f'opponent="{POLICY_OPPONENT}" needs opponent_weights: a policy file\'s path or "shipped"')
    from .bots.policy import load_net

    return load_net(weights, game)


def _final_observations(given: Optional[str], learner_mode: bool) -> str:
    """Whose final observations a step returns: "learner" (the learner-seat default: the learner
    may see only its own) or "all" (every seat's: the default, and the only choice, when step takes
    every seat's actions; with a learner seat, only when asked for by name)."""
    if given is None:
        return "learner" if learner_mode else "all"
    if not isinstance(given, str):
        raise TypeError(f"final_observations must be one of {FINAL_OBSERVATIONS} or None, got {type(given).__name__}")
    if given not in FINAL_OBSERVATIONS:
        raise ValueError(f"final_observations must be one of {FINAL_OBSERVATIONS} or None, got {given!r}")
    if given == "learner" and not learner_mode:
        raise ValueError('final_observations="learner" needs a learner_seat: without one, step takes every '
                         "seat's actions and returns every seat's final observations")
    return given


def _learner_seats(learner_seat: Any, num_envs: int, players: int) -> Optional[np.ndarray]:
    """None (every seat's actions come through step), or env i's learning seat as int32 (num_envs,)
    from one seat for every env or a sequence of one seat per env."""
    if learner_seat is None:
        return None
    if np.ndim(learner_seat) == 0:
        return np.full(num_envs, check_int(learner_seat, "learner_seat", 0, players - 1), np.int32)
    seats = np.asarray(learner_seat)
    if seats.dtype.kind not in "iu":
        raise TypeError(f"learner_seat must be an int or a sequence of ints, got dtype {seats.dtype}")
    if seats.shape != (num_envs,):
        raise ValueError(f"learner_seat must be one seat, or one seat per env: shape ({num_envs},), got {seats.shape}")
    if seats.min() < 0 or seats.max() >= players:
        raise ValueError(f"learner_seat must be seats in 0..{players - 1}, got {seats.min()}..{seats.max()}")
    return seats.astype(np.int32)
