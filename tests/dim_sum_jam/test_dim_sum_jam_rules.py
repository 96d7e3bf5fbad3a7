"""Dim Sum Jam: one or more tests per rule and ruling (docs/rules/dim_sum_jam.md), both engines."""

import pytest

from dsj_positions import act, load, names, position, table

GAME = "dim_sum_jam"


# ---------------------------------------------------------------------------------------------
# Set-up (rulebook steps 1-11)

def test_setup_deck_is_ten_regular_one_vip_five_regular_and_seven_tables_dealt(engine):
    game = engine(GAME, players=4)
    for seed in range(20):
        d = game.new_state(seed).to_dict()
        # 16 cards, 7 dealt from the top: 3 regular, the VIP, 5 regular remain
        assert d["deck"] == "RRRVRRRRR"
        cards = [t["card"] for t in d["tables"]]
        assert len(set(cards)) == 7 and all(1 <= c <= 35 for c in cards)
        assert all(s is None for t in d["tables"] for s in t["slots"])
        assert d["cards_out"] == []


def test_setup_five_face_up_tokens_each_rest_in_bag(engine):
    game = engine(GAME, players=5)
    d = game.new_state(3).to_dict()
    assert [len(h) for h in d["hands"]] == [5] * 5
    assert len(d["bag"]) == 49 - 25 and d["discard"] == []
    assert (d["tea_supply"], d["tea_reception"], d["complaints"]) == (2, 0, 0)
    assert d["clock"] == {"top": 1200, "capacity": 1200, "lying": False}
    assert d["phase"] == "play" and d["outcome"] is None


def test_setup_start_player_is_random(engine):
    game = engine(GAME, players=3)
    starts = {game.new_state(seed).current_player for seed in range(40)}
    assert starts == {0, 1, 2}


def test_setup_seed_reproduces_the_game(engine):
    game = engine(GAME, players=3)
    assert game.new_state(11).to_dict() == game.new_state(11).to_dict()
    assert game.new_state(11).to_dict() != game.new_state(12).to_dict()


def test_start_player_plays_on_any_table_first_turn_only(engine):
    # DSJ-10: the first turn of the game is free; the second player is bound by the token
    game = engine(GAME, players=3)
    s = game.new_state(5)
    assert s.to_dict()["required_table"] == 0
    tables = {name.rsplit(" ", 1)[1] for name in names(s)}
    assert len(tables) > 1
    act(s, names(s)[0])
    assert 1 <= s.to_dict()["required_table"] <= 7


# ---------------------------------------------------------------------------------------------
# Playing a token

def test_play_must_be_on_table_numbered_like_last_token(engine):
    _, s = load(engine, position(hands=[["SHM3", "XLB1", "EGG5"], []], required_table=3))
    assert names(s) == ["play Xiaolongbao 1 on table 3", "play Egg Tarts 5 on table 3",
                        "play Shumai 3 on table 3"]


def test_play_needs_an_empty_icon_of_the_token_type(engine):
    # table 3 is card 3 (XLB EGG RRL SHM): its Xiaolongbao is taken, it has no Spring Rolls
    _, s = load(engine, position(hands=[["XLB2", "SPR4", "EGG1"], []], required_table=3,
                                 tables={3: (3, ["XLB7", None, None, None])}))
    assert names(s) == ["play Egg Tarts 1 on table 3"]


def test_token_goes_onto_the_matching_icon(engine):
    _, s = load(engine, position(hands=[["SHM3"], []], required_table=6))
    act(s, "play Shumai 3 on table 6")
    assert s.to_dict()["tables"][5]["slots"] == [None, None, None, "SHM3"]


def test_next_player_must_play_on_table_of_token_number_not_table_played(engine):
    # DSJ-16: only the number constrains the next player
    _, s = load(engine, position(hands=[["SHM3", "EGG1"], ["XLB4", "XLB5"]]))
    act(s, "play Shumai 3 on table 6")
    d = s.to_dict()
    assert d["active"] == 1 and d["required_table"] == 3
    assert all(n.endswith("table 3") for n in names(s))


def test_player_draws_a_token_after_playing(engine):
    _, s = load(engine, position(hands=[["SHM3", "EGG1", "EGG2", "EGG3", "EGG4"], ["XLB4"]]))
    bag_before = len(s.to_dict()["bag"])
    act(s, "play Shumai 3 on table 6")
    d = s.to_dict()
    assert len(d["hands"][0]) == 5 and "SHM3" not in d["hands"][0]
    assert len(d["bag"]) == bag_before - 1


def test_empty_bag_reshuffles_the_discard_pile(engine):
    # the bag is empty: the discard pile becomes the bag, then the draw happens
    d = position(hands=[["SHM3"], ["XLB4"]], leftover="discard")
    _, s = load(engine, d)
    assert s.to_dict()["bag"] == []
    act(s, "play Shumai 3 on table 6")
    d = s.to_dict()
    assert d["discard"] == [] and len(d["hands"][0]) == 1
    assert len(d["bag"]) == 49 - 3


def test_empty_bag_and_discard_leave_the_hand_short(engine):
    # DSJ-17: nothing to draw; tokens lying on cards are never reshuffled.
    # 14 tokens on the tables (each card 1-7 starts XLB EGG), the other 35 in five hands of 7.
    tables = {k: (k, [f"XLB{k}", f"EGG{k}", None, None]) for k in range(1, 8)}
    rest = [f"{t}{n}" for t in ("RRL", "RDP", "PCH", "SHM", "SPR") for n in range(1, 8)]
    d = position(players=5, tables=tables, hands=[rest[i:i + 7] for i in range(0, 35, 7)])
    assert d["bag"] == [] and d["discard"] == []
    _, s = load(engine, d, hand_limit=7)
    act(s, "play Steamed Rice Rolls 1 on table 1")
    d = s.to_dict()
    assert len(d["hands"][0]) == 6 and d["bag"] == [] and d["discard"] == []


# ---------------------------------------------------------------------------------------------
# Fulfilling an order (DSJ-12)

def _almost_full_table_6(tables=None, **fields):
    # table 6: card 6 = XLB EGG RDP SHM with three of four icons served
    tables = {6: (6, ["XLB1", "EGG2", "RDP3", None]), **(tables or {})}
    return position(hands=[["SHM3", "EGG1"], ["XLB4"]], required_table=6, tables=tables, **fields)


def test_fulfilled_order_discards_its_tokens_and_next_card_goes_on_the_table(engine):
    _, s = load(engine, _almost_full_table_6())
    act(s, "play Shumai 3 on table 6")
    d = s.to_dict()
    assert sorted(d["discard"]) == sorted(["XLB1", "EGG2", "RDP3", "SHM3"])
    assert d["cards_out"] == [6]
    assert d["deck"] == "RRVRRRRR"
    new = d["tables"][5]
    assert new["card"] not in (1, 2, 3, 4, 5, 6, 7) and all(x is None for x in new["slots"])
    # the team decides (the active player, DSJ-15) before the turn passes
    assert d["phase"] == "reward" and s.current_player == 0
    assert names(s) == ["flip the glass", "take exotic tea"]


def test_reward_flip_turns_the_physical_glass_over(engine):
    # DSJ-1: flipping a glass with `top` to run leaves capacity - top
    d = _almost_full_table_6(clock={"top": 1000, "capacity": 1200, "lying": False})
    _, s = load(engine, d, ticks_per_action=50)
    act(s, "play Shumai 3 on table 6")
    assert s.clock.top == 950
    act(s, "flip the glass")
    assert s.clock.top == 250 and s.to_dict()["active"] == 1


def test_reward_take_exotic_tea_puts_it_on_the_reception_card(engine):
    _, s = load(engine, _almost_full_table_6(tea_supply=1, tea_reception=1))
    act(s, "play Shumai 3 on table 6")
    act(s, "take exotic tea")
    d = s.to_dict()
    assert (d["tea_supply"], d["tea_reception"]) == (0, 2)


def test_reward_must_flip_when_the_tea_supply_is_empty(engine):
    _, s = load(engine, _almost_full_table_6(tea_supply=0, tea_reception=2))
    act(s, "play Shumai 3 on table 6")
    assert names(s) == ["flip the glass"]


def test_active_player_draws_after_the_reward_then_next_player_bound_by_token(engine):
    _, s = load(engine, _almost_full_table_6())
    act(s, "play Shumai 3 on table 6")
    assert len(s.to_dict()["hands"][0]) == 1  # still short while the team decides
    act(s, "take exotic tea")
    d = s.to_dict()
    assert len(d["hands"][0]) == 2 and d["active"] == 1 and d["required_table"] == 3


def test_tea_on_a_fulfilled_order_returns_to_supply_and_can_be_taken_at_once(engine):
    # DSJ-11 "including this": the supply is empty until this fulfilment returns the tea
    d = position(hands=[["SHM3"], ["XLB4"]], required_table=6, tea_supply=0, tea_reception=1,
                 tables={6: (6, ["XLB1", "tea", "RDP3", None])})
    _, s = load(engine, d)
    act(s, "play Shumai 3 on table 6")
    assert s.to_dict()["tea_supply"] == 1
    act(s, "take exotic tea")
    assert s.to_dict()["tea_reception"] == 2


def test_fulfilling_the_last_vip_wins_even_when_the_deck_is_empty(engine):
    # DSJ-12 step 1 comes before drawing: no loss for the empty deck
    d = position(hands=[["SHM3"], ["XLB4"]], required_table=6, deck="",
                 tables={6: (36, ["EGG1", "RRL2", "RDP3", "PCH4", None, "SPR6"])})
    _, s = load(engine, d)
    act(s, "play Shumai 3 on table 6")
    assert s.is_terminal and s.outcome.reason == "team_win" and s.to_dict()["outcome"] == "win"
    assert s.returns() == (1.0, 1.0)


def test_empty_deck_when_a_table_needs_a_card_loses(engine):
    # ending (b): the VIP is still on table 1 unfulfilled
    d = _almost_full_table_6(deck="", tables={1: (36, None)})
    _, s = load(engine, d)
    act(s, "play Shumai 3 on table 6")
    assert s.is_terminal and s.outcome.reason == "deck_out"
    assert s.returns() == (0.0, 0.0)
    assert s.to_dict()["tables"][5]["card"] is None


def test_vip_fulfilled_with_another_vip_left_continues(engine):
    # DSJ-14: with extra VIPs the win needs every VIP used in the game
    d = position(hands=[["SHM3"], ["XLB4"]], required_table=6, deck="RVR",
                 tables={6: (36, ["EGG1", "RRL2", "RDP3", "PCH4", None, "SPR6"])})
    _, s = load(engine, d, extra_vips=1)
    act(s, "play Shumai 3 on table 6")
    assert not s.is_terminal and s.to_dict()["phase"] == "reward"


def test_last_card_drawn_is_not_yet_a_loss(engine):
    # DSJ-13: the loss comes only when a table needs a card from the empty deck
    d = _almost_full_table_6(deck="V")
    _, s = load(engine, d)
    act(s, "play Shumai 3 on table 6")
    d = s.to_dict()
    assert d["deck"] == "" and not s.is_terminal and d["tables"][5]["card"] >= 36


# ---------------------------------------------------------------------------------------------
# Exotic tea (DSJ-11)

def test_exotic_tea_is_wild_on_the_required_table(engine):
    _, s = load(engine, position(hands=[["SPR1"], ["XLB4"]], required_table=2, tea_supply=1,
                                 tea_reception=1, tables={2: (2, ["XLB1", None, None, "PCH2"])}))
    assert names(s) == ["tea on table 2 Egg Tarts", "tea on table 2 Steamed Rice Rolls",
                        "cannot serve: lay the glass down"]


def test_exotic_tea_sends_the_next_player_to_table_1_and_no_draw(engine):
    _, s = load(engine, position(hands=[["EGG1", "SPR1"], ["XLB4"]], required_table=2, tea_supply=1,
                                 tea_reception=1))
    act(s, "tea on table 2 Egg Tarts")
    d = s.to_dict()
    assert d["tables"][1]["slots"] == [None, "tea", None, None]
    assert d["required_table"] == 1 and d["active"] == 1 and d["tea_reception"] == 0
    assert d["hands"][0] == ["EGG1", "SPR1"]


def test_exotic_tea_only_when_one_lies_on_the_reception_card(engine):
    _, s = load(engine, position(hands=[["EGG1"], ["XLB4"]], required_table=2))
    assert not any(n.startswith("tea") for n in names(s))


def test_exotic_tea_in_a_free_play_goes_on_any_table(engine):
    _, s = load(engine, position(hands=[["EGG1"], ["XLB4"]], tea_supply=1, tea_reception=1))
    teas = [n for n in names(s) if n.startswith("tea")]
    assert {n.split()[3] for n in teas} == {"1", "2", "3", "4", "5", "6", "7"}


# ---------------------------------------------------------------------------------------------
# Time running out (case II) and the tick clock

def test_time_out_at_the_exact_tick_the_glass_runs_out(engine):
    _, s = load(engine, position(hands=[["SHM3", "EGG1"], ["XLB4", "EGG5"]],
                                 clock={"top": 51, "capacity": 1200, "lying": False}))
    act(s, "play Shumai 3 on table 6")          # 50 ticks: 1 left
    assert s.clock.top == 1 and s.to_dict()["phase"] == "play"
    s.advance(1)                                # the exact tick
    d = s.to_dict()
    assert d["phase"] == "timeout_discard" and d["complaints"] == 1 and s.clock.top == 0


def test_action_whose_cost_crosses_zero_happens_first_then_the_time_out(engine):
    _, s = load(engine, position(hands=[["SHM3", "EGG1"], ["XLB4", "EGG5"]],
                                 clock={"top": 30, "capacity": 1200, "lying": False}))
    act(s, "play Shumai 3 on table 6")
    d = s.to_dict()
    assert d["tables"][5]["slots"][3] == "SHM3" and d["active"] == 1
    assert d["phase"] == "timeout_discard" and d["discarder"] == 1 and d["resume"] == "play"


def test_time_out_everyone_may_discard_clockwise_from_active_then_full_glass(engine):
    # DSJ-5, DSJ-2, DSJ-6
    d = position(players=3, hands=[["SHM3", "EGG1"], ["XLB4", "EGG5"], ["RRL2"]], active=1,
                 required_table=4, clock={"top": 10, "capacity": 1200, "lying": False})
    _, s = load(engine, d)
    s.advance(10)
    assert s.current_player == 1
    act(s, "discard Egg Tarts 5")
    act(s, "done discarding")
    assert s.current_player == 2
    act(s, "done discarding")
    assert s.current_player == 0
    act(s, "done discarding")
    d = s.to_dict()
    assert d["phase"] == "play" and d["active"] == 1 and d["required_table"] == 4
    assert s.clock.top == 1200
    assert [len(h) for h in d["hands"]] == [5, 5, 5]  # everyone replenished up to 5
    assert "EGG5" in d["discard"] or "EGG5" in d["hands"][1]


def test_time_out_remainder_of_a_long_advance_is_dropped(engine):
    _, s = load(engine, position(hands=[["SHM3"], ["XLB4"]],
                                 clock={"top": 100, "capacity": 1200, "lying": False}))
    s.advance(700)
    assert s.clock.top == 0 and s.to_dict()["phase"] == "timeout_discard"
    act(s, "done discarding")
    act(s, "done discarding")
    assert s.clock.top == 1200


def test_third_complaint_from_a_time_out_loses(engine):
    _, s = load(engine, position(hands=[["SHM3"], ["XLB4"]], complaints=2,
                                 clock={"top": 5, "capacity": 1200, "lying": False}))
    s.advance(5)
    assert s.is_terminal and s.outcome.reason == "complaints" and s.returns() == (0.0, 0.0)


def test_apply_may_charge_its_own_tick_cost(engine):
    _, s = load(engine, position(hands=[["SHM3"], ["XLB4"]]))
    act(s, "play Shumai 3 on table 6", ticks=7)
    assert s.clock.top == 1193


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (1.5, TypeError), ("3", TypeError),
                                        (10 ** 9, ValueError), (True, TypeError)])
def test_bad_ticks_are_rejected_and_the_state_is_unchanged(engine, bad, error):
    _, s = load(engine, position(hands=[["SHM3"], ["XLB4"]]))
    before = s.to_dict()
    with pytest.raises(error):
        s.apply(s.parse_action("play Shumai 3 on table 6"), ticks=bad)
    with pytest.raises(error):
        s.advance(bad)
    assert s.to_dict() == before


def test_team_decision_costs_no_time_by_default(engine):
    _, s = load(engine, _almost_full_table_6(clock={"top": 600, "capacity": 1200, "lying": False}))
    act(s, "play Shumai 3 on table 6")
    act(s, "take exotic tea")
    assert s.clock.top == 550


def test_flip_as_the_sand_runs_out_saves_the_team(engine):
    # the glass is judged as the action left it: a flip whose decision time empties the glass
    _, s = load(engine, _almost_full_table_6(clock={"top": 60, "capacity": 1200, "lying": False}))
    act(s, "play Shumai 3 on table 6")           # 10 left
    act(s, "flip the glass", ticks=10)           # 0, then flipped: 1200
    assert s.clock.top == 1200 and s.to_dict()["complaints"] == 0


def test_flipping_a_fresh_glass_leaves_no_time_and_times_out(engine):
    # DSJ-1 consequence: a flip right after a flip gives (almost) nothing
    d = _almost_full_table_6()
    _, s = load(engine, d, ticks_per_action=0)
    act(s, "play Shumai 3 on table 6")
    act(s, "flip the glass")
    # time is off: no time-out even though the physical glass now shows an empty top
    assert s.clock.top == 0 and s.to_dict()["complaints"] == 0
    _, s = load(engine, _almost_full_table_6(), ticks_per_action=1)
    act(s, "play Shumai 3 on table 6", ticks=0)   # the glass is still full
    act(s, "flip the glass")
    assert s.to_dict()["phase"] == "timeout_discard" and s.to_dict()["complaints"] == 1


# ---------------------------------------------------------------------------------------------
# The stuck player (case III, DSJ-7, DSJ-8, DSJ-9)

def _make_player_1_stuck(**fields):
    # player 0 plays Shumai 3; player 1 holds no Xiaolongbao/Egg/Rice Roll/Shumai for table 3
    return position(hands=[["SHM3", "EGG1"], ["SPR4", "PCH5"]], **fields)


def test_stuck_player_lays_the_glass_down_and_takes_a_complaint(engine):
    _, s = load(engine, _make_player_1_stuck(clock={"top": 700, "capacity": 1200, "lying": False}))
    act(s, "play Shumai 3 on table 6")
    d = s.to_dict()
    assert d["phase"] == "stuck_discard" and s.current_player == 1
    assert d["complaints"] == 1 and s.clock.lying_down and s.clock.top == 650
    assert names(s) == ["discard Longevity Peach Bun 5", "discard Spring Rolls 4", "done discarding"]


def test_glass_lying_down_is_frozen(engine):
    _, s = load(engine, _make_player_1_stuck())
    act(s, "play Shumai 3 on table 6")
    s.advance(500)
    assert s.clock.top == 1150 and s.clock.lying_down


def test_stuck_player_discards_replenishes_and_stands_the_glass_on_either_side(engine):
    _, s = load(engine, _make_player_1_stuck(clock={"top": 700, "capacity": 1200, "lying": False}))
    act(s, "play Shumai 3 on table 6")
    act(s, "discard Spring Rolls 4")
    act(s, "done discarding")
    d = s.to_dict()
    assert len(d["hands"][1]) == 5 and "SPR4" not in d["hands"][1] and "SPR4" in d["discard"]
    assert d["phase"] == "stand"
    assert names(s) == ["stand the glass: same side up", "stand the glass: other side up"]
    t = s.clone()
    act(s, "stand the glass: same side up")
    assert s.clock.top == 650 and not s.clock.lying_down
    act(t, "stand the glass: other side up")
    assert t.clock.top == 550


def test_stuck_player_then_makes_a_free_play_on_any_table(engine):
    _, s = load(engine, _make_player_1_stuck())
    act(s, "play Shumai 3 on table 6")
    act(s, "done discarding")
    act(s, "stand the glass: same side up")
    d = s.to_dict()
    assert d["phase"] == "play" and d["required_table"] == 0 and s.current_player == 1
    tables = {n.rsplit(" ", 1)[1] for n in names(s) if n.startswith("play")}
    assert len(tables) > 1


# Seven tables whose only empty icon is Shumai (cards 3 6 8 12 14 17 22 all end with SHM).
SHUMAI_TABLES = {1: (3, ["XLB3", "EGG3", "RRL3", None]), 2: (6, ["XLB4", "EGG4", "RDP4", None]),
                 3: (8, ["XLB5", "EGG5", "PCH5", None]), 4: (12, ["XLB6", "RRL4", "RDP5", None]),
                 5: (14, ["XLB7", "RRL5", "PCH4", None]), 6: (17, ["XLB1", "RDP6", "PCH6", None]),
                 7: (22, ["EGG6", "RRL6", "RDP7", None])}


def _standing_up_still_stuck(free_redraws, **fields):
    """Player 1 took the stuck rule, holds no Shumai, and is about to stand the glass."""
    return position(tables=SHUMAI_TABLES, active=1, phase="stand", stuck_complained=True,
                    complaints=1, free_redraws=free_redraws,
                    clock={"top": 600, "capacity": 1200, "lying": True}, **fields)


def test_still_stuck_player_redraws_without_another_complaint(engine):
    # DSJ-9: the rulebook's "rare case": discard and replenish again, no complaint
    _, s = load(engine, _standing_up_still_stuck(0, hands=[["SHM1"], ["EGG1"]]))
    act(s, "stand the glass: other side up")
    d = s.to_dict()
    assert d["active"] == 1 and d["phase"] == "stuck_discard" and d["free_redraws"] == 1
    assert d["complaints"] == 1 and s.clock.lying_down and s.clock.top == 600


def test_stuck_guard_passes_the_turn_after_the_free_redraws(engine):
    # DSJ-9 guard (max_free_redraws=3): the next player makes a free play, no complaint
    _, s = load(engine, _standing_up_still_stuck(3, hands=[["SHM1"], ["EGG1"]]))
    act(s, "stand the glass: same side up")
    d = s.to_dict()
    assert d["active"] == 0 and d["phase"] == "play" and d["required_table"] == 0
    assert d["complaints"] == 1 and d["free_redraws"] == 0 and d["stuck_complained"] is False
    assert names(s) == [f"play Shumai 1 on table {k}" for k in range(1, 8)]


def test_stuck_guard_passes_the_turn_when_a_redraw_cannot_change_the_hand(engine):
    # DSJ-9 guard: the hands hold every token not on a card, so bag and discard pile are empty
    others = [c for c in position(tables=SHUMAI_TABLES)["bag"] if not c.startswith("SHM")]
    shumai = [f"SHM{n}" for n in range(1, 8)]
    hands = [others[0:7], others[7:14], others[14:21], [], shumai]
    d = position(players=5, tables=SHUMAI_TABLES, hands=hands, active=1, phase="stand",
                 stuck_complained=True, complaints=1, clock={"top": 600, "capacity": 1200, "lying": True})
    assert d["bag"] == [] and d["discard"] == []
    _, s = load(engine, d, hand_limit=7)
    act(s, "stand the glass: same side up")
    d = s.to_dict()
    # player 1 passes with no complaint; player 2 (no Shumai) starts a new turn stuck: a complaint
    assert d["active"] == 2 and d["phase"] == "stuck_discard" and d["stuck_complained"] is True
    assert d["complaints"] == 2


def test_player_who_can_play_a_token_may_not_declare_stuck(engine):
    # DSJ-7
    _, s = load(engine, position(hands=[["EGG1"], ["XLB4"]], required_table=2, tea_reception=1,
                                 tea_supply=1))
    assert "cannot serve: lay the glass down" not in names(s)


def test_player_whose_only_play_is_tea_may_take_the_stuck_rule(engine):
    # DSJ-7: using tea is optional
    _, s = load(engine, position(hands=[["SPR1"], ["XLB4"]], required_table=2, tea_reception=1,
                                 tea_supply=1))
    assert names(s)[-1] == "cannot serve: lay the glass down"
    act(s, "cannot serve: lay the glass down")
    d = s.to_dict()
    assert d["phase"] == "stuck_discard" and d["complaints"] == 1 and d["tea_reception"] == 1


def test_stuck_third_complaint_loses_at_once(engine):
    _, s = load(engine, _make_player_1_stuck(complaints=2))
    act(s, "play Shumai 3 on table 6")
    assert s.is_terminal and s.outcome.reason == "complaints"
    assert s.to_dict()["phase"] == "over" and s.current_player == -1


def test_cooperative_returns_are_shared(engine):
    _, s = load(engine, position(players=4, hands=[["SHM3"], [], [], []], required_table=6, deck="",
                                 tables={6: (36, ["EGG1", "RRL2", "RDP3", "PCH4", None, "SPR6"])}))
    act(s, "play Shumai 3 on table 6")
    assert s.returns() == (1.0,) * 4


def test_table_helper_builds_the_card_icons():
    assert table(36)["icons"] == ["EGG", "RRL", "RDP", "PCH", "SHM", "SPR"]
