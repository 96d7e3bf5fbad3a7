"""The shape every pure-Python reference engine shares.

A reference engine is written for reading, not for speed: it is the oracle the C++ core is
checked against, step by step, in the differential tests. Each game subclasses
``ReferenceGame`` and ``ReferenceState`` and fills in the rules; this module gives them the
same public API as ``dimsum.make(...)`` games (see docs/ARCHITECTURE.md, "The Python API").

What a game module provides:

- ``ReferenceState._legal_actions()``: sorted list of legal action ints;
- ``ReferenceState._apply(action)``: the rules, for an action already known to be legal;
- ``ReferenceState._current_player()``, ``_returns()``, ``observation(player)``;
- ``ReferenceState.fields()``: the state as the core's declared state fields, by name
  (``game.state_fields``); the readable dict is made from them by the same codec the core uses,
  so ``to_dict()`` is identical on both engines. The way back, ``ReferenceGame._state_from_fields``,
  has a default: ``ReferenceGame._blank_state(rng)`` (the game's State with that generator), then
  each field set by ``ReferenceState._set_field(name, value)``, by default the attribute of the
  field's name; a game overrides ``_set_field`` for the fields it keeps otherwise, or writes its
  own ``_state_from_fields`` when its attributes are not one field each;
- ``ReferenceState.resample(player, seed)``;
- ``ReferenceState._chance_outcomes()``: at a chance node (``_current_player()`` is ``CHANCE``,
  only when the config's ``explicit_chance``), ``[(outcome, weight), ...]`` ascending with
  positive integer weights, the core's ``chance_outcomes`` exactly; ``_legal_actions()`` then
  lists the same outcomes and ``_apply(outcome)`` plays one. Every state keeps its generator
  in ``self.rng`` (a ``reference.rng.Rng``), which ``clone(seed)`` replaces.
"""

from __future__ import annotations

import copy
import importlib
from typing import Any, ClassVar, Dict, List, Tuple

from fractions import Fraction

from .._common import CHANCE, OMNISCIENT_NOTE, TERMINAL, IllegalActionError, check_int, check_seed, describe_actions
from .rng import Rng


class ReferenceGame:
    """A configured game: validated options, components, action space, observation layout.

    What the core declares rather than computes (the state fields, the observation layout and
    its bounds), the sizes it computes once for every engine (the game length bound) and what it
    checks for every engine (a state dict from outside) come from the compiled game of the same
    options, ``self.core``: declarations, never rules.
    """

    name: str = ""

    def __init__(self, config: Any) -> None:
        # `config` is the game's spec-package Config (dimsum.games.<name>.Config), shared with
        # the core so that both engines validate options and name actions the same way.
        from .. import _core

        self.config = config
        self.core = _core.make(self.name, **config.options)

    @property
    def package(self) -> Any:
        """dimsum.games.<name>; looked up, not held, so that games and states pickle."""
        return importlib.import_module(f"dimsum.games.{self.name}")

    spec = property(lambda self: self.config)  # the same name as on core games
    players = property(lambda self: self.config.players)
    options = property(lambda self: dict(self.config.options))
    num_actions = property(lambda self: len(self.config.action_space))
    observation_shape = property(lambda self: self.core.observation_shape)
    observation_layout = property(lambda self: self.core.observation_layout)
    state_fields = property(lambda self: self.core.state_fields)
    max_game_length = property(lambda self: self.core.max_game_length)
    min_return = property(lambda self: self.config.min_return)
    max_return = property(lambda self: self.config.max_return)

    num_chance_outcomes = property(lambda self: len(self.config.chance_space))
    explicit_chance = property(lambda self: self.config.explicit_chance)

    def action_name(self, action: int) -> str:
        return self.config.action_space.name(action)

    def parse_action(self, text: str) -> int:
        return self.config.action_space.parse(text)

    def chance_outcome_name(self, outcome: int) -> str:
        return self.config.chance_space.name(outcome)

    def new_state(self, seed: int = 0) -> "ReferenceState":
        raise NotImplementedError  # each game deals its own opening

    def state_from_dict(self, d: Dict[str, Any]) -> "ReferenceState":
        # the core checks the dict (every field, then the position as a whole) for both engines
        return self._state_from_fields(copy.deepcopy(self.core.state_from_dict(d).fields()))

    def _state_from_fields(self, fields: Dict[str, Any]) -> "ReferenceState":
        """A state from the core's state fields (already checked by the core): a blank state with
        the generator of the ``rng`` words, then every other field set by ``_set_field``."""
        state = self._blank_state(Rng.from_state(fields["rng"]))
        for name, value in fields.items():
            if name != "rng":
                state._set_field(name, value)
        return state

    def _blank_state(self, rng: Rng) -> "ReferenceState":
        """The game's State drawing from ``rng``, its other attributes to be set from fields."""
        raise NotImplementedError  # each game that uses the default _state_from_fields provides it

    def __repr__(self) -> str:
        return f"dimsum.reference.{self.name}.Game({self.config.options})"


class ReferenceState:
    """A position. Subclasses hold the rules; this class holds the API around them."""

    def __init__(self, game: ReferenceGame) -> None:
        self.game = game
        self.history: List[int] = []

    # -- what subclasses fill in --------------------------------------------------------------
    def _legal_actions(self) -> List[int]:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def _current_player(self) -> int:
        raise NotImplementedError

    def _returns(self) -> Tuple[float, ...]:
        raise NotImplementedError

    def _chance_outcomes(self) -> List[Tuple[int, int]]:
        return []  # a game without explicit chance never stops at one

    # -- the shared API -----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self._current_player()

    @property
    def is_terminal(self) -> bool:
        return self._current_player() == TERMINAL

    def legal_actions(self) -> List[int]:
        return [] if self.is_terminal else self._legal_actions()

    @property
    def is_chance_node(self) -> bool:
        return self._current_player() == CHANCE

    def chance_outcomes(self, exact: bool = False) -> List[Tuple[int, Any]]:
        weighted = self._chance_outcomes() if self.is_chance_node else []
        if not weighted:
            raise ValueError("chance_outcomes: this is not a chance node")
        total = sum(w for _, w in weighted)
        return [(o, Fraction(w, total) if exact else w / total) for o, w in weighted]

    def legal_mask(self) -> List[bool]:
        mask = [False] * self.game.num_actions
        for a in self.legal_actions():
            mask[a] = True
        return mask

    def apply(self, action: Any) -> None:
        a = check_int(action, "action", 0, self.game.num_actions - 1)
        if self.is_terminal:
            raise IllegalActionError(f"action {a} ({self.game.action_name(a)}): the game is over")
        legal = self._legal_actions()
        if a not in legal and self.is_chance_node:
            raise IllegalActionError(
                f"{a} is not a possible outcome of this chance node; the outcomes: "
                f"{describe_actions(self.game.config.chance_space, legal)}")
        if a not in legal:
            raise IllegalActionError(
                f"action {a} ({self.game.action_name(a)}) is not legal for player "
                f"{self.current_player} now; legal: {describe_actions(self.game.config.action_space, legal)}")
        self._apply(a)
        self.history.append(a)

    def returns(self) -> Tuple[float, ...]:
        return self._returns()

    @property
    def outcome(self) -> Any:
        """Why the game ended (a dimsum.Outcome from the game package's ``ending``), None before."""
        if not self.is_terminal:
            return None
        from .._common import Outcome

        reason, description, winners = self.game.package.ending(self.game.config, self.fields())
        return Outcome(reason, description, self.returns(), tuple(winners))

    def action_name(self, action: int) -> str:
        if self.is_chance_node:
            return self.game.chance_outcome_name(action)
        return self.game.action_name(action)

    def parse_action(self, text: str) -> int:
        if self.is_chance_node:
            return self.game.config.chance_space.parse(text)
        return self.game.parse_action(text)

    def fields(self) -> Dict[str, Any]:
        raise NotImplementedError  # each game names its attributes as the core's fields

    # A field held by an attribute of another name: {field: attribute} (Pig and Kuhn poker keep
    # ``current_player`` as ``current``, the name their rules read).
    FIELD_ATTRIBUTES: ClassVar[Dict[str, str]] = {}

    def _set_field(self, name: str, value: Any) -> None:
        """Sets the state field ``name`` (the default ``_state_from_fields``): by default the
        attribute of that name (or the one ``FIELD_ATTRIBUTES`` maps it to) holds it as it is."""
        setattr(self, self.FIELD_ATTRIBUTES.get(name, name), value)

    def field(self, name: str) -> Any:
        return self.fields()[name]

    def to_dict(self) -> Dict[str, Any]:
        return self.game.package.dict_from_fields(self.game.config, self.fields())

    def __str__(self) -> str:
        return self.game.package.render(self.to_dict()) + "\n" + OMNISCIENT_NOTE

    def clone(self, seed: Any = None) -> "ReferenceState":
        # the game (and its config) is shared, never copied: the memo maps it to itself
        new = copy.deepcopy(self, {id(self.game): self.game})
        if seed is not None:
            new.rng = Rng(check_seed(seed))  # a search-safe copy: the future redrawn
        return new

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_dict() == other.to_dict()  # type: ignore[attr-defined]

    __hash__ = None  # mutable

