"""Pig, the reference engine: docs/rules/pig.md (OpenSpiel's pig), written for reading.

A turn: the seat to act rolls the die as often as it likes, each face adding to its turn total;
a 1 loses the turn total and passes the turn; holding banks the turn total and passes the turn.
The first seat to bank the target score wins; the horizon (a number of decisions) ends the game
with no winner.

Randomness, in the order it is consumed: every roll of the die is ``rng.bounded(faces)``, the
face's index (piglet: index 0 is a 1, any other is "not a 1"). A roll that reaches the horizon
ends the game before the die is cast, so it draws nothing.

With ``chance="explicit"`` each roll is a chance node instead (``current_player`` CHANCE): its
outcomes are the faces, weight 1 each (piglet: a 1 with weight 1, not a 1 with faces - 1).
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from .._common import CHANCE, TERMINAL, check_int, check_seed
from ..games import pig as spec
from ._base import ReferenceGame, ReferenceState
from .rng import Rng


class Game(ReferenceGame):
    name = spec.NAME

    def __init__(self, **options: Any) -> None:
        super().__init__(spec.make_config(**options))

    def new_state(self, seed: int = 0) -> "State":
        return State(self, Rng(check_seed(seed)))  # PIG-1: seat 0 starts; nothing drawn yet

    def _blank_state(self, rng: Rng) -> "State":
        return State(self, rng)                 # the shared _state_from_fields fills it


class State(ReferenceState):
    FIELD_ATTRIBUTES = {"current_player": "current"}  # the rules read self.current

    def __init__(self, game: Game, rng: Rng) -> None:
        super().__init__(game)
        self.cfg = game.config
        self.rng = rng
        self.moves = 0                          # decisions made: the game ends at the horizon
        self.scores = [0] * self.cfg.players
        self.turn_total = 0
        self.turn_player = 0
        self.current = 0                        # the seat to act, CHANCE (a roll pending), TERMINAL
        self.last_roll = 0                      # the last roll's outcome + 1; 0 before the first

    # -- the rules ------------------------------------------------------------------------------
    def _may_roll(self) -> bool:
        """PIG-3: rolling stops once banking the turn total would reach the target."""
        return self.scores[self.turn_player] + self.turn_total < self.cfg.winscore

    def _pass_turn(self, over: bool) -> None:
        self.turn_total = 0
        self.turn_player = (self.turn_player + 1) % self.cfg.players
        self.current = TERMINAL if over else self.turn_player

    def _roll(self, outcome: int) -> None:
        """PIG-3: a 1 (outcome 0) loses the turn total and passes the turn; else it adds."""
        self.last_roll = outcome + 1
        if outcome == 0:
            self._pass_turn(over=False)
        else:
            self.turn_total += self.cfg.points(outcome)
            self.current = self.turn_player

    def _apply(self, action: int) -> None:
        cfg = self.cfg
        if self.current == CHANCE:
            self._roll(action)
            return
        self.moves += 1
        horizon = self.moves >= cfg.horizon                  # PIG-6
        if action == spec.HOLD:                              # PIG-4: bank it, pass the turn
            self.scores[self.turn_player] += self.turn_total
            won = self.scores[self.turn_player] >= cfg.winscore  # PIG-5
            self._pass_turn(over=horizon or won)
        elif horizon:
            self.current = TERMINAL                          # the die is never cast
        elif cfg.explicit_chance:
            self.current = CHANCE
        else:
            face = self.rng.bounded(cfg.faces)
            self._roll((0 if face == 0 else 1) if cfg.piglet else face)

    # -- the API --------------------------------------------------------------------------------
    def _current_player(self) -> int:
        return self.current

    def _chance_outcomes(self) -> List[Tuple[int, int]]:
        cfg = self.cfg
        if cfg.piglet:
            return [(0, 1), (1, cfg.faces - 1)]
        return [(o, 1) for o in range(cfg.faces)]

    def _legal_actions(self) -> List[int]:
        if self.current == CHANCE:
            return [o for o, _ in self._chance_outcomes()]
        return [spec.ROLL, spec.HOLD] if self._may_roll() else [spec.HOLD]

    def winner(self) -> int:
        return next((p for p, s in enumerate(self.scores) if s >= self.cfg.winscore), -1)

    def _returns(self) -> Tuple[float, ...]:
        """PIG-5: the winner +1, the others -1/(players - 1); all 0 until then, and at the horizon."""
        n = self.cfg.players
        won = self.winner() if self.current == TERMINAL else -1
        if won < 0:
            return tuple(0.0 for _ in range(n))
        return tuple(1.0 if p == won else -1.0 / (n - 1) for p in range(n))

    def observation(self, player: int) -> List[float]:
        cfg = self.cfg
        n = cfg.players
        player = check_int(player, "player", 0, n - 1)
        seats = [(player + k) % n for k in range(n)]        # my seat first
        obs: List[float] = [self.scores[s] for s in seats]
        obs.append(self.turn_total)
        obs += [1 if s == self.turn_player else 0 for s in seats]
        obs += [1 if o + 1 == self.last_roll else 0 for o in range(cfg.num_outcomes)]
        obs.append(cfg.horizon - self.moves)
        return [float(v) for v in obs]

    def resample(self, player: int, seed: int) -> "State":
        """Pig hides nothing but the future rolls: the same position, reseeded."""
        check_int(player, "player", 0, self.cfg.players - 1)
        return self.clone(seed)

    def fields(self) -> Dict[str, Any]:
        """The core's state fields (src/dimsum_core/pig/schema.cpp), by name."""
        return {
            "moves": self.moves, "scores": list(self.scores), "turn_total": self.turn_total,
            "turn_player": self.turn_player, "current_player": self.current, "last_roll": self.last_roll,
            "rng": list(self.rng.state()),
        }
