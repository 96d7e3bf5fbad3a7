"""Yum Cha, the reference engine: the rulebook and docs/rules/yum_cha.md, written for reading.

A hand, the centre and the deck are lists of counts indexed by card type (see
dimsum.games.yum_cha). Randomness, in the order it is consumed:

1. new game: the round-1 starter, ``rng.bounded(players)`` (unless ``first_player`` is set);
2. every deal (each round): seat 0's ten cards, then seat 1's ..., each card
   ``rng.draw_index(deck)``;
3. every draw from the deck: ``rng.draw_index(deck)``.

The deck is a multiset drawn from uniformly, not a shuffled list: the same distribution,
and it makes resampling natural.

With ``chance="explicit"`` each of these events is a chance node instead (phase
``starter_draw``, ``deal`` or ``deck_draw``, ``current_player`` CHANCE): its outcomes are the
seats ("seat N starts") or the card types ("draw <card>") with their weights, and the rules go on
from the chosen outcome exactly where the sampled draw would have gone on.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from .._common import CHANCE, TERMINAL, check_int, check_seed
from ..games import yum_cha as spec
from ..games.yum_cha.ending import winners
from ..games.yum_cha.state_dict import PHASES
from ._base import ReferenceGame, ReferenceState
from .rng import Rng

DRAW, DISCARD, OVER = "draw", "discard", "over"
# explicit chance: the phases of a pending random event
STARTER_DRAW, DEAL, DECK_DRAW = "starter_draw", "deal", "deck_draw"
CHANCE_PHASES = (STARTER_DRAW, DEAL, DECK_DRAW)


# ---------------------------------------------------------------------------------------------
# Hands: what is a complete hand, what do takeaway cards score

def _tier_counts(config: spec.Config, hand: List[int]) -> List[List[int]]:
    """The counts of each tier's dim sum in ``hand``, one list per tier."""
    per_tier: List[List[int]] = [[] for _ in config.tier_names]
    for t in config.types:
        if t.kind == spec.KIND_DIM_SUM:
            per_tier[t.tier].append(hand[t.index])
    return per_tier


def max_distinct_triples(counts: List[int]) -> int:
    """How many disjoint sets of three *different* dim sum these counts can make.

    g sets are possible exactly when every name can give at most one card to each set and
    there are enough cards: sum(min(c, g)) >= 3g.
    """
    g = sum(counts) // 3
    while g > 0 and sum(min(c, g) for c in counts) < 3 * g:
        g -= 1
    return g


def is_complete_hand(config: spec.Config, hand: List[int]) -> bool:
    """YC-6: exactly 11 cards, three sets of three different dim sum of one tier, one tea pair."""
    if sum(hand) != spec.HAND_SIZE + 1:
        return False
    tea_counts = [hand[t.index] for t in config.types if t.kind == spec.KIND_TEA]
    takeaways = sum(hand[t.index] for t in config.types if t.kind == spec.KIND_TAKEAWAY)
    if takeaways or sorted(c for c in tea_counts if c) != [2]:
        return False
    # every dim sum card must sit in a set: each tier's cards split into sets of three names
    return all(sum(c) % 3 == 0 and max_distinct_triples(c) == sum(c) // 3
               for c in _tier_counts(config, hand))


def declarer_score(config: spec.Config, hand: List[int]) -> int:
    """YC-7: (sum of set points) x (the tea pair's multiplier)."""
    set_points = sum(config.tier_points[tier] * (sum(c) // 3)
                     for tier, c in enumerate(_tier_counts(config, hand)))
    multiplier = next(t.value for t in config.types if t.kind == spec.KIND_TEA and hand[t.index] == 2)
    return set_points * multiplier


def takeaway_score(config: spec.Config, hand: List[int]) -> int:
    """YC-8: each takeaway card claims one separate set, worth its tier's points, no multiplier.

    The best assignment: sets of the highest-scoring tiers first (tiers are independent, and
    each set costs one takeaway card, so greedy by points is optimal).
    """
    takeaways = sum(hand[t.index] for t in config.types if t.kind == spec.KIND_TAKEAWAY)
    available = [(config.tier_points[tier], max_distinct_triples(c))
                 for tier, c in enumerate(_tier_counts(config, hand))]
    score = 0
    for points, sets in sorted(available, key=lambda ps: -ps[0]):  # stable: tier order on ties
        used = min(takeaways, sets)
        score += used * points
        takeaways -= used
    return score


# ---------------------------------------------------------------------------------------------

class Game(ReferenceGame):
    name = spec.NAME

    def __init__(self, **options: Any) -> None:
        super().__init__(spec.make_config(**options))

    def new_state(self, seed: int = 0) -> "State":
        state = State(self, Rng(check_seed(seed)))
        cfg = self.config
        first = cfg.options["first_player"]
        if first is None and cfg.explicit_chance:
            state._start_round()                 # the deck gathered; the deal waits for the starter
            state.phase = STARTER_DRAW
            return state
        state.starter = state.rng.bounded(cfg.players) if first is None else first
        state._start_round()
        return state

    def _blank_state(self, rng: Rng) -> "State":
        return State(self, rng)


class State(ReferenceState):
    def __init__(self, game: Game, rng: Rng) -> None:
        super().__init__(game)
        cfg = game.config
        n, T = cfg.players, cfg.num_types
        self.cfg = cfg
        self.rng = rng
        self.round = 0
        self.phase = DRAW
        self.current = 0
        self.starter = 0
        self.turn = 0
        self.hands = [[0] * T for _ in range(n)]
        self.known = [[0] * T for _ in range(n)]     # YC-14: cards others saw p take from the centre
        self.centre = [0] * T
        self.deck = cfg.full_deck
        self.last_taken = -1                         # type taken from the centre this turn
        self.last_discard = -1
        self.scores = [0] * n
        self.declarations = [0] * n
        self.best_round = [0] * n
        self.last_round = [0] * n
        self.last_declarer = -1
        self.drawer = -1                             # explicit chance: whose deck draw is pending
        # deck_out="reshuffle_centre": the deck drawn from (0 the dealt one, then one per
        # reshuffle, renumbered), and per seat the (deck, card) of each card it drew from a
        # reshuffled deck and holds unknown to the others (src/dimsum_core/yum_cha/redrawn.hpp)
        self.deck_number = 0
        self.redrawn: List[List[Tuple[int, int]]] = [[] for _ in range(n)]

    # -- rounds ---------------------------------------------------------------------------------
    def _start_round(self) -> None:
        """YC-12: gather every card, reshuffle, deal ten to each player; the starter draws first."""
        cfg = self.cfg
        self.deck = cfg.full_deck
        self.centre = [0] * cfg.num_types
        self.hands = [[0] * cfg.num_types for _ in range(cfg.players)]
        self.known = [[0] * cfg.num_types for _ in range(cfg.players)]
        self.deck_number, self.redrawn = 0, [[] for _ in range(cfg.players)]
        self.turn = 0
        self.last_taken = self.last_discard = -1
        if cfg.explicit_chance:
            self.phase, self.current = DEAL, CHANCE  # one chance node a card
            return
        for p in range(cfg.players):
            for _ in range(spec.HAND_SIZE):
                t = self.rng.draw_index(self.deck)
                self.deck[t] -= 1
                self.hands[p][t] += 1
        self.phase, self.current = DRAW, self.starter

    def _deal_receiver(self) -> int:
        """Who gets the next card of a deal: seat 0's ten come first, then seat 1's, ..."""
        return next((p for p, hand in enumerate(self.hands) if sum(hand) < spec.HAND_SIZE), -1)

    def _end_round(self, declarer: int) -> None:
        """Score the round (declarer = -1: a washout), then deal the next or end the game."""
        cfg = self.cfg
        for p in range(cfg.players):
            if p == declarer:
                points = declarer_score(cfg, self.hands[p])
                self.declarations[p] += 1
            else:
                points = takeaway_score(cfg, self.hands[p])
            self.last_round[p] = points
            self.scores[p] += points
            self.best_round[p] = max(self.best_round[p], points)
        self.last_declarer = declarer
        self.round += 1
        if self.round == cfg.options["rounds"]:
            self.phase, self.current, self.last_taken = OVER, TERMINAL, -1
            return
        # YC-11: the winner starts the next round; after a washout, the starter's left neighbour
        self.starter = declarer if declarer >= 0 else (self.starter + 1) % cfg.players
        self._start_round()

    def _end_turn(self) -> None:
        """After a discard: deck-out (YC-9) and the turn cap (YC-10), then the next player."""
        cfg = self.cfg
        self.turn += 1
        self.last_taken = -1
        if sum(self.deck) == 0:
            policy = cfg.options["deck_out"]
            if policy == "washout":
                return self._end_round(-1)
            if policy == "reshuffle_centre":
                # everything in the centre but the card just discarded becomes the new deck
                self._start_reshuffled_deck()
                for t, c in enumerate(self.centre):
                    keep = 1 if t == self.last_discard else 0
                    self.deck[t] += c - keep
                    self.centre[t] = keep
        if self.turn >= cfg.options["max_turns_per_round"]:
            return self._end_round(-1)
        self.current = (self.current + 1) % cfg.players
        self.phase = DRAW

    # -- where unknown cards came from (deck_out="reshuffle_centre"; redrawn.hpp says why) ------
    def _note_deck_draw(self, p: int, t: int) -> None:
        """After a reshuffle a card drawn from the deck is a card of the current deck."""
        if self.deck_number:
            self.redrawn[p].append((self.deck_number, t))

    def _forget_redrawn(self, p: int, t: int) -> None:
        """p discards a t: a copy the others saw p take, else an unknown one: from deck 0 if p
        holds one, else the one from the newest deck."""
        if not self.deck_number or self.known[p][t]:
            return
        tagged = [entry for entry in self.redrawn[p] if entry[1] == t]
        if len(tagged) == self.hands[p][t]:
            self.redrawn[p].remove(max(tagged))

    def _start_reshuffled_deck(self) -> None:
        """Drop the decks nobody holds a card of, renumber the rest 1, 2, ..., then the new one."""
        live = sorted({deck for entries in self.redrawn for deck, _ in entries})
        number = {deck: k + 1 for k, deck in enumerate(live)}
        self.redrawn = [[(number[deck], t) for deck, t in entries] for entries in self.redrawn]
        self.deck_number = len(live) + 1

    # -- the API --------------------------------------------------------------------------------
    def _current_player(self) -> int:
        return self.current

    def _chance_outcomes(self) -> List[Tuple[int, int]]:
        cfg = self.cfg
        if self.phase == STARTER_DRAW:                       # YC-11: each seat alike
            return [(cfg.starter_outcome(p), 1) for p in range(cfg.players)]
        if self.phase in (DEAL, DECK_DRAW):                  # one card of the deck: its copies
            return [(t, n) for t, n in enumerate(self.deck) if n]
        return []

    def _legal_actions(self) -> List[int]:
        cfg = self.cfg
        if self.phase in CHANCE_PHASES:
            return [o for o, _ in self._chance_outcomes()]
        hand = self.hands[self.current]
        if self.phase == DRAW:
            # YC-1: the deck, or any card of the centre
            actions = [cfg.draw_action] if sum(self.deck) else []
            return actions + [cfg.take_action(t) for t in range(cfg.num_types) if self.centre[t]]
        held = [t for t in range(cfg.num_types) if hand[t]]
        if cfg.options["forbid_immediate_return"] and self.last_taken in held and len(held) > 1:
            held.remove(self.last_taken)                     # YC-3
        actions = [cfg.discard_action(t) for t in held]
        if is_complete_hand(cfg, hand):
            actions.append(cfg.declare_action)               # YC-4, YC-5
        return actions

    def _apply(self, action: int) -> None:
        cfg = self.cfg
        p = self.current
        if self.phase in CHANCE_PHASES:
            self._apply_chance(action)
        elif self.phase == DRAW:
            if action == cfg.draw_action:
                if cfg.explicit_chance:                      # chance gives the card
                    self.phase, self.current, self.drawer = DECK_DRAW, CHANCE, p
                    return
                t = self.rng.draw_index(self.deck)
                self.deck[t] -= 1
                self._note_deck_draw(p, t)
            else:
                t = action - cfg.take_action(0)
                self.centre[t] -= 1
                self.known[p][t] += 1
                self.last_taken = t
            self._finish_draw(p, t)
        elif action == cfg.declare_action:
            self._end_round(p)
        else:
            t = action - cfg.discard_action(0)
            hand = self.hands[p]
            self._forget_redrawn(p, t)
            hand[t] -= 1
            self.known[p][t] = max(0, self.known[p][t] - 1)   # the others can no longer be sure
            self.centre[t] += 1
            self.last_discard = t
            self._end_turn()

    def _finish_draw(self, p: int, t: int) -> None:
        """p holds the drawn card: the discard phase, unless auto_declare ends the round (YC-5)."""
        hand = self.hands[p]
        hand[t] += 1
        self.phase = DISCARD
        if self.cfg.options["auto_declare"] and is_complete_hand(self.cfg, hand):
            self._end_round(p)

    def _apply_chance(self, outcome: int) -> None:
        """The pending event's outcome; then the rules go on as after the sampled draw."""
        if self.phase == STARTER_DRAW:
            self.starter = outcome - self.cfg.starter_outcome(0)
            self.phase = DEAL
            return
        self.deck[outcome] -= 1
        if self.phase == DEAL:
            self.hands[self._deal_receiver()][outcome] += 1
            if self._deal_receiver() < 0:                    # the deal is over: the starter draws
                self.phase, self.current = DRAW, self.starter
            return
        p, self.drawer = self.drawer, -1                     # DECK_DRAW
        self.current = p
        self._note_deck_draw(p, outcome)
        self._finish_draw(p, outcome)

    def _returns(self) -> Tuple[float, ...]:
        cfg = self.cfg
        if cfg.options["reward"] == "score":
            return tuple(float(s) for s in self.scores)
        if self.phase != OVER:
            return tuple(0.0 for _ in self.scores)
        won = winners(cfg, self.fields())  # YC-13, as state.outcome reads it (games/yum_cha/ending.py)
        return tuple(1.0 / len(won) if p in won else 0.0 for p in range(cfg.players))

    def observation(self, player: int) -> List[float]:
        cfg = self.cfg
        n, T = cfg.players, cfg.num_types
        player = check_int(player, "player", 0, n - 1)
        seats = [(player + k) % n for k in range(n)]        # my seat first
        obs: List[float] = []
        obs += self.hands[player]
        obs += self.centre
        for other in seats[1:]:
            obs += self.known[other]
        obs += [sum(self.hands[s]) for s in seats]
        obs.append(sum(self.deck))
        obs += [self.scores[s] for s in seats]
        obs += [1 if r == self.round else 0 for r in range(cfg.options["rounds"])]
        obs += [self.phase == DRAW, self.phase == DISCARD]
        obs += [1 if s == self.current else 0 for s in seats]
        obs += [1 if t == self.last_taken else 0 for t in range(T)]
        obs.append(self.turn)
        return [float(v) for v in obs]

    def resample(self, player: int, seed: int) -> "State":
        """A state consistent with all ``player`` has seen: the unseen cards dealt anew.

        ``player`` knows their own hand, the centre, every hand size, and the cards each other
        player took from the centre and still holds. Without a reshuffle everything else (the
        deck and the rest of the other hands) is one pool, dealt anew: seat by seat, then the
        rest is the deck. After a reshuffle each deck's cards are dealt only to the places they
        went to (the cards drawn from it, and the current deck): deck 0's first, seat by seat,
        then each seat's redrawn cards, in their order (redrawn.hpp). Once the game is over
        the hands stay: the last round scored them in the open.
        """
        cfg = self.cfg
        player = check_int(player, "player", 0, cfg.players - 1)
        new = self.clone()
        new.rng = Rng(check_seed(seed))
        if self.phase == OVER:  # the last round's hands were scored in the open (YC-7, YC-8)
            return new
        pools = [[0] * cfg.num_types for _ in range(self.deck_number + 1)]
        pools[self.deck_number] = list(self.deck)
        others = [p for p in range(cfg.players) if p != player]
        untagged = {}
        for p in others:
            unknown = [h - k for h, k in zip(self.hands[p], self.known[p])]
            for deck, t in self.redrawn[p]:
                unknown[t] -= 1
                pools[deck][t] += 1
            untagged[p] = sum(unknown)
            pools[0] = [a + b for a, b in zip(pools[0], unknown)]

        def draw(deck: int) -> int:
            t = new.rng.draw_index(pools[deck])
            pools[deck][t] -= 1
            return t

        for p in others:
            hand = list(self.known[p])
            for _ in range(untagged[p]):
                hand[draw(0)] += 1
            new.hands[p] = hand
        for p in others:
            entries = []
            for deck, _ in sorted(self.redrawn[p], reverse=True):
                t = draw(deck)
                new.hands[p][t] += 1
                entries.append((deck, t))
            new.redrawn[p] = entries
        new.deck = pools[self.deck_number]
        return new

    def _set_field(self, name: str, value: Any) -> None:
        if name == "phase":
            self.phase = PHASES[value]          # the phase by name
        elif name == "current_player":
            self.current = value                # current_player is the API's property
        elif name == "redrawn":
            self.redrawn = [[(c // 64, c % 64) for c in codes if c] for codes in value]
        else:
            super()._set_field(name, value)

    def fields(self) -> Dict[str, Any]:
        """The core's state fields (src/dimsum_core/yum_cha/schema.cpp), by name."""
        return {
            "round": self.round, "phase": PHASES.index(self.phase), "current_player": self.current,
            "starter": self.starter, "turn": self.turn, "hands": [list(h) for h in self.hands],
            "known": [list(k) for k in self.known], "centre": list(self.centre), "deck": list(self.deck),
            "last_taken": self.last_taken, "last_discard": self.last_discard, "scores": list(self.scores),
            "declarations": list(self.declarations), "best_round": list(self.best_round),
            "last_round": list(self.last_round), "last_declarer": self.last_declarer,
            "drawer": self.drawer, "deck_number": self.deck_number,
            "redrawn": [sorted((64 * d + t for d, t in entries), reverse=True) + [0] * (spec.HAND_SIZE + 1 - len(entries))
                        for entries in self.redrawn],
            "rng": list(self.rng.state()),
        }
