"""Yum Cha's resample, explicit mode: the history rewritten to agree with the redrawn hands.

In explicit mode the history holds every card dealt or drawn from the deck. A resample for seat
``p`` redraws what ``p`` cannot see (the core's ``resample``: the others' unknown cards), and the
history must then lead to the redrawn position, without telling anything ``p`` did not see. For
each other seat ``q`` and each round, ``p`` saw which steps gave ``q`` a hidden card (a deal or a
draw from the deck) and which cards ``q`` discarded that ``q`` was not known to hold; everything
else about those cards is hidden.

A round without a reshuffle is rewritten as follows:

1. each such discard is given one of ``q``'s hidden cards received before it, chosen at random;
2. the hidden cards ``q`` still held when the round ended go to the remaining steps, in a random
   order: for the current round the redrawn hand; for an earlier round the hand ``q`` ended it
   with (the round was scored in the open: the declarer reveals the winning hand, and every hand
   was counted for takeaway sets, so the scores ``p`` saw came from those hands).

After a reshuffle (``deck_out="reshuffle_centre"``) a step can only have given a card of the deck
it drew from (src/dimsum_core/yum_cha/redrawn.hpp). Such a round keeps each discard on the step
the state's bookkeeping gave it (the ``redrawn`` field records which deck each held card came
from) and deals the held cards of each deck, in a random order, to the steps that drew from that
deck: the redrawn hand's for the current round, the hand the round ended with for an earlier one.

The rewritten history is replayed from the deal to check that it is legal and reaches the redrawn
position; the booking (``redrawn``, and ``deck_number``, which counts the decks it keeps) is left
out of that comparison: which copy an unknown discard was is known to nobody, and the replay may
book it to another copy of the same card, and then keep other decks (both are true of the history). If no rewrite passes, None: the caller then keeps only ``p``'s view (dimsum._views).
That happens only for a copy of a copy whose bookkeeping differs from its history's.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Dict, List, Optional, Tuple

ATTEMPTS = 20
BOOKKEEPING = ("rng", "redrawn", "deck_number")  # not compared: the generator, and the booking (see above)


def _received(before: Dict[str, Any], after: Dict[str, Any], players: int) -> Tuple[int, int]:
    """(seat, card type) of the one card that entered one hand between two positions."""
    for q in range(players):
        for t, (a, b) in enumerate(zip(before["hands"][q], after["hands"][q])):
            if b == a + 1:
                return q, t
    raise AssertionError("a chance outcome that gave no card")


class _Seat:
    """What one other seat did in one round: its hidden-card steps (with the deck each drew from
    and the card), its discards of cards it was not known to hold, and which steps it still holds."""

    def __init__(self) -> None:
        self.slots: List[int] = []                 # steps that gave the seat a hidden card
        self.deck: Dict[int, int] = {}             # step -> deck number (renumbered as the state does)
        self.card: Dict[int, int] = {}             # step -> the card it gave
        self.held: List[int] = []                  # steps whose card the seat still holds unknown
        self.discards: List[Tuple[int, int]] = []  # (step, card) of its discards of unknown cards
        self.booked: Dict[int, int] = {}           # discard step -> the step its card came from
        self.received: Counter = Counter()
        self.discarded: Counter = Counter()


def _events(game: Any, start: Any, history: List[int], player: int, rng: random.Random):
    """Replays the history: per round, per other seat, a _Seat; and whether the round reshuffled."""
    cfg = game.spec
    players = game.players
    state = start.clone()
    rounds: List[Dict[int, _Seat]] = []
    reshuffled: List[bool] = []

    def round_of(index: int) -> Dict[int, _Seat]:
        while len(rounds) <= index:
            rounds.append({q: _Seat() for q in range(players) if q != player})
            reshuffled.append(False)
        return rounds[index]

    for step, action in enumerate(history):
        before = state.fields()
        actor = state.current_player
        chance = state.is_chance_node
        state.apply(action)
        after = state.fields()
        seats = round_of(before["round"])
        same_round = after["round"] == before["round"]
        if chance and action < cfg.num_types:  # a card dealt or drawn (not the starter's seat)
            if same_round:
                q, card = _received(before, after, players)
            else:  # the drawn card completed a hand, declared at once (auto_declare): the round is over
                q, card = after["last_declarer"], action
            if q != player:
                seat = seats[q]
                seat.slots.append(step)
                seat.deck[step] = before["deck_number"] if before["phase"] == 5 else 0  # 5: a deck draw
                seat.card[step] = card
                seat.held.append(step)
                seat.received[card] += 1
        elif actor >= 0 and 0 <= action - cfg.discard_action(0) < cfg.num_types:
            t = action - cfg.discard_action(0)
            deck = _booked_deck(before, actor, t)
            if actor != player and before["known"][actor][t] == 0:
                seat = seats[actor]
                seat.discards.append((step, t))
                seat.discarded[t] += 1
                choices = [s for s in seat.held if seat.deck[s] == deck and seat.card[s] == t]
                if choices:  # (always, for a history this engine made)
                    slot = rng.choice(choices)
                    seat.held.remove(slot)
                    seat.booked[step] = slot
            if same_round and sum(before["deck"]) == 0 and after["deck_number"]:
                reshuffled[before["round"]] = True
                _renumber(seats, before, actor, t, deck)
    return rounds, reshuffled


def _booked_deck(before: Dict[str, Any], q: int, t: int) -> Optional[int]:
    """The deck the state books q's discard of t to (redrawn.hpp, forget_redrawn): None for a
    copy the others saw q take, else 0 if q holds a t from deck 0, else the newest deck's."""
    if before["known"][q][t]:
        return None
    decks = [c // 64 for c in before["redrawn"][q] if c and c % 64 == t]
    return max(decks) if decks and len(decks) == before["hands"][q][t] else 0


def _renumber(seats: Dict[int, _Seat], before: Dict[str, Any], actor: int, t: int, deck: Optional[int]) -> None:
    """A reshuffle after actor's discard of t (booked to `deck`): the state dropped the decks
    nobody holds a card of and renumbered the rest 1, 2, ... (redrawn.hpp); so do the steps."""
    held = [[c // 64 for c in codes if c] for codes in before["redrawn"]]
    if deck:
        held[actor].remove(deck)
    number = {d: k + 1 for k, d in enumerate(sorted({d for decks in held for d in decks}))}
    for seat in seats.values():
        for s in seat.slots:
            if seat.deck[s]:
                seat.deck[s] = number.get(seat.deck[s], 0)


def _by_deck(held: List[Tuple[int, int]]) -> Dict[int, List[int]]:
    out: Dict[int, List[int]] = {}
    for deck, card in held:
        out.setdefault(deck, []).append(card)
    return out


def resample_history(game: Any, start: Any, history: List[int], resampled: Any, player: int,
                     seed: int) -> Optional[List[int]]:
    """A history from ``start`` (where ``history`` began) to the position of ``resampled``, equal
    to ``history`` wherever seat ``player`` saw the outcome; None if no such history was found."""
    rng = random.Random(seed)
    rounds, reshuffled = _events(game, start, history, player, rng)
    final = resampled.fields()
    current = len(rounds) - 1
    target = {k: v for k, v in final.items() if k not in BOOKKEEPING}
    for _ in range(ATTEMPTS):
        new = list(history)
        for r, seats in enumerate(rounds):
            for q, seen in seats.items():
                now = r == current and not resampled.is_terminal
                if reshuffled[r]:
                    if not _deal_by_deck(new, seen, final, q, now, rng):
                        return None
                elif not _deal_freely(new, seen, final, q, now, rng):
                    return None
        if _replays_to(start, new, target):
            return new
    return None


def _deal_freely(new: List[int], seen: _Seat, final: Dict[str, Any], q: int, now: bool,
                 rng: random.Random) -> bool:
    """A round without a reshuffle: each discard from a random earlier hidden step, then the held
    cards to the remaining steps in a random order."""
    if now:
        held = Counter({t: n - k for t, (n, k) in enumerate(zip(final["hands"][q], final["known"][q])) if n - k > 0})
    else:
        held = seen.received - seen.discarded
    free = list(seen.slots)
    for step, card in seen.discards:  # 1: each hidden discard from an earlier hidden card
        earlier = [s for s in free if s < step]
        if not earlier:
            return False  # the history is not one this engine can have made
        slot = rng.choice(earlier)
        free.remove(slot)
        new[slot] = card
    cards = list(held.elements())  # 2: what was held at the end, in a random order
    if len(cards) != len(free):
        return False
    rng.shuffle(cards)
    for slot, card in zip(free, cards):
        new[slot] = card
    return True


def _deal_by_deck(new: List[int], seen: _Seat, final: Dict[str, Any], q: int, now: bool,
                  rng: random.Random) -> bool:
    """A round with a reshuffle: the discards stay on the steps they were booked to; each deck's
    held cards go, in a random order, to the held steps that drew from that deck."""
    if len(seen.booked) != len(seen.discards):
        return False
    if now:
        tagged = [(c // 64, c % 64) for c in final["redrawn"][q] if c]
        untagged = Counter({t: n - k for t, (n, k) in enumerate(zip(final["hands"][q], final["known"][q]))})
        untagged -= Counter(t for _, t in tagged)
        held = _by_deck(tagged + [(0, t) for t in untagged.elements()])
    else:
        held = _by_deck([(seen.deck[s], seen.card[s]) for s in seen.held])
    steps = _by_deck([(seen.deck[s], s) for s in seen.held])
    if sorted((d, len(v)) for d, v in held.items()) != sorted((d, len(v)) for d, v in steps.items()):
        return False
    for deck, slots in steps.items():
        cards = list(held[deck])
        rng.shuffle(cards)
        for slot, card in zip(slots, cards):
            new[slot] = card
    for step, slot in seen.booked.items():
        new[slot] = seen.card[slot]
    return True


def _replays_to(start: Any, history: List[int], target: Dict[str, Any]) -> bool:
    state = start.clone()
    for action in history:
        if not state.is_legal(action):
            return False
        state.apply(action)
    return {k: v for k, v in state.fields().items() if k not in BOOKKEEPING} == target
