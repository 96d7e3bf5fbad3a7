"""Gymnasium single-agent adapter: one seat of a dimsum game, the other seats played by policies.

    import gymnasium
    import dimsum.gymnasium  # registers dimsum/<Title>-v0 for every game: dimsum/YumCha-v0, ...
    env = gymnasium.make("dimsum/YumCha-v0", players=4)
    observation, info = env.reset(seed=7)

``gymnasium.make("dimsum.gymnasium:dimsum/YumCha-v0")`` imports this module itself: the form to give
a process that has not imported it, such as SB3's ``SubprocVecEnv`` workers under "spawn" or
"forkserver" (``make_vec_env("dimsum.gymnasium:dimsum/YumCha-v0", n, vec_env_cls=SubprocVecEnv)``).
Gymnasium 1.x has no plugin entry points (it dropped them in 1.0, the "module:id" form replaces
them), so an import is what registers the ids.

Conventions (docs/ADAPTERS.md):

- The learner plays ``learner_seat`` (default 0). ``opponents`` is None (uniformly random legal
  moves, drawn from the env's ``np_random``), one opponent for every other seat, or a dict
  ``{seat: opponent}``. An opponent is a callable ``f(state) -> int``, a bot (``act(state)``,
  dimsum.bots) or a bot spec string such as ``"heuristic"`` or ``"ismcts:simulations=200"``: a
  spec's bot is made afresh at every reset, seeded from the deal's seed and its seat, so a seeded
  reset replays the same game. After the learner acts, the opponents are stepped until the
  learner is to act again or the game is over; so is the start of the game after ``reset``.
- Observation ``{"observation": state.observation(learner_seat), "action_mask": int8 mask}``; the
  mask is all zero once the episode is over.
- Reward: the learner's entry of ``state.returns()`` on the step that ends the game, 0 before.
  ``terminated`` when the rules end the game; ``truncated`` after ``max_steps`` actions of all
  seats (default ``game.max_game_length``, a cap the rules never reach), reward 0. The cut waits
  for the learner's first step: the other seats' opening is never cut.
- An action is an int of the action space: a Python int or a numpy integer (a 0-d integer array
  too); a bool, float, str or None is a TypeError, never truncated.
- An illegal learner action ends the episode by default (``illegal_action="terminate"``:
  ``terminated``, reward ``game.min_return``, ``info["ended_by_illegal_action"]`` True and
  ``info["illegal_action"]`` the action, the state untouched), as PettingZoo's classic envs do and
  as generic Gymnasium code expects (``check_env`` steps unmasked samples). The first such episode
  of a process warns (``IllegalActionWarning``): an evaluation that ignores the mask, such as
  SB3's own ``evaluate_policy`` on a MaskablePPO model, would otherwise score every such game as
  a loss in silence. ``illegal_action="raise"`` raises ``dimsum.IllegalActionError`` instead, the state
  unchanged. An action outside the action space, and an opponent policy's illegal choice, always
  raise: they are bugs, not moves.
- An opponent that raises, or chooses an illegal action or a non-int, after the learner's
  action: its exception propagates and the env is put back as it was before the learner's action
  (the state with its random future, the step counts), so the learner is to act again, in its own
  seat, and the same step may be retried. An opponent that fails in ``reset``'s opening leaves no
  episode: ``step`` then asks for ``reset()``.
- Chance is sampled inside ``apply``; ``chance="explicit"`` is refused (ValueError). Dim Sum Jam
  is timed: every action is charged its default tick cost (option ``ticks_per_action``) unless
  ``ticks`` is set (the constructor's ``ticks=``, ``reset(options={"ticks": t})`` or the
  attribute ``env.unwrapped.ticks``): then each learner action is charged that many ticks.
  Gymnasium's ``step`` takes only the action, so there is no per-step argument here.
- ``reset(seed=s)`` deals ``game.new_state(s)``; ``reset()`` deals from a seed drawn from
  ``np_random``.

``DimsumVectorEnv`` (``gymnasium.make_vec(id, num_envs=n)``) is the batched learner-seat env,
its opponents played in C++ (dimsum/_gymnasium_vector.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, Mapping, Optional, Tuple, Union

import warnings

import numpy as np

from ._extras import needs_extra

with needs_extra("gymnasium", "dimsum.gymnasium"):
    import gymnasium
    from gymnasium import spaces

from ._adapters import RENDER_MODES, SEED_BOUND, check_action, check_max_steps, check_render_mode, \
    check_step_ticks, make_sampled_game, observation_space_of, render_seat_view
from . import IllegalActionError, game_info, games
from ._gymnasium_vector import DimsumVectorEnv

if TYPE_CHECKING:
    from ._core import State

Policy = Callable[[Any], int]
Opponent = Union[Policy, str, Any]  # a callable, a bot spec string, or a bot (act(state))
Observation = Dict[str, np.ndarray]  # {"observation": float32 (size,), "action_mask": int8 (num_actions,)}
StepResult = Tuple[Observation, float, bool, bool, Dict[str, Any]]
# "terminate" (the default): the episode ends at once with the learner's reward game.min_return,
# the rules' state untouched. The frameworks' convention (PettingZoo classic's TerminateIllegalWrapper
# ends the offender's game with the worst reward), and what generic code playing unmasked actions
# needs: gymnasium's check_env steps an action sampled before a reset, so no mask can make it legal.
# "raise": IllegalActionError, state unchanged, for users who want a wrong action to stop the run.
ILLEGAL_ACTION_POLICIES = ("terminate", "raise")
DEFAULT_ILLEGAL_ACTION = "terminate"

# Deals in a row that may end before the learner's first turn before reset gives up (as BatchEnv).
MAX_SKIPPED_DEALS = 1000


class IllegalActionWarning(UserWarning):
    """An episode ended on an illegal learner action (``illegal_action="terminate"``), once a process."""


# Whether this process has warned of an episode ended by an illegal action (once is enough to show
# the trap; every such episode says so in its info).
_warned_illegal_action = False


def _warn_illegal_action_once(env_name: str, action: int) -> None:
    global _warned_illegal_action
    if _warned_illegal_action:
        return
    _warned_illegal_action = True
    warnings.warn(
        f"dimsum.gymnasium: an episode of {env_name} ended on the illegal action {action}, scored as a loss "
        f"(the worst return; info['ended_by_illegal_action'] is True). A policy that ignores the action mask "
        f"does this: SB3's own evaluate_policy passes no mask to a MaskablePPO model, so its score counts these "
        f"losses; evaluate with sb3_contrib.common.maskable.evaluation.evaluate_policy, which does, or make the "
        f"env with illegal_action='raise' to stop at the first. (Warned once a process.)",
        IllegalActionWarning, stacklevel=3)



def env_ids() -> Dict[str, str]:
    """Game name -> its Gymnasium id, ``dimsum/<Title>-v0`` (``dimsum.game_info(name).gym_id``),
    for every game of ``dimsum.games()``."""
    return {name: game_info(name).gym_id for name in games()}


ENV_IDS = env_ids()
"""Game name -> Gymnasium id, for every registered game (``env_ids()`` at import)."""


class DimsumEnv(gymnasium.Env):
    """One seat of a dimsum game against fixed opponent policies (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(self, game_name: str, learner_seat: int = 0,
                 opponents: Union[None, Opponent, Mapping[int, Opponent]] = None,
                 render_mode: Optional[str] = None, max_steps: Optional[int] = None,
                 illegal_action: str = DEFAULT_ILLEGAL_ACTION, ticks: Optional[int] = None, **options: Any) -> None:
        self.game = make_sampled_game(game_name, options)
        self.ticks = check_step_ticks(self.game, ticks)
        if illegal_action not in ILLEGAL_ACTION_POLICIES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_POLICIES}, got {illegal_action!r}")
        self.illegal_action = illegal_action
        if isinstance(learner_seat, bool) or not isinstance(learner_seat, int) \
                or not 0 <= learner_seat < self.game.players:
            raise ValueError(f"learner_seat must be a seat in 0..{self.game.players - 1}, got {learner_seat!r}")
        self.learner_seat = learner_seat
        self._policies = self._opponent_policies(opponents)
        self.render_mode = check_render_mode(render_mode)
        self.max_steps = check_max_steps(max_steps, self.game)
        self.observation_space = observation_space_of(self.game)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state: Optional[State] = None
        self.steps = 0
        self.learner_steps = 0
        self.forfeited = False

    def _opponent_policies(self, opponents: Any) -> Dict[int, Policy]:
        from . import bots

        seats = [p for p in range(self.game.players) if p != self.learner_seat]
        if opponents is None:
            return {p: self._random_policy for p in seats}
        given = dict(opponents) if isinstance(opponents, Mapping) else {p: opponents for p in seats}
        missing = [p for p in seats if p not in given]
        if missing:
            raise ValueError(f"opponents has no policy for seats {missing}")
        self._bot_specs: Dict[int, Tuple[str, Dict[str, Any]]] = {}
        policies: Dict[int, Policy] = {}
        for seat in seats:
            opponent = given[seat]
            if isinstance(opponent, str):
                self._bot_specs[seat] = bots.parse_spec(opponent)
                bots.make(*self._bot_specs[seat][:1], self.game, 0, **self._bot_specs[seat][1])  # checked now
                continue
            try:
                policies[seat] = bots.as_bot(opponent).act
            except TypeError:
                raise ValueError(f"opponents[{seat}] is not a callable, a bot or a bot spec string: "
                                 f"{type(opponent).__name__}") from None
        return policies

    def _make_spec_bots(self, deal_seed: int) -> None:
        """The spec strings' bots for a new game, seeded from its deal and their seat."""
        from . import bots
        from .reference.rng import derive_seed

        for seat, (kind, params) in getattr(self, "_bot_specs", {}).items():
            self._policies[seat] = bots.make(kind, self.game, derive_seed(deal_seed, seat), **params).act

    def _random_policy(self, state) -> int:
        # from the env's np_random, so a seeded reset replays the same opponents
        legal = state.legal_actions()
        return legal[int(self.np_random.integers(len(legal)))]

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[Observation, Dict[str, Any]]:
        super().reset(seed=seed)
        if options:
            unknown = sorted(set(options) - {"ticks"})
            if unknown:
                raise ValueError(f"unknown reset options {unknown}; known: ['ticks']")
            self.ticks = check_step_ticks(self.game, options["ticks"])
        deal_seed = seed if seed is not None else int(self.np_random.integers(SEED_BOUND))
        self.state = None  # no episode until the opening is played: a failing opponent leaves none
        state = self.game.new_state(deal_seed)
        self._make_spec_bots(deal_seed)
        self.steps = 0
        self.learner_steps = 0
        self.forfeited = False
        # the opening moves of the seats before the learner (not cut by max_steps: a cut waits for
        # a step, as in BatchEnv); a game that ended before the learner could act would leave
        # nothing to learn, so it is dealt again, up to MAX_SKIPPED_DEALS times in a row
        for _ in range(MAX_SKIPPED_DEALS):
            if not self._play_opponents(state, cut=False):
                self.state = state
                break
            state = self.game.new_state(int(self.np_random.integers(SEED_BOUND)))
            self.steps = 0
        else:
            raise RuntimeError(
                f"{MAX_SKIPPED_DEALS} games in a row ended before the learner seat's first turn: this configuration "
                f"gives seat {self.learner_seat} no turn to learn from (choose another learner_seat or options)")
        if self.render_mode == "human":
            self.render()
        return self._observation(), {}

    def step(self, action: int) -> StepResult:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self._episode_over():
            raise RuntimeError("the episode is over: call reset()")
        action = check_action(action, self.game.num_actions)  # TypeError for a non-int, nothing changed
        if self.illegal_action == "terminate" and not self.state.is_legal(action):
            return self._forfeit(action)
        # the env as it is before the learner's action, to go back to if an opponent fails
        before = (self.state.clone(), self.steps, self.learner_steps)
        # IllegalActionError (ValueError for bad ticks), state unchanged
        if self.ticks is None:
            self.state.apply(action)
        else:
            self.state.apply(action, check_step_ticks(self.game, self.ticks))
        self.steps += 1
        self.learner_steps += 1
        try:
            self._play_opponents(self.state)
        except BaseException as e:  # KeyboardInterrupt in a slow opponent too: never between turns
            self.state, self.steps, self.learner_steps = before
            if hasattr(e, "add_note"):  # Python 3.11+
                e.add_note(f"dimsum.gymnasium: an opponent failed after the learner's action {action}; the env "
                           f"is back to before that action, the learner (seat {self.learner_seat}) to act")
            raise
        terminated = self.state.is_terminal
        truncated = not terminated and self.steps >= self.max_steps
        reward = float(self.state.returns()[self.learner_seat]) if terminated else 0.0
        info = {"returns": tuple(self.state.returns())} if terminated else {}
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, info

    def _forfeit(self, action: int) -> StepResult:
        """illegal_action="terminate": the episode ends on the illegal action, the worst reward.
        An action outside the action space is no move at all: it is refused, not forfeited."""
        if not 0 <= action < self.game.num_actions:
            raise IllegalActionError(
                f"action {action} is out of range: actions are 0..{self.game.num_actions - 1}; "
                f"illegal_action='terminate' ends the episode only on in-range actions that are not legal now")
        self.forfeited = True
        _warn_illegal_action_once(self.game.name, action)
        info = {"illegal_action": action, "ended_by_illegal_action": True}
        return self._observation(), float(self.game.min_return), True, False, info

    def _play_opponents(self, state: "State", cut: bool = True) -> bool:
        """Steps the other seats of ``state`` until the learner acts; True if the game ended (or,
        with ``cut``, reached max_steps) first. An opponent's exception, or its choice that is not
        an int (TypeError) or is illegal (IllegalActionError), propagates: the callers undo."""
        while not (self._episode_over(state) if cut else state.is_terminal):
            seat = state.current_player
            if seat == self.learner_seat:
                return False
            state.apply(check_action(self._policies[seat](state), self.game.num_actions))
            self.steps += 1
        return True

    def _episode_over(self, state: "Optional[State]" = None) -> bool:
        # the cut at max_steps waits for the learner's first step (the opening is never cut)
        state = self.state if state is None else state
        return self.forfeited or state.is_terminal or (self.steps >= self.max_steps and self.learner_steps > 0)

    def _observation(self) -> Dict[str, np.ndarray]:
        mask = self._legal_mask_or_none()
        if mask is None:
            mask = np.zeros(self.game.num_actions, np.int8)
        return {"observation": self.state.observation(self.learner_seat), "action_mask": mask}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a bool array ``(num_actions,)``, built for the learner
        seat only (all False once the episode is over): sb3-contrib's convention, so that
        MaskablePPO finds the mask by itself (through Gymnasium's wrappers too, which it reaches
        with ``get_wrapper_attr``)."""
        if self.state is None:
            raise RuntimeError("call reset() before action_masks()")
        mask = self._learner_mask()
        return np.zeros(self.game.num_actions, np.bool_) if mask is None else mask

    def _learner_mask(self) -> Optional[np.ndarray]:
        """The learner seat's legal actions (bool), or None when there are none to show: before
        reset, once the episode is over, and whenever another seat is to act. The mask is built for
        the learner only, by construction: a mask built for whoever is to act would show another
        seat what that seat may do (in a game of hidden hands, something of its hand)."""
        if self.state is None or self._episode_over() or self.state.current_player != self.learner_seat:
            return None
        return self.state.legal_mask()

    def _legal_mask_or_none(self) -> Optional[np.ndarray]:
        """The learner's legal moves as int8, or None (see _learner_mask)."""
        mask = self._learner_mask()
        return None if mask is None else mask.astype(np.int8)

    def render(self) -> Union[None, str, np.ndarray]:
        """The learner's view, never the whole table: its text (``state.observation_string``) for
        "ansi" ("human" prints it), its picture (``state.to_svg(learner_seat)``) as an ``(H, W, 3)
        uint8`` array for "rgb_array" (the ``render`` extra)."""
        return render_seat_view(self.render_mode, self.state, self.learner_seat)


def register_envs() -> None:
    """Registers every game's id (once: importing this module again changes nothing), each with
    DimsumEnv for ``gymnasium.make`` and DimsumVectorEnv for ``gymnasium.make_vec``."""
    for game_name, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=DimsumEnv, vector_entry_point=DimsumVectorEnv,
                               kwargs={"game_name": game_name})


register_envs()
