"""What every game shares on the Python side: errors, option specs, action spaces, data files.

Nothing here knows any game's rules. The core glue (``dimsum.games.*`` and ``_core``) and
the pure-Python reference engines (``dimsum.reference.*``) both build on it, so that
option validation, action names and data loading are written once.
"""

from __future__ import annotations

import difflib
import json
import math
import numbers
from dataclasses import dataclass, field, fields
from importlib import resources
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Protocol, Sequence, Tuple

TERMINAL = -1
"""``state.current_player`` once the game is over."""

CHANCE = -2
"""``state.current_player`` at a chance node (a game made with ``chance="explicit"``)."""

CHANCE_MODES = ("sampled", "explicit")

OMNISCIENT_NOTE = "(the whole table, hidden information included: observation_string(p) is one seat's view)"
"""The last line of ``str(state)`` on every engine."""

PROVENANCE_TAGS = ("rulebook", "source", "inferred", "default")


class IllegalActionError(ValueError):
    """An action that is not legal in this state. The state is left exactly as it was."""


# ---------------------------------------------------------------------------------------------
# Checking values that come from users

def check_int(value: Any, what: str, lo: Optional[int] = None, hi: Optional[int] = None) -> int:
    """``value`` as a Python int, or TypeError/ValueError naming ``what`` and the allowed range.

    bool is refused (True is not a player number), and so are floats, strings, None and numpy
    arrays; numpy integer scalars are accepted.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what} must be an int, got {type(value).__name__} {value!r:.60}")
    value = int(value)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        lo_s = "-inf" if lo is None else lo
        hi_s = "inf" if hi is None else hi
        raise ValueError(f"{what} must be in [{lo_s}, {hi_s}], got {value}")
    return value


def check_float(value: Any, what: str, lo: Optional[float] = None, hi: Optional[float] = None) -> float:
    """``value`` as a Python float, or TypeError/ValueError naming ``what`` and the allowed range.

    Ints and floats (numpy's too) are accepted; bool, strings and None are refused, and so are
    NaN and a value outside [lo, hi] (an int too large for a float included)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what} must be a number, got {type(value).__name__} {value!r:.60}")
    lo_s = "-inf" if lo is None else f"{lo:g}"
    hi_s = "inf" if hi is None else f"{hi:g}"
    try:
        number = float(value)
    except OverflowError:
        number = math.nan  # an int beyond a float's range: outside any finite range
    if not ((lo is None or number >= lo) and (hi is None or number <= hi)) or math.isnan(number):
        raise ValueError(f"{what} must be in [{lo_s}, {hi_s}], got {value!r:.60}")
    return number


def set_bits(mask: int) -> List[int]:
    """The set bits of ``mask`` in ascending order (a hand of tokens as a bitmask -> token ids)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def check_seat_option(game: str, name: str, value: Optional[int], players: int) -> None:
    """A seat-valued option (None: chosen at random) must name a seat of this player count."""
    if value is not None and value >= players:
        raise ValueError(f"{game} option {name!r} must be in [0, {players - 1}] or None, got {value}")


def play_timeline(state: Any, timeline: Sequence[Tuple[int, int]]) -> Any:
    """Replays a timed game's ``state.timeline`` onto ``state``: ``(action, ticks)`` applies an
    action charging ``ticks``, ``(-1, ticks)`` lets time pass. Returns the state."""
    for action, ticks in timeline:
        if action == -1:
            state.advance(ticks)
        else:
            state.apply(action, ticks=ticks)
    return state


def check_game_name(name: Any, known: Sequence[str]) -> str:
    """``name`` if it is one of the ``known`` game names, else a ValueError naming the closest
    match and the games. Checked before anything is imported by name, so that ``"state_dict"``
    or ``"yum_cha.state_dict"`` never reaches ``importlib``."""
    if not isinstance(name, str):
        raise TypeError(f"a game name is a str, got {type(name).__name__} {name!r:.60}")
    if name in known:
        return name
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}? The games are: " if close else "; the games are: "
    raise ValueError(f"unknown game {name!r}{hint}{', '.join(known)}")


def check_sampled(game: Any, who: str) -> None:
    """The batch engine and the playout driver step the players only: chance is drawn inside
    apply (the sampled mode). A game made with chance="explicit" is refused with what to do."""
    if game.explicit_chance:
        raise ValueError(f"{who} plays sampled games (chance drawn inside each step); this game was made with "
                         f"chance='explicit': make it with chance='sampled' (the default) for {who}")


def check_seed(seed: Any) -> int:
    """Seeds are ints in [0, 2**64); negative ones are folded the way numpy folds them."""
    seed = check_int(seed, "seed")
    if not -(1 << 63) <= seed < (1 << 64):
        raise ValueError(f"seed must fit in 64 bits, got {seed}")
    return seed & ((1 << 64) - 1)


@dataclass(frozen=True)
class OptionSpec:
    """One named rule option of a game: its default, what values it takes, and why it exists
    (public as ``dimsum.OptionSpec``; ``dimsum.options(name)`` lists a game's).

    ``choices``: the values it takes, or None; else ``kind``, the type of its value (int, float,
    bool, dict), with ``minimum``/``maximum`` for an int or a float; ``allow_none``: None is
    accepted too.
    ``ruling`` names the RESEARCH.md gap it settles (``"YC-9"``) or the rulebook rule it varies.
    """

    name: str
    default: Any
    doc: str
    choices: Optional[Tuple[Any, ...]] = None
    kind: Optional[type] = None
    minimum: Optional[float] = None
    maximum: Optional[float] = None
    ruling: str = ""
    allow_none: bool = False

    def validate(self, game: str, value: Any) -> Any:
        where = f"{game} option {self.name!r}"
        if value is None and self.allow_none:
            return None
        if self.choices is not None:
            if isinstance(value, bool) and not any(isinstance(c, bool) for c in self.choices):
                raise TypeError(f"{where} takes one of {list(self.choices)}, got {value!r}")
            if value not in self.choices:
                raise ValueError(f"{where} takes one of {list(self.choices)}, got {value!r}")
            return value
        if self.kind is bool:
            if not isinstance(value, bool):
                raise TypeError(f"{where} must be True or False, got {value!r}")
            return value
        if self.kind is int:
            return check_int(value, where, self.minimum, self.maximum)  # type: ignore[arg-type]
        if self.kind is float:
            return check_float(value, where, self.minimum, self.maximum)
        if self.kind is not None and not isinstance(value, self.kind):
            raise TypeError(f"{where} must be a {self.kind.__name__}, got {type(value).__name__}")
        return value


Option = OptionSpec  # the name the games' packages declare their options with


# The options every game has, declared once here and added to each game's own.
COMMON_OPTIONS: Dict[str, Option] = {o.name: o for o in (
    Option("chance", "sampled",
           "'sampled': random events happen inside apply; 'explicit': the game stops at each one (a chance "
           "node: current_player is dimsum.CHANCE, chance_outcomes() lists outcomes and probabilities)",
           choices=CHANCE_MODES),
)}


def resolve_options(game: str, specs: Mapping[str, Option], given: Mapping[str, Any]) -> Dict[str, Any]:
    """Every option of ``specs`` (and of ``COMMON_OPTIONS``) with its validated value; unknown
    names are a ValueError.

    The dict is the game's to finish (a deck copied in, an achievement applied); ``GameConfig``
    freezes it when the Config is built."""
    specs = {**specs, **COMMON_OPTIONS}
    unknown = sorted(set(given) - set(specs))
    if unknown:
        raise ValueError(
            f"unknown {game} option(s) {unknown}; the options are {sorted(specs)}")
    return {name: spec.validate(game, given.get(name, spec.default)) for name, spec in specs.items()}


# ---------------------------------------------------------------------------------------------
# Action spaces

class ActionSpace:
    """A fixed list of action names: action ``a`` is ``names[a]``; names are unique.

    ``parse`` accepts the exact name, case-insensitively and with runs of spaces folded.
    """

    __slots__ = ("names", "_index")

    def __init__(self, names: Sequence[str]) -> None:
        self.names: Tuple[str, ...] = tuple(names)
        self._index = {}
        for a, name in enumerate(self.names):
            key = self._key(name)
            if key in self._index:
                raise AssertionError(f"duplicate action name {name!r}")
            self._index[key] = a

    @staticmethod
    def _key(name: str) -> str:
        return " ".join(name.lower().split())

    def __len__(self) -> int:
        return len(self.names)

    def name(self, action: Any) -> str:
        a = check_int(action, "action", 0, len(self.names) - 1)
        return self.names[a]

    def parse(self, text: Any) -> int:
        if not isinstance(text, str):
            raise TypeError(f"parse_action takes a str, got {type(text).__name__}")
        try:
            return self._index[self._key(text)]
        except KeyError:
            close = [n for n in self.names if self._key(text)[:6] in self._key(n)][:8]
            hint = f"; similar names: {close}" if close else ""
            raise ValueError(f"no action is named {text!r}{hint}") from None


def describe_actions(space: ActionSpace, actions: Iterable[int], limit: int = 12) -> str:
    """A short readable list of actions for error messages."""
    actions = list(actions)
    shown = ", ".join(f"{a} ({space.names[a]})" for a in actions[:limit])
    if len(actions) > limit:
        shown += f", ... ({len(actions)} in all)"
    return shown or "none"


# ---------------------------------------------------------------------------------------------
# What every game's Config has (each game's Config adds its components and rules)

class FrozenDict(dict):
    """A dict that refuses changes: every game's ``Config.options``.

    It stays a dict, so ``dimsum.make(name, **cfg.options)``, ``==`` with a dict and ``json``
    work; it pickles and deep-copies whole; ``dict(frozen)`` is a mutable copy (what
    ``Game.options`` hands out). Values are not frozen: the games copy their data options in.
    """

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("this mapping is read-only (Config.options); dict(...) makes a mutable copy")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore

    def __reduce__(self) -> Any:  # pickling rebuilds it whole instead of item by item
        return (type(self), (dict(self),))


@dataclass(frozen=True)
class GameConfig:
    players: int
    options: Mapping[str, Any]  # frozen (a FrozenDict) when the Config is built
    action_space: "ActionSpace"
    min_return: float
    max_return: float
    # The names of the chance outcomes [0, len(chance_space)) of an explicit-chance game: one
    # fixed range per game ("draw Har Gow", "roll 5"), whichever mode the config is in.
    chance_space: "ActionSpace" = field(default=None, kw_only=True)  # type: ignore[assignment]

    @property
    def explicit_chance(self) -> bool:
        return self.options.get("chance") == "explicit"

    def __post_init__(self) -> None:
        # Here, not in resolve_options: each game's make_config still fills in its resolved dict.
        if not isinstance(self.options, FrozenDict):
            object.__setattr__(self, "options", FrozenDict(self.options))
        if self.chance_space is None:
            object.__setattr__(self, "chance_space", ActionSpace(()))


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended (``state.outcome``), python-chess's Outcome being the model.

    ``reason``: a short id of why it ended, one of the game's (docs/API.md lists them all);
    ``description``: one readable sentence; ``returns``: what each seat got; ``winners``: the
    seats that won (all of a cooperative team that won; none after a draw or a team's loss)."""

    reason: str
    description: str
    returns: Tuple[float, ...]
    winners: Tuple[int, ...]

    def __str__(self) -> str:
        return self.description


# ---------------------------------------------------------------------------------------------
# What a game is, as the shared code needs to know it

INFORMATION_TYPES = ("perfect", "imperfect")
UTILITY_TYPES = ("zero_sum", "general_sum", "cooperative")


@dataclass(frozen=True)
class GameInfo:
    """The facts about a game that shared code (the adapters, the arena, the pictures, the
    command line) needs, declared once as ``INFO`` in the game's package, ``dimsum.games.<name>``;
    read with ``dimsum.game_info(name)``. No shared module keeps a table of games.

    What the compiled engine already says is not repeated here: whether the game is timed
    (``isinstance(game, dimsum.TimedGame)``), its sizes, and whether it declares a heuristic
    (the C++ Engine's optional ``heuristic_action``)."""

    title: str
    """The readable name ("Yum Cha"): OpenSpiel's long name, the Gymnasium id (``gym_id``)."""
    information: str
    """``"perfect"``: every seat sees the whole position, only future chance events are unknown
    (``resample`` redraws only the future); ``"imperfect"``: seats hide something from each other
    (the other hands), which ``resample`` must draw. OpenSpiel's information type."""
    utility: str
    """``"zero_sum"`` (the returns always sum to 0), ``"general_sum"``, or ``"cooperative"`` (every
    seat gets the team's return: the arena seats one bot in every seat; OpenSpiel's identical)."""
    arena_options: Mapping[str, Any] = field(default_factory=dict)
    """The options an arena or a demo plays when it is given none (``{"players": 2}``)."""
    showcase: bool = False
    """The game of ``python -m dimsum``'s closing arena (the first in ``dimsum.games()`` that sets it)."""
    picture: Tuple[Mapping[str, Any], int, int] = ({}, 7, 0)
    """The README's picture, ``docs/images/<name>.svg``: (options, seed, seeded random moves played)."""

    def __post_init__(self) -> None:
        if not isinstance(self.title, str) or not self.title.strip():
            raise ValueError(f"GameInfo.title must be a non-empty str, got {self.title!r}")
        if self.information not in INFORMATION_TYPES:
            raise ValueError(f"GameInfo.information must be one of {INFORMATION_TYPES}, got {self.information!r}")
        if self.utility not in UTILITY_TYPES:
            raise ValueError(f"GameInfo.utility must be one of {UTILITY_TYPES}, got {self.utility!r}")
        object.__setattr__(self, "arena_options", FrozenDict(self.arena_options))
        options, seed, steps = self.picture
        object.__setattr__(self, "picture", (FrozenDict(options), seed, steps))

    @property
    def gym_id(self) -> str:
        """The Gymnasium id ``dimsum/<Title>-v0`` (the title without spaces or punctuation)."""
        return "dimsum/" + "".join(ch for ch in self.title if ch.isalnum()) + "-v0"

    @property
    def cooperative(self) -> bool:
        return self.utility == "cooperative"


@dataclass(frozen=True)
class Profile:
    """What the shared tests and benchmarks need to know about one game, declared next to it
    as ``PROFILE`` in ``dimsum/games/<name>/profile.py``: adding a game adds that file and
    edits no shared test or benchmark. Option sets are passed as ``dimsum.make(name, **options)``.
    Declared here beside GameInfo (the game packages import nothing from the test suite);
    ``dimsum.testing.Profile`` re-exports it.
    """

    conformance: Tuple[Mapping[str, Any], ...]  # check_game on each: every option that changes the rules
    golden: Mapping[str, Any]                   # the golden playthrough (tests/golden/<name>.txt)
    bad_input: Mapping[str, Any]                # the game the bad-input tests attack
    same_size: Mapping[str, Any]                # other options whose states have bad_input's byte size
    corrupt_dict: Callable[[Dict[str, Any]], None]  # breaks conservation in a to_dict(), in place
    corrupt_dict_error: str                     # a regex the ValueError for corrupt_dict matches (the field)
    threads: Mapping[str, Any]                  # the states shared by threads
    bench: Mapping[str, Any]                    # the benchmarks and the perf guard's bench signature
    peer: Optional[str] = None                  # the OpenSpiel/RLCard game doing the nearest work
    search_simulations: int = 2000              # an IS-MCTS search of about 10-50 ms, for the bot benchmarks
    small: Mapping[str, Any] = field(default_factory=dict)  # short games (a few dozen moves) for tests that play hundreds
    chance_after_deal: bool = True  # randomness can follow the deal (a roll, a draw): clone(seed) can change the future
    reserved_bytes: bool = False    # the State struct has a reserved_ array (padding made explicit), refused when set

    def __post_init__(self) -> None:
        # frozen all the way down to the option sets, so that no test can change another's case
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "conformance":
                object.__setattr__(self, f.name, tuple(FrozenDict(o) for o in value))
            elif isinstance(value, Mapping):
                object.__setattr__(self, f.name, FrozenDict(value))


# ---------------------------------------------------------------------------------------------
# What a game's Python package provides

class GameSpec(Protocol):
    """The module protocol of a game's Python package, ``dimsum.games.<name>``.

    ``dimsum._core.Game`` imports the package of each name the compiled registry lists and
    calls these; the reference engine builds its Config with ``make_config`` too. The package
    also holds ``state_dict.py`` (the dict form behind ``dict_from_fields``/``fields_from_dict``)
    and ``profile.py`` (``PROFILE``, a ``Profile``, above, for the shared tests and
    benchmarks). Optional: ``shaping.py`` (``SHAPINGS``, training rewards by name, read by
    ``dimsum.baselines.shaping``); ``STATE_CLASS``, a subclass of ``dimsum._core.State`` (of
    ``TimedState`` for a game with a clock) that the core returns instead of the generic class.
    The usual way to write ``dict_from_fields``/``fields_from_dict`` is a ``dimsum._schema.DictCodec``
    in ``state_dict.py``.
    The module itself is the implementation (a type checker accepts
    ``spec: GameSpec = dimsum.games.yum_cha``); tests/test_game_packages.py checks every
    registered game against this list.
    """

    NAME: str                       # the registry name, as the C++ Engine's kName
    INFO: GameInfo                  # what shared code needs to know (information, utility, title, ...)
    OPTIONS: Mapping[str, Option]   # every rule option by name, with its default

    def make_config(self, **options: Any) -> GameConfig:
        """The validated Config (a GameConfig); an unknown or bad option is a ValueError/TypeError."""

    def config_values(self, cfg: Any) -> Dict[str, Any]:
        """The config's values by the names of the config fields the C++ core declares
        (``<game>/schema.cpp``); the binding packs them in the core's order."""

    def dict_from_fields(self, cfg: Any, fields: Mapping[str, Any]) -> Dict[str, Any]:
        """``state.to_dict()`` from the state's fields by name (``state.fields()``)."""

    def fields_from_dict(self, cfg: Any, d: Mapping[str, Any]) -> Dict[str, Any]:
        """The state's fields by name from a ``to_dict()``-shaped dict (types and names checked;
        the core then checks every value's bounds and the position as a whole)."""

    def render(self, d: Mapping[str, Any]) -> str:
        """``str(state)``: a readable picture of a state from its ``to_dict()``."""

    def ending(self, cfg: Any, fields: Mapping[str, Any]) -> Tuple[str, str, Sequence[int]]:
        """For a finished game: ``(reason, description, winners)`` (``state.outcome``, a
        ``dimsum.Outcome``). Optional: ``observation_labels(cfg)``, names for the entries of
        observation slices, which ``observation_string`` then lists by name."""


# ---------------------------------------------------------------------------------------------
# Observation layouts (the core declares the slices; game.observation_layout lists them)

@dataclass(frozen=True)
class Slice:
    """One named part of the flat observation: ``obs[start:stop]``."""

    name: str
    start: int
    stop: int
    doc: str = ""


# ---------------------------------------------------------------------------------------------
# Component data files (python/dimsum/data/*.json)

def load_data(game: str) -> Dict[str, Any]:
    """The packaged component data of ``game`` (cards, dice, tokens) with provenance."""
    text = resources.files("dimsum.data").joinpath(f"{game}.json").read_text(encoding="utf-8")
    return json.loads(text)


def check_provenance(entry: Mapping[str, Any], where: str) -> None:
    tag = entry.get("provenance")
    if tag not in PROVENANCE_TAGS:
        raise ValueError(f"{where}: provenance must be one of {list(PROVENANCE_TAGS)}, got {tag!r}")

