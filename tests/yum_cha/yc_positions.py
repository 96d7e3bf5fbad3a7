"""Builds exact Yum Cha positions for rule tests, through state_from_dict (both engines)."""

from collections import Counter

HAND = 10


def position(game, hands, centre=(), phase="draw", current=0, deck=None, **fields):
    """A legal position: the given hands (lists of card names), the rest filled from the deck.

    Players whose hand is not given get ten cards taken in card-type order from what is left;
    the deck is whatever remains, unless ``deck`` (a list of names) says otherwise, in which
    case the surplus goes to the centre.
    """
    spec = game.spec
    full = Counter({t.name: t.copies for t in spec.types})
    centre = Counter(centre)
    given = {p: Counter(h) for p, h in hands.items()}
    left = full - centre - sum(given.values(), Counter())
    assert all(full[k] >= v for k, v in (centre + sum(given.values(), Counter())).items()), "too many copies"
    all_hands = []
    for p in range(spec.players):
        if p in given:
            all_hands.append(given[p])
            continue
        hand = Counter()
        for t in spec.types:  # fill with whatever is left, in type order
            while sum(hand.values()) < HAND and left[t.name] > 0:
                hand[t.name] += 1
                left[t.name] -= 1
        all_hands.append(hand)
    if deck is not None:
        deck = Counter(deck)
        centre += left - deck
        left = deck
    n = spec.players
    d = {
        "round": 0, "phase": phase, "current_player": current, "starter": 0, "turn": 0,
        "hands": [dict(h) for h in all_hands], "known": [{} for _ in range(n)],
        "centre": dict(+centre), "deck": dict(+left), "last_taken": None, "last_discard": None,
        "scores": [0] * n, "declarations": [0] * n, "best_round": [0] * n, "last_round": [0] * n,
        "last_declarer": -1, "rng": [1, 2, 3, 4],
    }
    d.update(fields)
    d["hands"] = [{k: v for k, v in h.items() if v} for h in d["hands"]]
    return game.state_from_dict(d)


# The rulebook's example hand (Example of a Complete Hand): two Small sets sharing names,
# a Special set, and a pair of Jasmine tea.
RULEBOOK_COMPLETE_HAND = [
    "Sesame Ball", "Taro Puff", "Stuffed Crab Claw",
    "Sesame Ball", "Taro Puff", "Glutinous Rice Dumpling",
    "Soup Dumpling", "Seafood Dumpling", "BBQ Pork Bun",
    "Jasmine", "Jasmine",
]

# The rulebook's Complete Hand Scoring Example: (1 + 1 + 2) x 3 = 12
SCORING_EXAMPLE_HAND = [
    "Red Bean Soup", "Soy Pudding", "Egg Tart",
    "Har Gow", "Teochew Dumpling", "Pork Dumpling",
    "Tofu Skin Roll", "Rice Noodle Roll", "Lotus Leaf Wrap",
    "Dragon Well", "Dragon Well",
]

# The rulebook's Takeaway Scoring Example: a Mid set and a Special set, two takeaway cards
TAKEAWAY_EXAMPLE_HAND = [
    "Mid 1", "Mid 2", "Mid 3",
    "Soup Dumpling", "Seafood Dumpling", "BBQ Pork Bun",
    "Takeaway", "Takeaway", "Jasmine", "Sesame Ball",
]
