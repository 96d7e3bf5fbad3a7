"""Dim Sum Jam: achievements, rulings and variant options, and the card data override."""

import json
from importlib import resources

import pytest

from dimsum.games import dim_sum_jam as spec
from dsj_positions import act, load, names, position

GAME = "dim_sum_jam"


def _fulfil_table_6(hands=(("SHM3", "EGG1"), ("XLB4",)), **fields):
    return position(hands=[list(h) for h in hands], required_table=6,
                    tables={6: (6, ["XLB1", "EGG2", "RDP3", None])}, **fields)


# ---------------------------------------------------------------------------------------------
# Options in general

def test_unknown_option_is_rejected_listing_the_known_ones(engine):
    with pytest.raises(ValueError, match="hand_limit"):
        engine(GAME, hand_limt=4)


@pytest.mark.parametrize("opts, error", [({"players": 1}, ValueError), ({"players": 6}, ValueError),
                                         ({"players": "3"}, TypeError), ({"flip_model": "magic"}, ValueError),
                                         ({"achievement": "bronze-1"}, ValueError),
                                         ({"ticks_per_action": -5}, ValueError),
                                         ({"ticks_per_action": 2000}, ValueError),
                                         ({"decline_tea": 1}, TypeError), ({"tea_supply": 3}, ValueError)])
def test_bad_option_values_are_rejected(engine, opts, error):
    with pytest.raises(error):
        engine(GAME, **opts)


def test_defaults_match_the_data_file_and_research():
    cfg = spec.make_config()
    o = cfg.options
    assert (o["players"], o["hand_limit"], o["tea_supply"], o["complaint_limit"]) == (4, 5, 2, 3)
    assert (o["glass_ticks"], o["ticks_per_action"], o["ticks_per_team_decision"]) == (1200, 50, 0)
    assert (o["flip_model"], o["stand_side"], o["timeout_discard"], o["timeout_resume"]) == \
        ("physical", "choose", "all_players", "keep_table")
    assert (o["decline_tea"], o["max_free_redraws"], o["opening_free"], o["draw_after_tea"]) == \
        (True, 3, "first_turn", False)
    assert o["reverse_variant"] is False and o["reverse_trigger"] == "on_fulfil"
    assert cfg.deck_length == 16 and len(cfg.action_space) == 448
    with pytest.raises(TypeError):
        cfg.options["players"] = 3


def test_action_names_are_unique_and_parse_back():
    space = spec.ACTION_SPACE
    for a, name in enumerate(space.names):
        assert space.parse(name) == a
    assert space.names[spec.A_PLAY + (5 * 7 + 2) * 7 + 4] == "play Shumai 3 on table 5"
    assert space.names[spec.A_TEA + 1 * 7 + 1] == "tea on table 2 Egg Tarts"
    assert space.names[spec.A_DISCARD + 0 * 7 + 5] == "discard Xiaolongbao 6"


# ---------------------------------------------------------------------------------------------
# Achievements (DSJ-20)

@pytest.mark.parametrize("name", sorted(spec.ACHIEVEMENTS))
def test_every_achievement_sets_the_options_behind_it(engine, name):
    game = engine(GAME, achievement=name)
    for key, value in spec.ACHIEVEMENTS[name].items():
        assert game.options[key] == value
    d = game.new_state(1).to_dict()
    assert all(len(h) == game.options["hand_limit"] for h in d["hands"])
    assert d["tea_supply"] == game.options["tea_supply"]
    assert sum(t["card"] >= 36 for t in d["tables"]) + d["deck"].count("V") == 1 + game.options["extra_vips"]


def test_achievement_contradicted_by_an_explicit_option_is_rejected(engine):
    with pytest.raises(ValueError, match="contradicts"):
        engine(GAME, achievement="silver-3", extra_vips=1)
    assert engine(GAME, achievement="silver-3", extra_vips=2).options["extra_vips"] == 2


@pytest.mark.parametrize("extra", [1, 2, 3])
def test_extra_vips_are_shuffled_into_the_top_ten(engine, extra):
    game = engine(GAME, players=3, extra_vips=extra)
    positions = set()
    for seed in range(30):
        d = game.new_state(seed).to_dict()
        on_tables = sum(t["card"] >= 36 for t in d["tables"])
        assert on_tables + d["deck"].count("V") == 1 + extra
        assert len(d["deck"]) == 16 + extra - 7 and d["deck"].endswith("VRRRRR")
        positions.add(d["deck"][:-6])
    assert len(positions) > 3


def test_tea_supply_of_zero_leaves_only_the_flip(engine):
    d = _fulfil_table_6(tea_supply=0)
    _, s = load(engine, d, achievement="silver-1")
    act(s, "play Shumai 3 on table 6")
    assert names(s) == ["flip the glass"]


def test_hand_limit_four_for_the_deal_and_refills(engine):
    game = engine(GAME, players=3, achievement="copper-4")
    d = game.new_state(2).to_dict()
    assert [len(h) for h in d["hands"]] == [4, 4, 4]
    with pytest.raises(ValueError, match="hand limit"):
        game.state_from_dict(position(players=3, hands=[["SHM1", "SHM2", "SHM3", "SHM4", "SHM5"], [], []]))


def test_playing_the_next_players_tokens(engine):
    # silver-2: player 0 plays from player 1's hand and draws into it
    d = position(hands=[["SHM3"], ["EGG1", "XLB4"]])
    _, s = load(engine, d, play_next_hand=True)
    assert names(s)[0].startswith("play Xiaolongbao 4") and not any("Shumai" in n for n in names(s))
    act(s, "play Egg Tarts 1 on table 2")
    d = s.to_dict()
    assert d["hands"][0] == ["SHM3"] and len(d["hands"][1]) == 2 and "EGG1" not in d["hands"][1]


def test_no_complaints_allowed_loses_at_the_first(engine):
    d = position(hands=[["SHM3"], ["XLB4"]], clock={"top": 5, "capacity": 1200, "lying": False})
    _, s = load(engine, d, achievement="gold-2")
    s.advance(5)
    assert s.outcome.reason == "complaints" and s.to_dict()["complaints"] == 1


@pytest.mark.parametrize("flag", spec.NO_RULES_EFFECT)
def test_achievements_without_rules_effect_change_nothing(engine, flag):
    plain, flagged = engine(GAME, players=3), engine(GAME, players=3, **{flag: True})
    a, b = plain.new_state(9), flagged.new_state(9)
    for _ in range(40):
        if a.is_terminal:
            break
        assert a.to_dict() == b.to_dict() and a.legal_actions() == b.legal_actions()
        move = a.legal_actions()[len(a.history) % len(a.legal_actions())]
        a.apply(move)
        b.apply(move)
    assert a.to_dict() == b.to_dict()


# ---------------------------------------------------------------------------------------------
# The Changing Turn Order variant (reconstruction)

def test_reverse_on_fulfil_turns_the_direction(engine):
    d = _fulfil_table_6(players=3, hands=[["SHM3"], ["XLB4"], ["EGG4"]])
    _, s = load(engine, d, reverse_variant=True)
    act(s, "play Shumai 3 on table 6")
    act(s, "flip the glass")
    d = s.to_dict()
    assert d["direction"] == -1 and d["active"] == 2


def test_reverse_on_self_table(engine):
    d = position(players=3, hands=[["SHM6", "SHM3"], ["XLB4"], ["EGG4"]])
    _, s = load(engine, d, reverse_variant=True, reverse_trigger="on_self_table")
    t = s.clone()
    act(s, "play Shumai 6 on table 6")
    assert s.to_dict()["direction"] == -1 and s.to_dict()["active"] == 2
    act(t, "play Shumai 3 on table 6")
    assert t.to_dict()["direction"] == 1 and t.to_dict()["active"] == 1


def test_reverse_team_once_is_a_reward_choice_once_per_game(engine):
    d = _fulfil_table_6(players=3, hands=[["SHM3"], ["XLB4"], ["EGG4"]])
    _, s = load(engine, d, reverse_variant=True, reverse_trigger="team_once")
    act(s, "play Shumai 3 on table 6")
    assert "flip the reverse token" in names(s)
    act(s, "flip the reverse token")
    d = s.to_dict()
    assert d["direction"] == -1 and d["active"] == 2 and d["reverse_used"] is True
    d2 = _fulfil_table_6(players=3, hands=[["SHM3"], ["XLB4"], ["EGG4"]], reverse_used=True, direction=-1)
    _, s2 = load(engine, d2, reverse_variant=True, reverse_trigger="team_once")
    act(s2, "play Shumai 3 on table 6")
    assert "flip the reverse token" not in names(s2)


def test_without_the_variant_the_direction_never_changes(engine):
    _, s = load(engine, _fulfil_table_6(players=3, hands=[["SHM3"], ["XLB4"], ["EGG4"]]))
    act(s, "play Shumai 3 on table 6")
    assert "flip the reverse token" not in names(s)
    act(s, "flip the glass")
    assert s.to_dict()["direction"] == 1 and s.to_dict()["active"] == 1


# ---------------------------------------------------------------------------------------------
# Rulings with alternatives

def test_flip_model_full_always_gives_a_full_glass(engine):
    # DSJ-1 alternative
    d = _fulfil_table_6(clock={"top": 1000, "capacity": 1200, "lying": False})
    _, s = load(engine, d, flip_model="full")
    act(s, "play Shumai 3 on table 6")
    act(s, "flip the glass")
    assert s.clock.top == 1200


def test_stand_side_same_side_up_only(engine):
    # DSJ-3 alternative
    d = position(hands=[["SHM3", "EGG1"], ["SPR4", "PCH5"]])
    _, s = load(engine, d, stand_side="same_side_up")
    act(s, "play Shumai 3 on table 6")
    act(s, "done discarding")
    assert names(s) == ["stand the glass: same side up"]


def test_timeout_discard_active_player_only(engine):
    # DSJ-5 alternative
    d = position(players=3, hands=[["SHM3"], ["XLB4"], ["EGG2"]], clock={"top": 3, "capacity": 1200, "lying": False})
    _, s = load(engine, d, timeout_discard="active_player")
    s.advance(3)
    act(s, "done discarding")
    assert s.to_dict()["phase"] == "play" and s.clock.top == 1200


def test_timeout_resume_free_play(engine):
    # DSJ-6 alternative
    d = position(hands=[["SHM3"], ["XLB4"]], required_table=6, clock={"top": 3, "capacity": 1200, "lying": False})
    _, s = load(engine, d, timeout_resume="free_play")
    s.advance(3)
    act(s, "done discarding")
    act(s, "done discarding")
    assert s.to_dict()["required_table"] == 0


def test_decline_tea_off_forces_the_tea(engine):
    # DSJ-7 alternative
    d = position(hands=[["SPR1"], ["XLB4"]], required_table=2, tea_reception=1, tea_supply=1)
    _, s = load(engine, d, decline_tea=False)
    assert "cannot serve: lay the glass down" not in names(s)


def test_max_free_redraws_zero_passes_at_once(engine):
    # DSJ-9 guard size
    from test_dim_sum_jam_rules import _standing_up_still_stuck
    _, s = load(engine, _standing_up_still_stuck(0, hands=[["SHM1"], ["EGG1"]]), max_free_redraws=0)
    act(s, "stand the glass: same side up")
    assert s.to_dict()["active"] == 0 and s.to_dict()["phase"] == "play"


def test_opening_free_first_round(engine):
    # DSJ-10 alternative: every player's first turn is free
    game = engine(GAME, players=3, opening_free="first_round")
    s = game.new_state(4)
    for _ in range(3):
        assert s.to_dict()["required_table"] == 0
        s.apply(s.legal_actions()[0])
    if s.to_dict()["phase"] == "play":
        assert s.to_dict()["required_table"] != 0


def test_draw_after_tea(engine):
    # DSJ-11 alternative
    d = position(hands=[["SPR1"], ["XLB4"]], required_table=2, tea_reception=1, tea_supply=1)
    _, s = load(engine, d, draw_after_tea=True)
    act(s, "tea on table 2 Egg Tarts")
    assert len(s.to_dict()["hands"][0]) == 2


def test_time_off_rejects_ticks_and_never_times_out(engine):
    d = position(hands=[["SHM3"], ["XLB4"]], clock={"top": 1, "capacity": 1200, "lying": False})
    _, s = load(engine, d, ticks_per_action=0)
    before = s.to_dict()
    with pytest.raises(ValueError, match="time is off"):
        s.advance(1)
    with pytest.raises(ValueError, match="time is off"):
        act(s, "play Shumai 3 on table 6", ticks=1)
    assert s.to_dict() == before
    act(s, "play Shumai 3 on table 6")
    assert s.clock.top == 1 and s.to_dict()["phase"] == "play"


def test_ticks_per_team_decision(engine):
    # DSJ-4: the glass runs during the flip-or-tea decision
    d = _fulfil_table_6(clock={"top": 600, "capacity": 1200, "lying": False})
    _, s = load(engine, d, ticks_per_team_decision=30)
    act(s, "play Shumai 3 on table 6")
    act(s, "take exotic tea")
    assert s.clock.top == 520


def test_glass_ticks_sets_the_capacity(engine):
    game = engine(GAME, glass_ticks=600, ticks_per_action=10)
    assert game.new_state(0).clock.capacity == 600


# ---------------------------------------------------------------------------------------------
# Card data

def test_data_file_has_provenance_on_every_entry():
    data = json.loads(resources.files("dimsum.data").joinpath("dim_sum_jam.json").read_text())
    for key in ("token_types", "tokens", "tables", "cards", "constants"):
        for entry in data[key]:
            assert entry["provenance"] in ("rulebook", "source", "inferred", "default") and entry["source"]
    assert len(data["tokens"]) == 49 and len(data["tables"]) == 7 and len(data["cards"]) == 41
    regular = [c for c in data["cards"] if c["kind"] == "regular"]
    assert len(regular) == 35 and len({tuple(c["icons"]) for c in regular}) == 35
    assert all(len(c["icons"]) == 4 for c in regular)
    assert all(sum(t in c["icons"] for c in regular) == 20 for t in spec.TYPE_CODES)
    vip = [c for c in data["cards"] if c["kind"] == "vip"]
    assert [c["number"] for c in vip] == list(range(36, 42)) and all(len(c["icons"]) == 6 for c in vip)
    assert regular[0]["icons"] == ["XLB", "EGG", "RRL", "RDP"] and regular[34]["icons"] == ["RDP", "PCH", "SHM", "SPR"]
    assert vip[0]["icons"] == ["EGG", "RRL", "RDP", "PCH", "SHM", "SPR"]


def _seven_icon_vips():
    cards = spec.card_dicts(spec.DEFAULT_CARDS)
    for c in cards:
        if c["kind"] == "vip":
            c["icons"] = list(spec.TYPE_CODES)
            c["provenance"], c["source"] = "default", "RESEARCH.md 1.2 alternative: VIPs show all 7 types"
    return cards


def test_other_card_faces_are_accepted(engine):
    game = engine(GAME, players=2, cards=_seven_icon_vips())
    s = game.new_state(0)
    assert game.options["cards"][40]["icons"] == list(spec.TYPE_CODES)
    while not s.is_terminal:
        s.apply(s.legal_actions()[0])


@pytest.mark.parametrize("mutate, match", [
    (lambda c: c[0].update(icons=["NOT_A_DISH"]), "type code"),
    (lambda c: c[0].update(icons=[]), "1 to 7"),
    (lambda c: c[1].update(number=1), "twice"),
    (lambda c: c[0].update(kind="boss"), "kind"),
    (lambda c: c[0].update(provenance="guess"), "provenance"),
    (lambda c: c[0].pop("source"), "missing"),
    (lambda c: c[0].update(colour="red"), "unknown keys"),
    (lambda c: [c.pop(0) for _ in range(25)], "regular cards"),
])
def test_bad_card_data_is_rejected(engine, mutate, match):
    cards = spec.card_dicts(spec.DEFAULT_CARDS)
    mutate(cards)
    with pytest.raises(ValueError, match=match):
        engine(GAME, cards=cards)


def test_too_few_vips_for_the_extra_vips(engine):
    with pytest.raises(ValueError, match="VIP"):
        engine(GAME, extra_vips=6)
