"""Dim Sum Jam: state_from_dict rejects every inconsistent dict, naming the field."""

import pytest

from dsj_positions import position

GAME = "dim_sum_jam"


def game_for(engine, players=2, **options):
    return engine(GAME, players=players, **options)


def test_valid_position_round_trips(engine):
    game = game_for(engine)
    d = position(hands=[["SHM3"], ["XLB4"]], tea_supply=1, tea_reception=1, complaints=2)
    assert game.state_from_dict(d).to_dict() == d


def _bad(**changes):
    d = position(hands=[["SHM3"], ["XLB4"]])
    for key, value in changes.items():
        d[key] = value
    return d


@pytest.mark.parametrize("d, match", [
    (_bad(phase="lunch"), "phase"),
    (_bad(active=2), "active"),
    (_bad(direction=-1), "direction"),
    (_bad(required_table=8), "required_table"),
    (_bad(hands=[["SHM3", "SHM3"], ["XLB4"]]), "SHM3"),
    (_bad(hands=[["SHM3"], ["XLB4", "XYZ9"]]), "token code"),
    (_bad(hands=[["SHM3"]]), "hands"),
    (_bad(bag=[]), "missing"),
    (_bad(deck="RRX"), "deck"),
    (_bad(deck="V" * 7), "VIP backs"),
    (_bad(deck="R" * 16 + "V"), "deck_size"),  # the configuration's deck has 16 cards
    (_bad(deck="R" * 33 + "V"), "deck_size"),
    (_bad(tea_supply=2, tea_reception=1), "teas"),
    (_bad(complaints=3), "complaints"),
    (_bad(cards_out=[1]), "also on a table"),
    (_bad(cards_out=[99]), "card number"),
    (_bad(outcome="win"), "outcome"),
    (_bad(discarder=1), "discarder"),
    (_bad(resume="play"), "resume"),
    (_bad(draw_pending=True), "draw_pending"),
    (_bad(clock={"top": 600, "capacity": 600, "lying": False}), "capacity"),
    (_bad(clock={"top": 100, "capacity": 1200, "lying": True}), "lies down"),
    (_bad(clock={"top": 0, "capacity": 1200, "lying": False}), "time-out"),
    (_bad(rng=[0, 0, 0, 0]), "zero"),
    (_bad(rng=[1, 2, 3]), "rng"),
    (_bad(game="yum_cha"), "game"),
    (_bad(players=3), "players"),
    (_bad(stuck_complained=1), "stuck_complained"),
    (_bad(free_redraws=4), "free_redraws"),
    (_bad(extra_key=1), "unknown keys"),
])
def test_bad_fields_are_rejected(engine, d, match):
    with pytest.raises((ValueError, TypeError), match=match):
        game_for(engine).state_from_dict(d)


def test_missing_key_is_named(engine):
    d = position(hands=[["SHM3"], ["XLB4"]])
    del d["clock"]
    with pytest.raises(ValueError, match="clock"):
        game_for(engine).state_from_dict(d)


def test_slot_token_must_match_its_icon(engine):
    d = position(hands=[["SHM3"], ["XLB4"]], tables={1: (1, ["SHM1", None, None, None])})
    with pytest.raises(ValueError, match="icon"):
        game_for(engine).state_from_dict(d)


def test_table_icons_must_be_the_cards(engine):
    d = position(hands=[["SHM3"], ["XLB4"]])
    d["tables"][0]["icons"] = ["SHM", "EGG", "RRL", "RDP"]
    with pytest.raises(ValueError, match="icons"):
        game_for(engine).state_from_dict(d)


def test_same_card_on_two_tables_is_rejected(engine):
    d = position(hands=[["SHM3"], ["XLB4"]], tables={2: (1, None)})
    with pytest.raises(ValueError, match="two tables"):
        game_for(engine).state_from_dict(d)


def test_full_card_while_running_is_rejected(engine):
    d = position(hands=[["SHM3"], ["XLB4"]], tables={1: (1, ["XLB1", "EGG1", "RRL1", "RDP1"])})
    with pytest.raises(ValueError, match="full"):
        game_for(engine).state_from_dict(d)


def test_play_phase_for_a_stuck_player_is_rejected(engine):
    d = position(hands=[["SPR4"], ["XLB4"]], required_table=3)
    with pytest.raises(ValueError, match="stuck_discard"):
        game_for(engine).state_from_dict(d)


def test_running_game_without_a_vip_is_rejected(engine):
    d = position(hands=[["SHM3"], ["XLB4"]], deck="RRR")
    with pytest.raises(ValueError, match="VIP"):
        game_for(engine).state_from_dict(d)


def test_hand_over_the_limit_is_rejected(engine):
    d = position(hands=[["SHM1", "SHM2", "SHM3", "SHM4", "SHM5", "SHM6"], ["XLB4"]])
    with pytest.raises(ValueError, match="hand limit"):
        game_for(engine).state_from_dict(d)


def test_non_dict_is_a_type_error(engine):
    with pytest.raises(TypeError):
        game_for(engine).state_from_dict([1, 2])


def test_illegal_action_is_rejected_and_the_state_unchanged(engine):
    game = game_for(engine)
    s = game.state_from_dict(position(hands=[["SHM3"], ["XLB4"]], required_table=6))
    before = s.to_dict()
    with pytest.raises(ValueError, match="not legal"):
        s.apply(s.parse_action("play Xiaolongbao 4 on table 6"))
    with pytest.raises(ValueError):
        s.apply(448)
    assert s.to_dict() == before and s.history == []


def test_advance_after_the_end_is_rejected(engine):
    game = game_for(engine)
    s = game.state_from_dict(position(hands=[["SHM3"], ["XLB4"]], complaints=2,
                                      clock={"top": 1, "capacity": 1200, "lying": False}))
    s.advance(1)
    assert s.is_terminal
    with pytest.raises(ValueError):
        s.advance(1)


@pytest.mark.parametrize("value", [True, 1.0, "1"])
def test_card_numbers_must_be_plain_ints(engine, value):
    d = position(hands=[["SHM3"], ["XLB4"]])
    d["tables"][0]["card"] = value
    with pytest.raises(ValueError, match="card number"):
        game_for(engine).state_from_dict(d)
    d = position(hands=[["SHM3"], ["XLB4"]], cards_out=[value])
    with pytest.raises(ValueError, match="card number"):
        game_for(engine).state_from_dict(d)
