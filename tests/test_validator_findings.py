"""Regression tests for the validator findings of the adversarial audit (the issue "Hardening"):
each test builds the exact bad state through ``state_from_fields`` (within the declared field
bounds, so that only the game's validator can refuse it) and expects a ValueError.

Each was a strict xfail, and an entry of the fuzz targets' allow-list (fuzz/fuzzlib.py,
KNOWN_FINDINGS), until its validator was fixed; docs/FUZZING.md lists them.
"""

import copy
import random


import dimsum


def assert_refused(game, fields):
    """The position is refused by the validator (a ValueError); AssertionError if accepted."""
    try:
        game.state_from_fields(fields)
    except ValueError:
        return
    raise AssertionError(f"{game.name}: the bad state was accepted")


def fields_of(game, seed=1):
    state = game.new_state(seed)
    state.check()
    return copy.deepcopy(state.fields())




def test_dim_sum_jam_accepts_a_deck_longer_than_the_configured_deck():
    game = dimsum.make("dim_sum_jam", players=3)
    fields = fields_of(game)
    on_tables = sum(1 for c in fields["table_cards"] if c >= 0)
    assert on_tables > 0 and fields["deck_size"] + on_tables == game.spec.deck_length
    fields["deck_size"] = game.spec.deck_length  # within the field's bounds, but 7 cards too many
    assert_refused(game, fields)


def test_yum_cha_validator_does_not_range_check_best_round_and_last_round():
    game = dimsum.make("yum_cha", players=3)
    fields = fields_of(game)
    assert fields["round"] == 0 and fields["scores"] == [0, 0, 0]
    # round 0, nobody has scored: a best round of 5 and a last round of 9 (above the best) cannot be
    fields["best_round"][0] = 5
    fields["last_round"][0] = 9
    assert_refused(game, fields)


def test_yum_cha_accepts_turn_at_max_turns_per_round_in_a_running_round():
    game = dimsum.make("yum_cha", players=3, max_turns_per_round=12)
    fields = fields_of(game)
    assert fields["phase"] == 0  # draw: the round is running
    fields["turn"] = 12
    assert_refused(game, fields)


def test_yum_cha_accepts_last_taken_that_the_taker_is_not_known_to_hold():
    game = dimsum.make("yum_cha", players=3)
    rng = random.Random(0)
    state = game.new_state(2)
    while state.field("phase") != 1:  # discard: after a draw, before the discard
        state.apply(rng.choice(state.legal_actions()))
    fields = copy.deepcopy(state.fields())
    p = fields["current_player"]
    unknown = [t for t, n in enumerate(fields["hands"][p]) if n > 0 and fields["known"][p][t] == 0]
    assert fields["last_taken"] == -1 and unknown
    fields["last_taken"] = unknown[0]  # held, but nobody saw it taken from the centre
    assert_refused(game, fields)
