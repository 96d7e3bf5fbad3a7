"""The resample property, checked on one (state, seat) pair: shared by
tests/test_resample_property.py (a few hundred pairs) and benchmarks/resample_property.py (10,000
a game and deck-out option).

``state.resample(p, seed)`` must be a state ``p`` cannot tell from ``state``: the same
information-state string and key and observation, valid (``check()``), reachable (in explicit
mode its rewritten history replays from the root to it; a copy whose position did not change is
reached by the original's history), and, after a Yum Cha reshuffle, with a deck made only of the
reshuffled deck's cards that ``p`` did not draw (the ``DeckWitness``: what ``p`` knows of the deck,
followed from what ``p`` saw, independently of the engines' bookkeeping).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Dict, Optional, Tuple

import dimsum
from dimsum._contract import Ledger

BOOKKEEPING = ("rng", "redrawn", "deck_number")  # the generator; Yum Cha's booking of which copy was discarded


def position(state: Any) -> Dict[str, Any]:
    return {k: v for k, v in state.fields().items() if k not in BOOKKEEPING}


class DeckWitness:
    """Yum Cha with deck_out="reshuffle_centre": the deck of the latest reshuffle of this round
    (every seat sees it: the centre but the last discard) and each seat's own draws from it since."""

    def __init__(self, game: Any) -> None:
        self.game = game
        # the games with a deck_out="reshuffle_centre" option (read from the options, no game named)
        self.reshuffles = game.options.get("deck_out") == "reshuffle_centre"
        self.deck: Optional[Counter] = None
        self.drawn: Dict[int, Counter] = {}

    def step(self, state: Any, action: int) -> None:
        """Applies ``action`` to ``state``, following the deck as the seats see it."""
        cfg = self.game.spec
        before = state.fields()
        actor, chance = state.current_player, state.is_chance_node
        state.apply(action)
        after = state.fields()
        if after["round"] != before["round"]:
            self.deck, self.drawn = None, {}
            return
        discard = not chance and 0 <= action - cfg.discard_action(0) < cfg.num_types
        if self.reshuffles and discard and sum(before["deck"]) == 0:  # YC-9: the turn ends in a reshuffle
            self.deck = Counter({t: n for t, n in enumerate(after["deck"]) if n})  # a reshuffle
            self.drawn = {}
        elif self.deck is not None:
            drawer = before["drawer"] if chance and before["phase"] == 5 else actor if action == 0 and not chance else -1
            if drawer >= 0 and after["phase"] != 5:  # the card came (sampled: at once; explicit: the chance step)
                gained = Counter({t: b - a for t, (a, b) in enumerate(zip(before["hands"][drawer], after["hands"][drawer]))
                                  if b > a})
                self.drawn.setdefault(drawer, Counter()).update(gained)

    def allows(self, deck: list, p: int) -> bool:
        """Whether ``deck`` can be the deck for all ``p`` knows: the reshuffled deck's cards less
        those ``p`` drew from it."""
        if self.deck is None:
            return True
        left = self.deck - self.drawn.get(p, Counter())
        return all(n <= left[t] for t, n in enumerate(deck))


def random_state(game: Any, rng: random.Random, max_steps: int, prefer_deck: float = 0.0) -> Tuple[Any, DeckWitness]:
    """A state after up to ``max_steps`` random steps; with ``prefer_deck`` (Yum Cha) the deck is
    drawn from with that probability when allowed, so that decks run out and reshuffle."""
    state = game.new_state(rng.randrange(2**32))
    witness = DeckWitness(game)
    for _ in range(rng.randrange(1, max_steps)):
        if state.is_terminal:
            break
        actions = state.legal_actions()
        if prefer_deck and not state.is_chance_node and 0 in actions and rng.random() < prefer_deck:
            action = 0
        else:
            action = rng.choice(actions)
        if witness.reshuffles:
            witness.step(state, action)
        else:
            state.apply(action)
    return state, witness


def check_pair(game: Any, state: Any, p: int, seed: int, witness: DeckWitness,
               rng: random.Random) -> Tuple[bool, bool]:
    """Asserts the property for ``state.resample(p, seed)``. Returns whether the resample changed
    the position (hidden cards redrawn) and whether the deck witness applied (after a reshuffle)."""
    copy = state.resample(p, seed)
    copy.check()
    # the information contract's cheap channels (observation, its string, information state and
    # key; dimsum._contract), and the declaration: a perfect game's resample keeps the position
    broken = Ledger(dimsum.game_info(game.name).information, costly_pairs=0).check_pair(state, p, copy)
    assert broken is None, broken
    changed = position(copy) != position(state)
    if changed:  # else the original's own history reaches it
        assert dimsum.game_info(game.name).information == "imperfect", \
            "a game that declares perfect information hides nothing: its resample only reseeds"
        if game.explicit_chance:  # the history holds every outcome: it must lead to the copy
            root = copy._history_root()
            assert isinstance(root, int), f"no history rewrite reaches the copy (root {type(root).__name__})"
            replay = game.new_state(root)
            for action in copy.history:
                replay.apply(action)
            assert position(replay) == position(copy)
    witnessed = witness.reshuffles and witness.deck is not None and not state.is_terminal
    if witnessed:
        assert witness.allows(copy.fields()["deck"], p), "a deck the seat knows to be impossible"
    for _ in range(5):  # the copy plays on as a game of its own: p's view follows
        if copy.is_terminal:
            break
        copy.apply(rng.choice(copy.legal_actions()))
        copy.information_state_string(p)
    return changed, witnessed
