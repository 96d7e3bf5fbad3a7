"""The shape every pure-Python reference engine shares.

A reference engine is written for reading, not for speed: it is the oracle the C++ core is
checked against, step by step, in the differential tests. Each game subclasses
``ReferenceGame`` and ``ReferenceState`` and fills in the rules; this module gives them the
same public API as ``dimsum.make(...)`` games (see docs/ARCHITECTURE.md, "The Python API").

What a game module provides:

- ``ReferenceState._legal_actions()``: sorted list of legal action ints;
- ``ReferenceState._apply(action)``: the rules, for an action already known to be legal;
- ``ReferenceState._current_player()``, ``_returns()``, ``observation(player)``;
- ``ReferenceState.to_dict()`` and ``ReferenceGame._state_from_dict(d)``: the canonical dict,
  identical to the core's ``to_dict()``;
- ``ReferenceState.resample(player, seed)``.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Sequence, Tuple

from .._common import TERMINAL, IllegalActionError, check_int, describe_actions


class ReferenceGame:
    """A configured game: validated options, components, action space, observation layout."""

    name: str = ""
    state_class: type = None  # set by subclasses

    def __init__(self, config: Any) -> None:
        # `config` is the game's spec-module Config (dimsum.games.<name>.Config), shared with
        # the core so that both engines validate options and name actions the same way.
        self.config = config

    spec = property(lambda self: self.config)  # the same name as on core games
    players = property(lambda self: self.config.players)
    options = property(lambda self: dict(self.config.options))
    num_actions = property(lambda self: len(self.config.action_space))
    observation_shape = property(lambda self: self.config.observation_shape)
    observation_layout = property(lambda self: self.config.observation_layout)
    max_game_length = property(lambda self: self.config.max_game_length)
    min_return = property(lambda self: self.config.min_return)
    max_return = property(lambda self: self.config.max_return)

    def action_name(self, action: int) -> str:
        return self.config.action_space.name(action)

    def parse_action(self, text: str) -> int:
        return self.config.action_space.parse(text)

    def new_state(self, seed: int = 0) -> "ReferenceState":
        raise NotImplementedError  # each game deals its own opening

    def state_from_dict(self, d: Dict[str, Any]) -> "ReferenceState":
        if not isinstance(d, dict):
            raise TypeError(f"state_from_dict takes a dict, got {type(d).__name__}")
        return self._state_from_dict(copy.deepcopy(d))

    def _state_from_dict(self, d: Dict[str, Any]) -> "ReferenceState":
        raise NotImplementedError  # each game reads its own dict

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

    # -- the shared API -----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self._current_player()

    @property
    def is_terminal(self) -> bool:
        return self._current_player() == TERMINAL

    def legal_actions(self) -> List[int]:
        return [] if self.is_terminal else self._legal_actions()

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
        if a not in legal:
            raise IllegalActionError(
                f"action {a} ({self.game.action_name(a)}) is not legal for player "
                f"{self.current_player} now; legal: {describe_actions(self.game.config.action_space, legal)}")
        self._apply(a)
        self.history.append(a)

    def returns(self) -> Tuple[float, ...]:
        return self._returns()

    def action_name(self, action: int) -> str:
        return self.game.action_name(action)

    def parse_action(self, text: str) -> int:
        return self.game.parse_action(text)

    def clone(self) -> "ReferenceState":
        # the game (and its config) is shared, never copied: the memo maps it to itself
        return copy.deepcopy(self, {id(self.game): self.game})

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_dict() == other.to_dict()  # type: ignore[attr-defined]

    __hash__ = None  # mutable


def flat(values: Sequence[float]) -> List[float]:
    """Observations from the reference are plain lists of floats (numpy is not needed)."""
    return [float(v) for v in values]
