"""One test (or more) per Yum Cha rule and ruling of docs/rules/yum_cha.md, on both engines."""

from collections import Counter

import pytest

import dimsum
from yc_positions import RULEBOOK_COMPLETE_HAND, SCORING_EXAMPLE_HAND, TAKEAWAY_EXAMPLE_HAND, position

G = "yum_cha"


def names(game, actions):
    return [game.action_name(a) for a in actions]


def hand_of(state, p):
    return Counter(state.to_dict()["hands"][p])


# -- set-up -------------------------------------------------------------------------------------

def test_deal_gives_ten_cards_to_each_player_and_the_rest_is_the_deck(engine):
    game = engine(G, players=5)
    d = game.new_state(3).to_dict()
    assert [sum(h.values()) for h in d["hands"]] == [10] * 5
    assert sum(d["deck"].values()) == 96 - 50
    assert d["centre"] == {} and d["phase"] == "draw" and d["round"] == 0


def test_pay_the_bill_card_is_not_dealt(engine):
    game = engine(G)
    assert sum(t.copies for t in game.spec.types) == 96
    assert "Pay the Bill" not in game.spec.type_names


def test_first_round_starter_is_configured_or_drawn_at_random(engine):
    assert engine(G, players=4, first_player=2).new_state(0).current_player == 2
    starters = {engine(G, players=4).new_state(seed).current_player for seed in range(40)}
    assert starters == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players(engine, players):
    assert engine(G, players=players).new_state(0).to_dict()["hands"].__len__() == players


@pytest.mark.parametrize("players", [1, 7])
def test_player_counts_outside_two_to_six_are_refused(engine, players):
    with pytest.raises(ValueError, match="players"):
        engine(G, players=players)


# -- a turn -------------------------------------------------------------------------------------

def test_first_draw_of_a_round_comes_from_the_deck(engine):
    game = engine(G)
    state = game.new_state(1)
    assert names(game, state.legal_actions()) == ["draw from the deck"]


def test_draw_from_the_deck_or_any_card_of_the_centre(engine):
    game = engine(G)
    state = position(game, {}, centre=["Egg Tart", "Har Gow", "Jasmine"])
    assert names(game, state.legal_actions()) == [
        "draw from the deck", "take Har Gow from the centre", "take Egg Tart from the centre",
        "take Jasmine from the centre"]


def test_the_card_just_discarded_may_be_taken_by_the_next_player(engine):
    game = engine(G, players=2)
    state = position(game, {}, phase="draw")
    state.apply(game.parse_action("draw from the deck"))
    held = sorted(hand_of(state, 0))[0]
    state.apply(game.parse_action(f"discard {held}"))
    assert state.current_player == 1
    assert game.parse_action(f"take {held} from the centre") in state.legal_actions()


def test_hand_limit_of_ten_between_turns_eleven_while_discarding(engine):
    game = engine(G, players=3)
    state = game.new_state(5)
    state.apply(game.parse_action("draw from the deck"))
    assert sum(hand_of(state, state.current_player).values()) == 11
    assert all(game.action_name(a).startswith("discard") for a in state.legal_actions())
    state.apply(state.legal_actions()[0])
    assert [sum(h.values()) for h in state.to_dict()["hands"]] == [10, 10, 10]


def test_discard_goes_face_up_into_the_centre_and_play_passes_left(engine):
    game = engine(G, players=3)
    state = position(game, {1: ["Har Gow"] * 3 + ["Egg Tart"] * 3 + ["Jasmine"] * 3 + ["Mid 1"] + ["Mid 2"]},
                     phase="discard", current=1)
    state.apply(game.parse_action("discard Mid 2"))
    d = state.to_dict()
    assert d["centre"].get("Mid 2") == 1 and d["current_player"] == 2 and d["phase"] == "draw"
    assert d["last_discard"] == "Mid 2" and d["turn"] == 1


# -- complete hands (YC-6) ----------------------------------------------------------------------

def can_declare(game, hand):
    state = position(game, {0: hand}, phase="discard")
    return game.parse_action("declare Yum Cha") in state.legal_actions()


def test_rulebook_example_hand_is_complete(engine):
    assert can_declare(engine(G), RULEBOOK_COMPLETE_HAND)


def test_rulebook_scoring_example_hand_is_complete(engine):
    assert can_declare(engine(G), SCORING_EXAMPLE_HAND)


def test_duplicate_dim_sum_cannot_form_a_set(engine):
    hand = ["Sesame Ball"] * 3 + SCORING_EXAMPLE_HAND[3:]
    assert not can_declare(engine(G), hand)


def test_a_set_is_three_dim_sum_of_one_tier(engine):
    hand = ["Sesame Ball", "Taro Puff", "Har Gow"] + SCORING_EXAMPLE_HAND[3:]
    assert not can_declare(engine(G), hand)


def test_several_sets_of_the_same_tier_are_allowed(engine):
    hand = ["Har Gow", "Teochew Dumpling", "Pork Dumpling", "Har Gow", "Teochew Dumpling", "Big 4",
            "Pork Dumpling", "Big 4", "Har Gow", "Jasmine", "Jasmine"]
    assert can_declare(engine(G), hand)


def test_tea_pair_must_be_two_of_the_same_flavour(engine):
    hand = SCORING_EXAMPLE_HAND[:9] + ["Dragon Well", "Jasmine"]
    assert not can_declare(engine(G), hand)


def test_takeaway_card_is_never_part_of_a_complete_hand(engine):
    hand = SCORING_EXAMPLE_HAND[:9] + ["Dragon Well", "Takeaway"]
    assert not can_declare(engine(G), hand)


def test_three_tea_cards_are_not_a_pair(engine):
    hand = SCORING_EXAMPLE_HAND[:6] + ["Tofu Skin Roll", "Rice Noodle Roll"] + ["Jasmine"] * 3
    assert not can_declare(engine(G), hand)


# -- declaring and scoring (YC-4, YC-5, YC-7, YC-8) ---------------------------------------------

def test_declaring_is_optional_by_default(engine):
    game = engine(G)
    state = position(game, {0: SCORING_EXAMPLE_HAND}, phase="discard")
    legal = names(game, state.legal_actions())
    assert "declare Yum Cha" in legal and "discard Egg Tart" in legal


def test_rulebook_scoring_example_scores_twelve(engine):
    game = engine(G, players=3)
    state = position(game, {0: SCORING_EXAMPLE_HAND}, phase="discard")
    state.apply(game.parse_action("declare Yum Cha"))
    d = state.to_dict()
    assert d["last_round"][0] == 12 and d["scores"][0] == 12 and d["declarations"][0] == 1


def test_jasmine_doubles_by_default(engine):
    game = engine(G, players=3)
    state = position(game, {0: RULEBOOK_COMPLETE_HAND}, phase="discard")
    state.apply(game.parse_action("declare Yum Cha"))
    assert state.to_dict()["last_round"][0] == (1 + 1 + 2) * 2


def test_rulebook_takeaway_example_scores_three(engine):
    game = engine(G, players=3)
    state = position(game, {0: SCORING_EXAMPLE_HAND, 1: TAKEAWAY_EXAMPLE_HAND}, phase="discard")
    state.apply(game.parse_action("declare Yum Cha"))
    assert state.to_dict()["last_round"][:2] == [12, 3]


def test_takeaway_set_scores_without_tea_multiplier(engine):
    game = engine(G, players=3)
    hand = ["Mid 1", "Mid 2", "Mid 3", "Takeaway", "Jasmine", "Jasmine", "Har Gow", "Egg Tart",
            "Sesame Ball", "Taro Puff"]
    state = position(game, {0: SCORING_EXAMPLE_HAND, 2: hand}, phase="discard")
    state.apply(game.parse_action("declare Yum Cha"))
    assert state.to_dict()["last_round"][2] == 1


def test_one_takeaway_card_claims_one_set_the_best_one(engine):
    game = engine(G, players=3)
    hand = ["Mid 1", "Mid 2", "Mid 3", "Tofu Skin Roll", "Rice Noodle Roll", "Lotus Leaf Wrap", "Takeaway",
            "Har Gow", "Egg Tart", "Sesame Ball"]
    state = position(game, {0: SCORING_EXAMPLE_HAND, 1: hand}, phase="discard")
    state.apply(game.parse_action("declare Yum Cha"))
    assert state.to_dict()["last_round"][1] == 2


def test_takeaway_sets_are_separate_sets(engine):
    # two takeaway cards but only one set of three different Small names
    game = engine(G, players=3)
    hand = ["Sesame Ball", "Sesame Ball", "Taro Puff", "Taro Puff", "Stuffed Crab Claw", "Takeaway",
            "Takeaway", "Har Gow", "Egg Tart", "Jasmine"]
    state = position(game, {0: SCORING_EXAMPLE_HAND, 1: hand}, phase="discard")
    state.apply(game.parse_action("declare Yum Cha"))
    assert state.to_dict()["last_round"][1] == 1


def test_players_without_complete_hand_or_takeaway_score_zero(engine):
    game = engine(G, players=3)
    state = position(game, {0: SCORING_EXAMPLE_HAND}, phase="discard")
    state.apply(game.parse_action("declare Yum Cha"))
    d = state.to_dict()
    assert d["last_round"][1:] == [0, 0]


def test_auto_declare_ends_the_round_when_the_draw_completes_the_hand(engine):
    game = engine(G, players=2, auto_declare=True)
    state = position(game, {0: SCORING_EXAMPLE_HAND[:10]}, centre=["Dragon Well"])
    state.apply(game.parse_action("take Dragon Well from the centre"))
    d = state.to_dict()
    assert d["round"] == 1 and d["scores"][0] == 12 and d["last_declarer"] == 0


# -- YC-3 ----------------------------------------------------------------------------------------

def test_card_taken_from_centre_may_be_discarded_again_by_default(engine):
    game = engine(G, players=2)
    state = position(game, {}, centre=["Egg Tart"])
    state.apply(game.parse_action("take Egg Tart from the centre"))
    assert game.parse_action("discard Egg Tart") in state.legal_actions()


def test_forbid_immediate_return_option(engine):
    game = engine(G, players=2, forbid_immediate_return=True)
    state = position(game, {}, centre=["Egg Tart"])
    state.apply(game.parse_action("take Egg Tart from the centre"))
    assert game.parse_action("discard Egg Tart") not in state.legal_actions()
    assert state.to_dict()["last_taken"] == "Egg Tart"


# -- the deck running out (YC-9) and the turn cap (YC-10) -----------------------------------------

def test_deck_running_out_is_a_washout_at_the_end_of_that_turn(engine):
    game = engine(G, players=2)
    state = position(game, {1: TAKEAWAY_EXAMPLE_HAND}, deck=["Jasmine"])
    state.apply(game.parse_action("draw from the deck"))
    assert state.to_dict()["round"] == 0  # the turn is not over yet: the player discards first
    state.apply(state.legal_actions()[0])
    d = state.to_dict()
    assert d["round"] == 1 and d["last_declarer"] == -1
    assert d["last_round"] == [0, 3]  # takeaway sets still score in a washout


def test_deck_out_reshuffle_centre_keeps_only_the_last_discard(engine):
    game = engine(G, players=2, deck_out="reshuffle_centre")
    state = position(game, {}, deck=["Jasmine"])
    centre_before = sum(state.to_dict()["centre"].values())
    state.apply(game.parse_action("draw from the deck"))
    state.apply(state.legal_actions()[0])
    d = state.to_dict()
    assert d["round"] == 0 and sum(d["centre"].values()) == 1
    assert d["centre"] == {d["last_discard"]: 1}
    assert sum(d["deck"].values()) == centre_before


def test_deck_out_centre_only_keeps_playing_from_the_centre(engine):
    game = engine(G, players=2, deck_out="centre_only")
    state = position(game, {}, deck=["Jasmine"])
    state.apply(game.parse_action("draw from the deck"))
    state.apply(state.legal_actions()[0])
    assert state.to_dict()["round"] == 0
    assert all(game.action_name(a).startswith("take") for a in state.legal_actions())


def test_turn_cap_makes_the_round_a_washout(engine):
    game = engine(G, players=2, max_turns_per_round=3)
    state = game.new_state(9)
    for _ in range(3):
        state.apply(game.parse_action("draw from the deck"))
        state.apply(state.legal_actions()[0])
    d = state.to_dict()
    assert d["round"] == 1 and d["last_declarer"] == -1 and d["turn"] == 0


# -- rounds and the end (YC-11, YC-12, YC-13) -----------------------------------------------------

def test_round_winner_starts_the_next_round_with_a_fresh_deal(engine):
    game = engine(G, players=3)
    state = position(game, {2: SCORING_EXAMPLE_HAND}, phase="discard", current=2)
    state.apply(game.parse_action("declare Yum Cha"))
    d = state.to_dict()
    assert d["current_player"] == 2 and d["starter"] == 2 and d["round"] == 1
    assert [sum(h.values()) for h in d["hands"]] == [10, 10, 10] and d["centre"] == {}


def test_after_a_washout_the_starters_left_neighbour_starts(engine):
    game = engine(G, players=3, max_turns_per_round=1)
    state = position(game, {}, starter=1, current=1)
    state.apply(game.parse_action("draw from the deck"))
    state.apply(state.legal_actions()[0])
    assert state.current_player == 2 and state.to_dict()["starter"] == 2


def test_game_ends_after_four_rounds(engine):
    game = engine(G, players=2, max_turns_per_round=1)
    state = game.new_state(0)
    for _ in range(4):
        assert not state.is_terminal
        state.apply(state.legal_actions()[0])
        state.apply(state.legal_actions()[0])
    assert state.is_terminal and state.current_player == dimsum.TERMINAL and state.legal_actions() == []


def last_round_position(game, scores, **fields):
    return position(game, {0: SCORING_EXAMPLE_HAND}, phase="discard", round=3, scores=scores,
                    best_round=list(scores), **fields)


def test_highest_total_pays_the_bill(engine):
    game = engine(G, players=3)
    state = last_round_position(game, [0, 13, 5])
    state.apply(game.parse_action("declare Yum Cha"))  # seat 0 reaches 12 < 13
    assert state.is_terminal and state.returns() == (0.0, 1.0, 0.0)


def test_tied_winners_share_by_default(engine):
    game = engine(G, players=3)
    state = last_round_position(game, [0, 12, 12])
    state.apply(game.parse_action("declare Yum Cha"))
    assert state.returns() == pytest.approx((1 / 3, 1 / 3, 1 / 3))


def test_tie_break_by_declarations_then_best_round(engine):
    game = engine(G, players=3, tie_break="declarations_then_best_round")
    state = last_round_position(game, [0, 12, 12], declarations=[0, 1, 0])
    state.apply(game.parse_action("declare Yum Cha"))
    # seats 0 and 1 both have 12 and one declaration; seat 0's best round is 12, seat 1's is 12
    assert state.returns() == pytest.approx((0.5, 0.5, 0.0))


def test_reward_score_option_returns_point_totals(engine):
    game = engine(G, players=2, reward="score")
    state = position(game, {0: SCORING_EXAMPLE_HAND}, phase="discard", scores=[3, 4], best_round=[3, 4])
    state.apply(game.parse_action("declare Yum Cha"))
    assert state.returns() == (15.0, 4.0)


def test_game_is_win_share_zero_sum_until_the_end(engine):
    game = engine(G, players=3)
    assert game.new_state(1).returns() == (0.0, 0.0, 0.0)


# -- hidden information (YC-14) -------------------------------------------------------------------

def test_observation_shows_own_hand_not_the_others(engine):
    game = engine(G, players=3)
    state = game.new_state(4)
    layout = {s.name: s for s in game.observation_layout}
    obs = list(state.observation(0))
    hand = obs[layout["hand"].start:layout["hand"].stop]
    mine = state.to_dict()["hands"][0]
    assert {game.spec.type_names[t]: int(c) for t, c in enumerate(hand) if c} == mine
    other = state.clone()
    other_d = other.to_dict()
    # swapping two cards between the other players changes nothing player 0 can see
    h1, h2 = other_d["hands"][1], other_d["hands"][2]
    a = next(k for k in h1 if k not in h2)
    b = next(k for k in h2 if k not in h1)
    h1[a] -= 1; h1[b] = h1.get(b, 0) + 1; h2[b] -= 1; h2[a] = h2.get(a, 0) + 1
    other_d["hands"] = [other_d["hands"][0], {k: v for k, v in h1.items() if v}, {k: v for k, v in h2.items() if v}]
    swapped = game.state_from_dict(other_d)
    assert list(swapped.observation(0)) == obs
    assert list(swapped.observation(1)) != list(state.observation(1))


def test_cards_taken_from_the_centre_are_known_to_everyone(engine):
    game = engine(G, players=2)
    state = position(game, {}, centre=["Egg Tart"])
    state.apply(game.parse_action("take Egg Tart from the centre"))
    layout = {s.name: s for s in game.observation_layout}
    known = list(state.observation(1))[layout["known"].start:layout["known"].stop]
    assert known[game.spec.type_index("Egg Tart")] == 1
    assert state.to_dict()["known"][0] == {"Egg Tart": 1}


def test_a_known_card_is_forgotten_once_a_copy_is_discarded(engine):
    game = engine(G, players=2)
    state = position(game, {0: ["Egg Tart"] + ["Har Gow"] * 3 + ["Mid 1"] * 3 + ["Jasmine"] * 3},
                     centre=["Egg Tart"])
    state.apply(game.parse_action("take Egg Tart from the centre"))
    state.apply(game.parse_action("discard Egg Tart"))
    assert state.to_dict()["known"][0] == {}


def test_resample_keeps_what_the_player_saw_and_redeals_the_rest(engine):
    game = engine(G, players=4)
    state = position(game, {}, centre=["Egg Tart", "Har Gow"])
    state.apply(game.parse_action("take Egg Tart from the centre"))
    state.apply(state.legal_actions()[0])
    seen = list(state.observation(2))
    hands = [state.resample(2, seed).to_dict()["hands"] for seed in range(12)]
    for seed, h in enumerate(hands):
        again = state.resample(2, seed)
        assert list(again.observation(2)) == seen
        assert h[2] == state.to_dict()["hands"][2]
        if state.to_dict()["known"][0]:
            assert all(h[0].get(k, 0) >= v for k, v in state.to_dict()["known"][0].items())
    assert len({str(h[1]) for h in hands}) > 1  # the unseen hands really are redrawn


# -- the deck as data ----------------------------------------------------------------------------

def default_deck():
    from dimsum._common import load_data
    return load_data("yum_cha")


def test_custom_deck_is_accepted_and_used(engine):
    deck = default_deck()
    deck["takeaway"]["copies"] = 5
    game = engine(G, deck=deck)
    assert game.spec.types[-1].name == "Takeaway" and game.spec.types[-1].copies == 5


def test_custom_deck_with_an_unknown_tier_is_refused(engine):
    deck = default_deck()
    deck["dim_sum"][0]["tier"] = "Enormous"
    with pytest.raises(ValueError, match="unknown tier 'Enormous'"):
        engine(G, deck=deck)


def test_custom_deck_tea_without_multiplier_is_refused(engine):
    deck = default_deck()
    del deck["teas"][0]["multiplier"]
    with pytest.raises(ValueError, match="multiplier"):
        engine(G, deck=deck)


def test_custom_deck_too_small_for_the_deal_is_refused(engine):
    deck = default_deck()
    for card in deck["dim_sum"]:
        card["copies"] = 1
    with pytest.raises(ValueError, match="too few"):
        engine(G, players=6, deck=deck)


def test_every_data_entry_has_a_provenance():
    deck = default_deck()
    entries = deck["tiers"] + deck["dim_sum"] + deck["teas"] + [deck["takeaway"], deck["pay_the_bill"]]
    assert {e["provenance"] for e in entries} <= {"rulebook", "source", "inferred", "default"}
    assert all(e.get("source") for e in entries)
    assert sum(e["copies"] for e in deck["dim_sum"] + deck["teas"]) + 3 + 1 == 97
