"""Kuhn poker, the reference engine: docs/rules/kuhn_poker.md (OpenSpiel's kuhn_poker), written
for reading.

Each of n players antes 1 chip and is dealt one card of a deck of n + 1 (0 lowest, n highest).
Seat 0 acts first, then each seat in order: pass or bet 1 chip. Nobody bets: after n passes the
highest card takes the antes. After the first bet every other seat acts once more, in order: bet
to call, pass to fold. The highest card among the bettor and the callers takes the pot.

Randomness, in the order it is consumed: the deal only, at ``new_state``: seat 0's card first,
each ``rng.bounded(len(left))`` indexing the cards left in ascending order. Nothing is drawn after
the deal. With ``chance="explicit"`` each card of the deal is a chance node instead: the cards
left, ascending, weight 1 each.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from .._common import CHANCE, TERMINAL, check_int, check_seed
from ..games import kuhn_poker as spec
from ._base import ReferenceGame, ReferenceState
from .rng import Rng

NO_CARD = -1


class Game(ReferenceGame):
    name = spec.NAME

    def __init__(self, **options: Any) -> None:
        super().__init__(spec.make_config(**options))

    def new_state(self, seed: int = 0) -> "State":
        state = State(self, Rng(check_seed(seed)))
        if self.config.explicit_chance:
            state.current = CHANCE                       # KP-2: each card a chance node
        else:
            for _ in range(self.config.players):         # KP-2: seat 0 first, uniform among those left
                left = state.cards_left()
                state.deal(left[state.rng.bounded(len(left))])
        return state

    def _blank_state(self, rng: Rng) -> "State":
        return State(self, rng)                          # the shared _state_from_fields fills it


class State(ReferenceState):
    FIELD_ATTRIBUTES = {"current_player": "current"}  # the rules read self.current

    def __init__(self, game: Game, rng: Rng) -> None:
        super().__init__(game)
        self.cfg = game.config
        self.rng = rng
        self.cards = [NO_CARD] * self.cfg.players        # KP-1: every seat has anted; no card yet
        self.decisions = 0                               # betting decisions made
        self.bets = 0                                    # bit i: decision i was a bet
        self.current = CHANCE                            # the seat to act, CHANCE (dealing), TERMINAL

    # -- the deal (KP-2) ------------------------------------------------------------------------
    def cards_left(self) -> List[int]:
        return [k for k in range(self.cfg.num_cards) if k not in self.cards]

    def deal(self, card: int) -> None:
        seat = self.cards.index(NO_CARD)                 # seat 0, 1, ...
        self.cards[seat] = card
        if seat == self.cfg.players - 1:
            self.current = 0                             # KP-3: seat 0 acts first

    # -- the betting (KP-3 to KP-5) -------------------------------------------------------------
    def bet(self, decision: int) -> bool:
        return bool(self.bets >> decision & 1)

    def first_bettor(self) -> int:
        """The first bet is in round one (a round of passes ends the game): decision i is seat i's."""
        return next((i for i in range(self.decisions) if self.bet(i)), -1)

    def did_bet(self, seat: int) -> bool:
        """Bet first, or called: a seat after the first bettor answered in round one (decision
        ``seat``), a seat before it in round two (decision ``players + seat``)."""
        fb = self.first_bettor()
        if fb < 0:
            return False
        return self.bet(seat) or (seat < fb and self.bet(self.cfg.players + seat))

    def betting_over(self) -> bool:
        n, fb = self.cfg.players, self.first_bettor()
        return self.decisions == (n if fb < 0 else n + fb)

    def _apply(self, action: int) -> None:
        if self.current == CHANCE:
            self.deal(action)
            return
        if action == spec.BET:
            self.bets |= 1 << self.decisions
        self.decisions += 1
        self.current = TERMINAL if self.betting_over() else self.decisions % self.cfg.players

    # -- the showdown (KP-6) --------------------------------------------------------------------
    def winner(self) -> int:
        n = self.cfg.players
        still_in = [p for p in range(n) if self.did_bet(p)] if self.bets else list(range(n))
        return max(still_in, key=lambda p: self.cards[p])

    def _returns(self) -> Tuple[float, ...]:
        """The winner takes the pot (its own chips back and the others'); the others lose theirs."""
        n = self.cfg.players
        if self.current != TERMINAL:
            return tuple(0.0 for _ in range(n))
        put_in = [1 + self.did_bet(p) for p in range(n)]
        won, pot = self.winner(), sum(put_in)
        return tuple(float(pot - put_in[p] if p == won else -put_in[p]) for p in range(n))

    # -- the API --------------------------------------------------------------------------------
    def _current_player(self) -> int:
        return self.current

    def _chance_outcomes(self) -> List[Tuple[int, int]]:
        return [(k, 1) for k in self.cards_left()]

    def _legal_actions(self) -> List[int]:
        if self.current == CHANCE:
            return self.cards_left()
        return [spec.PASS, spec.BET]

    def observation(self, player: int) -> List[float]:
        """OpenSpiel's observation tensor: the observing seat, its card, every seat's chips in."""
        n = self.cfg.players
        player = check_int(player, "player", 0, n - 1)
        obs = [1 if p == player else 0 for p in range(n)]
        obs += [1 if k == self.cards[player] else 0 for k in range(self.cfg.num_cards)]
        obs += [1 + self.did_bet(p) for p in range(n)]
        return [float(v) for v in obs]

    def resample(self, player: int, seed: int) -> "State":
        """``player``'s card and the betting stay; every other seat dealt a card gets one drawn anew,
        seat by seat, from the cards ``player`` does not hold. Once over, the cards stay (who won
        the showdown is public, in the returns)."""
        player = check_int(player, "player", 0, self.cfg.players - 1)
        new = self.clone(seed)
        if self.current == TERMINAL:
            return new
        pool = [k for k in range(self.cfg.num_cards) if k != self.cards[player]]
        for q in range(self.cfg.players):
            if q != player and self.cards[q] != NO_CARD:
                new.cards[q] = pool.pop(new.rng.bounded(len(pool)))
        return new

    def fields(self) -> Dict[str, Any]:
        """The core's state fields (src/dimsum_core/kuhn_poker/schema.cpp), by name."""
        return {"cards": list(self.cards), "decisions": self.decisions, "bets": self.bets,
                "current_player": self.current, "rng": list(self.rng.state())}
