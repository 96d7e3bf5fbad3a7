"""Yum Cha's resample, explicit mode: the history rewritten to agree with the redrawn hands.

In explicit mode the history holds every card dealt or drawn from the deck. A resample for seat
``p`` redraws what ``p`` cannot see (the core's ``resample``: the others' unknown cards), and the
history must then lead to the redrawn position, without telling anything ``p`` did not see. For
each other seat ``q`` and each round, ``p`` saw which steps gave ``q`` a hidden card (a deal or a
draw from the deck) and which cards ``q`` discarded that ``q`` was not known to hold; everything
else about those cards is hidden. So, round by round:

1. each such discard is given one of ``q``'s hidden cards received before it, chosen at random;
2. the hidden cards ``q`` still held when the round ended go to the remaining steps, in a random
   order: for the current round the redrawn hand; for an earlier round the hand ``q`` ended it
   with (the round was scored in the open: the declarer reveals the winning hand, and every hand
   was counted for takeaway sets, so the scores ``p`` saw came from those hands).

Which step gave which card is redrawn in every round; only the multisets scored in the open are
kept. The rewritten history is replayed from the deal to check that it is legal and reaches the
redrawn position (with ``deck_out="reshuffle_centre"`` a card can come back to the deck in mid
round, so a random choice can fail that check; a few are tried). If none passes, None: the
caller then keeps only ``p``'s view (dimsum._views).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Dict, List, Optional, Tuple

ATTEMPTS = 20


def _received(before: Dict[str, Any], after: Dict[str, Any], players: int) -> Tuple[int, int]:
    """(seat, card type) of the one card that entered one hand between two positions."""
    for q in range(players):
        for t, (a, b) in enumerate(zip(before["hands"][q], after["hands"][q])):
            if b == a + 1:
                return q, t
    raise AssertionError("a chance outcome that gave no card")


def _events(game: Any, start: Any, history: List[int], player: int):
    """Replays the history: per round, per other seat, its hidden-card steps, its discards of
    cards it was not known to hold, and the multiset of hidden cards it ended the round with."""
    cfg = game.spec
    players = game.players
    state = start.clone()
    rounds: List[Dict[int, Dict[str, Any]]] = []

    def round_of(index: int) -> Dict[int, Dict[str, Any]]:
        while len(rounds) <= index:
            rounds.append({q: {"slots": [], "discards": [], "received": Counter(), "discarded": Counter()}
                           for q in range(players) if q != player})
        return rounds[index]

    for step, action in enumerate(history):
        before = state.fields()
        actor = state.current_player
        chance = state.is_chance_node
        state.apply(action)
        seats = round_of(before["round"])
        if chance and action < cfg.num_types:  # a card dealt or drawn (not the starter's seat)
            after = state.fields()
            if after["round"] == before["round"]:
                q, card = _received(before, after, players)
            else:  # the drawn card completed a hand, declared at once (auto_declare): the round is over
                q, card = after["last_declarer"], action
            if q != player:
                seats[q]["slots"].append(step)
                seats[q]["received"][card] += 1
        elif actor != player and actor >= 0:
            t = action - cfg.discard_action(0)
            if 0 <= t < cfg.num_types and before["known"][actor][t] == 0:
                seats[actor]["discards"].append((step, t))
                seats[actor]["discarded"][t] += 1
    return rounds


def resample_history(game: Any, start: Any, history: List[int], resampled: Any, player: int,
                     seed: int) -> Optional[List[int]]:
    """A history from ``start`` (where ``history`` began) to the position of ``resampled``, equal
    to ``history`` wherever seat ``player`` saw the outcome; None if no such history was found."""
    cfg = game.spec
    rounds = _events(game, start, history, player)
    final = resampled.fields()
    current = len(rounds) - 1
    rng = random.Random(seed)
    target = {k: v for k, v in final.items() if k != "rng"}
    for _ in range(ATTEMPTS):
        new = list(history)
        for r, seats in enumerate(rounds):
            for q, seen in seats.items():
                if r == current and not resampled.is_terminal:
                    held = Counter({t: n - k for t, (n, k) in enumerate(zip(final["hands"][q], final["known"][q]))
                                    if n - k > 0})
                else:
                    held = seen["received"] - seen["discarded"]
                free = list(seen["slots"])
                for step, card in seen["discards"]:  # 1: each hidden discard from an earlier hidden card
                    earlier = [s for s in free if s < step]
                    if not earlier:
                        return None  # the history is not one this engine can have made
                    slot = rng.choice(earlier)
                    free.remove(slot)
                    new[slot] = card
                cards = list(held.elements())  # 2: what was held at the end, in a random order
                if len(cards) != len(free):
                    return None
                rng.shuffle(cards)
                for slot, card in zip(free, cards):
                    new[slot] = card
        if _replays_to(start, new, target):
            return new
    return None


def _replays_to(start: Any, history: List[int], target: Dict[str, Any]) -> bool:
    state = start.clone()
    for action in history:
        if not state.is_legal(action):
            return False
        state.apply(action)
    return {k: v for k, v in state.fields().items() if k != "rng"} == target
