"""OpenSpiel games for dimsum: ``import dimsum.openspiel`` registers ``dimsum_<game>`` for every
game, so that ``pyspiel.load_game("dimsum_nice_buns(players=3)")`` works.

Each game is an explicit-stochastic OpenSpiel game (chance nodes with their exact probabilities):
the adapter always makes the dimsum game with ``chance="explicit"``, and forwards every call to
the dimsum state it wraps. What it provides and what it does not is in docs/OPENSPIEL.md.

Needs the ``openspiel`` extra (``pip install "dimsum-games[openspiel]"``).
"""

from __future__ import annotations

import importlib
from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np

import dimsum
from dimsum._extras import needs_extra

with needs_extra("openspiel", "dimsum.openspiel"):
    import pyspiel
from dimsum._common import CHANCE, TERMINAL

PREFIX = "dimsum_"
"""OpenSpiel's name of a dimsum game is ``PREFIX + name``."""

# Each game declares its information type and utility (dimsum.game_info). Perfect information
# means every player sees the whole position: only the future draws are unknown, and in explicit
# mode (the only one here) those are chance nodes.
_INFORMATION = {"perfect": pyspiel.GameType.Information.PERFECT_INFORMATION,
                "imperfect": pyspiel.GameType.Information.IMPERFECT_INFORMATION}
# A cooperative game gives every seat the team's return: OpenSpiel's identical utility.
_UTILITY = {"zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
            "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
            "cooperative": pyspiel.GameType.Utility.IDENTICAL}

_SCALAR_TYPES = (bool, int, str)

_RESAMPLE_SEED_BITS = 63

INFORMATION_STATE = "information_state"
"""The adapter's own parameter: the form of ``information_state_string`` (INFORMATION_STATE_FORMS)."""
INFORMATION_STATE_FORMS = ("digest", "text")
"""``digest`` (the default): 32 hex digits of ``state.information_state_key(p)``, equal exactly when
the text is (a 128-bit BLAKE2b digest), a constant size and O(1) a call: OpenSpiel's algorithms
(CFR, tabular policies, IS-MCTS) only compare and hash the string. ``text``: dimsum's readable
perfect-recall string, ``state.information_state_string(p)``, which grows with the history (about
1 MB at step 2,000 of a default Yum Cha game)."""


def game_name(name: str) -> str:
    """OpenSpiel's short name of dimsum game ``name``."""
    return PREFIX + name


def dimsum_name(name: str) -> str:
    """The dimsum game of ``name``, which may be either name: ``"nice_buns"`` or OpenSpiel's
    ``"dimsum_nice_buns"``. An unknown name is a ValueError naming the closest game."""
    from dimsum._common import check_game_name

    if isinstance(name, str) and name.startswith(PREFIX) and name[len(PREFIX):] in dimsum.games():
        name = name[len(PREFIX):]
    return check_game_name(name, dimsum.games())


def _option_specs(name: str) -> Mapping[str, Any]:
    return importlib.import_module(f"dimsum.games.{dimsum_name(name)}").OPTIONS


def parameter_defaults(name: str) -> Dict[str, Any]:
    """The game's OpenSpiel parameters and their defaults (``name``: either name, ``"nice_buns"`` or
    ``"dimsum_nice_buns"``): its options whose default is an int, a
    bool or a str. OpenSpiel parameters are typed by their default, so an option whose default is
    None (chosen at random) or data (a deck, dice) is not a parameter; ``chance`` is not either,
    it is always explicit here. One parameter is the adapter's own, not the game's:
    ``information_state`` (INFORMATION_STATE_FORMS), default ``"digest"``."""
    options = {o.name: o.default for o in _option_specs(name).values()
               if isinstance(o.default, _SCALAR_TYPES)}
    return {**options, INFORMATION_STATE: INFORMATION_STATE_FORMS[0]}


def _split_parameters(name: str, params: Mapping[str, Any]) -> Tuple[Dict[str, Any], str]:
    """(the dimsum game's options, the information-state form) of OpenSpiel parameters."""
    options = {**parameter_defaults(name), **params}
    form = options.pop(INFORMATION_STATE)
    if form not in INFORMATION_STATE_FORMS:
        raise ValueError(f"{INFORMATION_STATE}={form!r} is not a form of the information-state string: "
                         f"use one of {', '.join(INFORMATION_STATE_FORMS)}")
    return options, form


def _game_type(name: str) -> "pyspiel.GameType":
    players = _option_specs(name)["players"]
    info = dimsum.game_info(name)
    return pyspiel.GameType(
        short_name=game_name(name),
        long_name=f"dimsum {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=_INFORMATION[info.information],
        utility=_UTILITY[info.utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players.maximum,
        min_num_players=players.minimum,
        provides_information_state_string=True,
        # A sound information-state tensor must have a fixed size and recall everything; the
        # observation alone forgets. The string (perfect recall, INFORMATION_STATE_FORMS) is
        # provided instead, and asking for the tensor is refused (DimsumObserver.set_from).
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_defaults(name))


def _game_info(inner: "dimsum.Game") -> "pyspiel.GameInfo":
    return pyspiel.GameInfo(
        num_distinct_actions=inner.num_actions,
        max_chance_outcomes=inner.num_chance_outcomes,
        num_players=inner.players,
        min_utility=float(inner.min_return),
        max_utility=float(inner.max_return),
        # OpenSpiel requires the constant sum of a zero-sum game (its random_sim_test checks it)
        utility_sum=0.0 if dimsum.game_info(inner.name).utility == "zero_sum" else None,
        max_game_length=inner.max_game_length)


class DimsumGame(pyspiel.Game):
    """One dimsum game configuration as an OpenSpiel game (a subclass per game name)."""

    DIMSUM_NAME = ""  # set by each registered subclass

    def __init__(self, params: Optional[Mapping[str, Any]] = None) -> None:
        options, self.information_state_form = _split_parameters(self.DIMSUM_NAME, params or {})
        self.dimsum_game = dimsum.make(self.DIMSUM_NAME, chance="explicit", **options)
        super().__init__(_game_type(self.DIMSUM_NAME), _game_info(self.dimsum_game),
                         {**options, INFORMATION_STATE: self.information_state_form})

    def new_initial_state(self) -> "DimsumState":
        # In explicit mode every random event is a chance node: the seed is never drawn from.
        return DimsumState(self, self.dimsum_game.new_state(seed=0))

    def __reduce__(self) -> Tuple[Any, Tuple[str]]:
        # pyspiel's pickling of a Python game subclass aborts the interpreter; a game is its
        # OpenSpiel string, loaded again through this module (so that it is registered).
        return load_game, (str(self),)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Optional[Mapping[str, Any]] = None) -> "DimsumObserver":
        if params:
            raise ValueError(f"{self.DIMSUM_NAME} observers take no parameters, got {params}")
        return DimsumObserver(self.dimsum_game, iig_obs_type, self.information_state_form)


def _openspiel_player(player: int) -> int:
    """dimsum's player ids (TERMINAL -1, CHANCE -2) as OpenSpiel's (-4, -1)."""
    if player == TERMINAL:
        return pyspiel.PlayerId.TERMINAL
    if player == CHANCE:
        return pyspiel.PlayerId.CHANCE
    return player


class DimsumState(pyspiel.State):
    """A dimsum state (``self.dimsum_state``) seen through OpenSpiel's State API."""

    def __init__(self, game: DimsumGame, inner: Any) -> None:
        super().__init__(game)
        self.dimsum_state = inner

    def current_player(self) -> int:
        return _openspiel_player(self.dimsum_state.current_player)

    def is_terminal(self) -> bool:
        return self.dimsum_state.is_terminal

    def _legal_actions(self, player: int) -> List[int]:
        return self.dimsum_state.legal_actions()

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        return self.dimsum_state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        # A timed game's states charge an action its default ticks when none are given.
        self.dimsum_state.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.get_game().dimsum_game.chance_outcome_name(action)
        return self.get_game().dimsum_game.action_name(action)

    def returns(self) -> List[float]:
        return list(self.dimsum_state.returns())

    def __str__(self) -> str:
        return str(self.dimsum_state)

    def __reduce__(self) -> Tuple[Any, Tuple[str, List[int]]]:
        # As the game: pyspiel's own pickling aborts on a Python subclass. A state is its game and
        # its history (every chance outcome is in it: the game is explicit-stochastic).
        return _load_state, (str(self.get_game()), list(self.history()))

    def __deepcopy__(self, memo: Dict[int, Any]) -> "DimsumState":
        return self.clone()


class DimsumObserver:
    """OpenSpiel's PyObserver protocol over dimsum's views.

    Two kinds: the observation (``perfect_recall=False``: the tensor is ``state.observation(p)``,
    ``dict`` names its slices, the string is ``state.observation_string(p)``) and the information
    state (``perfect_recall=True``: the string in the game's ``information_state`` form, see
    INFORMATION_STATE_FORMS; there is no tensor, and asking for one is a NotImplementedError, see
    ``provides_information_state_tensor``)."""

    def __init__(self, inner_game: Any, iig_obs_type: Any, form: str = INFORMATION_STATE_FORMS[0]) -> None:
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and not _is_players_own_view(iig_obs_type):
            raise ValueError("dimsum observers give a player's own view (public information and that "
                             f"player's private information), not {iig_obs_type}")
        self.form = form
        size = 0 if self.perfect_recall else int(np.prod(inner_game.observation_shape))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {} if self.perfect_recall else {
            s.name: self.tensor[s.start:s.stop] for s in inner_game.observation_layout}

    def set_from(self, state: DimsumState, player: int) -> None:
        if self.perfect_recall:
            # OpenSpiel reads the information-state tensor (and its shape) through here: an empty
            # tensor would pass for one silently
            raise NotImplementedError(
                "dimsum games provide no information-state tensor (a sound one would need a fixed size "
                "and perfect recall; the observation forgets): use information_state_string(p), or "
                "observation_tensor(p) where a tensor is needed")
        state.dimsum_state.observation(player, out=self.tensor)

    def string_from(self, state: DimsumState, player: int) -> str:
        if not self.perfect_recall:
            return state.dimsum_state.observation_string(player)
        if self.form == "digest":
            return f"{state.dimsum_state.information_state_key(player):032x}"
        return state.dimsum_state.information_state_string(player)


def _is_players_own_view(iig_obs_type: Any) -> bool:
    return (iig_obs_type.public_info
            and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER)


def resample(state: DimsumState, player: int, seed: Optional[int] = None) -> DimsumState:
    """A state ``player`` cannot tell from ``state`` (``dimsum``'s ``resample``), for IS-MCTS's
    ``set_resampler``. It is rebuilt by replaying the resampled history from the start, so that
    OpenSpiel's own record of the history (serialization, ``history()``) agrees with it."""
    if seed is None:
        seed = int(np.random.randint(0, 2**_RESAMPLE_SEED_BITS, dtype=np.int64))
    sampled = state.dimsum_state.resample(player, seed)
    copy = state.get_game().new_initial_state()
    for action in sampled.history:
        copy.apply_action(action)
    return copy


def load_game(text: str) -> "DimsumGame":
    """``pyspiel.load_game(text)`` with dimsum's games registered (this module is imported): what an
    unpickled game calls."""
    return pyspiel.load_game(text)


def _load_state(game_text: str, history: List[int]) -> "DimsumState":
    state = load_game(game_text).new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def _register(name: str) -> None:
    title = "".join(ch for ch in dimsum.game_info(name).title if ch.isalnum())
    game_class = type(f"Dimsum{title}Game", (DimsumGame,), {"DIMSUM_NAME": name, "__module__": __name__})
    globals()[game_class.__name__] = game_class  # importable by name, as pickle and copy expect classes to be
    pyspiel.register_game(_game_type(name), game_class)


for _name in dimsum.games():
    _register(_name)
