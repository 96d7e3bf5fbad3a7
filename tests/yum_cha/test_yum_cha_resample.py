"""Yum Cha's resample after a reshuffle (YC-9, deck_out="reshuffle_centre"; issue 20), on both
engines: the state books each card a seat draws from a reshuffled deck to that deck (the
``redrawn`` field, src/dimsum_core/yum_cha/redrawn.hpp), and resample deals each deck's cards
only among the places they went to. The property on random states: tests/test_resample_property.py."""

import random

import pytest

import dimsum
import dimsum.reference
from yc_positions import position

RESHUFFLE = dict(players=2, deck_out="reshuffle_centre", first_player=0)
NINE = ["Har Gow"] * 3 + ["Taro Puff"] * 3 + ["Soy Pudding"] * 3


def _gained(before, after, p):
    return [t for t, (a, b) in enumerate(zip(before["hands"][p], after["hands"][p])) if b > a]


def test_a_draw_after_a_reshuffle_is_booked_to_the_new_deck_and_only_then(engine):
    game = engine("yum_cha", **RESHUFFLE)
    spec = game.spec
    state = position(game, {0: ["Har Gow"] * 2 + NINE[3:] + ["Egg Tart"] * 2}, deck=["Dessert 4"])
    state.apply(0)  # seat 0 draws the deck's last card: deck 0's, nothing booked
    assert state.fields()["redrawn"][0][0] == 0 and state.fields()["deck_number"] == 0
    state.apply(spec.discard_action(spec.type_names.index("Har Gow")))
    # the deck ran out: the centre but the Har Gow just discarded is deck 1, known to all
    fields = state.fields()
    assert fields["deck_number"] == 1 and sum(fields["deck"]) > 0 and fields["centre"][spec.type_names.index("Har Gow")] == 1
    before = state.fields()
    state.apply(0)  # seat 1 draws from deck 1
    after = state.fields()
    (card,) = _gained(before, after, 1)
    assert after["redrawn"][1][0] == 64 * 1 + card
    assert state.to_dict()["redrawn"][1] == [[spec.type_names[card], 1]]


@pytest.mark.parametrize("dealt_copies", [1, 0])
def test_a_discard_of_an_unknown_card_is_booked_to_deck_0_first(engine, dealt_copies):
    """Which copy was discarded nobody knows; the state books one that is true of the history:
    a dealt copy (deck 0) if the seat holds one, else the one from the newest deck."""
    game = engine("yum_cha", **RESHUFFLE)
    spec = game.spec
    hand = NINE + ["Egg Tart"] * (1 + dealt_copies) + ["Mid 1"] * (1 - dealt_copies)
    state = position(game, {1: hand}, phase="discard", current=1, deck=["Jasmine"], deck_number=2,
                     redrawn=[[], [["Egg Tart", 2]]])
    state.apply(spec.discard_action(spec.type_names.index("Egg Tart")))
    assert state.to_dict()["redrawn"][1] == ([["Egg Tart", 2]] if dealt_copies else [])


def test_a_reshuffle_drops_the_decks_nobody_holds_and_renumbers_the_rest(engine):
    game = engine("yum_cha", **RESHUFFLE)
    spec = game.spec
    hand1 = ["Har Gow", "Egg Tart"] + NINE[3:] + ["Sesame Ball"] * 2
    state = position(game, {0: ["Jasmine"] * 2 + ["Dragon Well"] * 3 + ["Mid 1"] * 3 + ["Mid 2"] * 3, 1: hand1},
                     phase="discard", deck=[], deck_number=3, redrawn=[[], [["Har Gow", 3], ["Egg Tart", 1]]])
    state.apply(spec.discard_action(spec.type_names.index("Mid 1")))
    fields = state.fields()
    assert fields["deck_number"] == 3  # decks 1 and 3 held: now 1 and 2; the new deck is 3
    assert state.to_dict()["redrawn"][1] == [["Har Gow", 2], ["Egg Tart", 1]]


def test_resample_keeps_each_booked_card_in_its_deck(engine):
    """Seat 1 holds one card of deck 2 and nine of deck 0; the deck is deck 2's rest. A resample
    for seat 0 deals seat 1 one card of {its deck 2 card, the deck} and nine of deck 0's."""
    game = engine("yum_cha", **RESHUFFLE)
    state = position(game, {1: NINE + ["Egg Tart"]}, deck=["Jasmine", "Jasmine"], deck_number=2,
                     redrawn=[[], [["Egg Tart", 2]]])
    core = dimsum.make("yum_cha", **RESHUFFLE)
    seen = set()
    for seed in range(40):
        d = state.resample(0, seed).to_dict()
        core.state_from_dict(d)  # valid: the core checks every field and the whole position
        ((card, deck),) = d["redrawn"][1]
        assert deck == 2 and card in ("Egg Tart", "Jasmine")
        assert d["deck"] == ({"Jasmine": 2} if card == "Egg Tart" else {"Jasmine": 1, "Egg Tart": 1})
        untagged = dict(d["hands"][1])
        untagged[card] -= 1
        assert {k: v for k, v in untagged.items() if v} == {"Har Gow": 3, "Taro Puff": 3, "Soy Pudding": 3}
        seen.add(card)
    assert seen == {"Egg Tart", "Jasmine"}, "deck 2's cards are redrawn among their places"


@pytest.mark.parametrize("mode", ["sampled", "explicit"])
def test_the_reference_and_the_core_resample_alike(mode):
    options = dict(players=3, deck_out="reshuffle_centre", max_turns_per_round=300, rounds=2, chance=mode)
    core, ref = dimsum.make("yum_cha", **options), dimsum.reference.make("yum_cha", **options)
    rng = random.Random(9)
    booked = 0
    for _ in range(12):
        seed = rng.randrange(2**32)
        a, b = core.new_state(seed), ref.new_state(seed)
        for _ in range(rng.randrange(1, 1000)):
            if a.is_terminal:
                break
            actions = a.legal_actions()
            action = 0 if 0 in actions and not a.is_chance_node and rng.random() < 0.85 else rng.choice(actions)
            a.apply(action)
            b.apply(action)
        booked += any(any(row) for row in a.fields()["redrawn"])
        for p in range(core.players):
            assert a.resample(p, p + 7).fields() == b.resample(p, p + 7).fields()
    assert booked, "some states hold cards drawn from a reshuffled deck"


@pytest.mark.parametrize("bad, message", [
    (dict(redrawn=[[], [["Egg Tart", 1]]]), "deck"),                               # deck 1 > deck_number 0
    (dict(deck_number=1, redrawn=[[], [["Jasmine", 1]]]), "hold only"),             # a card not held
    (dict(deck_number=1, redrawn=[[], [["Egg Tart", 1], ["Egg Tart", 1]]]), "hold only"),  # one held
])
def test_a_wrong_redrawn_field_is_refused_naming_it(bad, message):
    game = dimsum.make("yum_cha", **RESHUFFLE)
    with pytest.raises(ValueError, match="redrawn") as info:
        position(game, {1: NINE + ["Egg Tart"]}, **bad)
    assert message in str(info.value)


def test_redrawn_is_refused_without_reshuffles():
    game = dimsum.make("yum_cha", players=2)
    with pytest.raises(ValueError, match="redrawn|deck_number"):
        position(game, {1: NINE + ["Egg Tart"]}, deck_number=1, redrawn=[[], [["Har Gow", 1]]])


def test_once_the_game_is_over_resample_keeps_the_hands_scored_in_the_open(engine):
    """YC-7, YC-8: the last round scored every hand in the open (the scores follow from them), so
    a finished game's resample only reseeds: redrawn hands would contradict the scores."""
    game = engine("yum_cha", players=3, rounds=1, max_turns_per_round=12)
    state = game.new_state(4)
    rng = random.Random(4)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    for p in range(game.players):
        assert state.resample(p, 17).fields()["hands"] == state.fields()["hands"]
    live = game.new_state(4)  # while it is played, the others' hands are redrawn
    assert any(live.resample(0, s).fields()["hands"] != live.fields()["hands"] for s in range(5))
