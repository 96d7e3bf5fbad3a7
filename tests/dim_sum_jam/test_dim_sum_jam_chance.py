"""Dim Sum Jam with explicit chance (chance="explicit"): every random event is a chance node
(docs/rules/dim_sum_jam.md section 11). The probabilities below are computed by hand from the
position, never read from the engine; both engines unless a test says otherwise.

Also here: the DSJ-22 ruling (a time-out that interrupts the reward), ``ending`` and
``observation_labels``."""

from fractions import Fraction as F

import pytest

import dimsum
from dimsum import IllegalActionError
from dimsum.games.dim_sum_jam import TOKEN_CODES, TOKEN_NAMES
from dimsum.reference.rng import Rng
from dsj_positions import act, load, names, position

GAME = "dim_sum_jam"
EXPLICIT = dict(chance="explicit")
BACK_R, BACK_V = 49 + 41, 49 + 41 + 1  # the default cards: 41 (ids 0-40, numbers 1-41)
SEAT = 49 + 41 + 2


def card_outcome(number):
    return 49 + number - 1  # default cards: card id = number - 1


def outcomes(state):
    """{outcome name: probability}, exact."""
    return {state.action_name(o): p for o, p in state.chance_outcomes(exact=True)}


def first(state, name):
    """Applies the chance outcome (or action) called ``name``."""
    state.apply(state.parse_action(name))


def to_setup_event(state, event):
    """Resolves chance nodes with their first outcome until the pending event is ``event``."""
    while state.to_dict().get("chance") != event:
        state.apply(state.legal_actions()[0])


# ---------------------------------------------------------------------------------------------
# The outcome space

def test_chance_outcome_ids_are_tokens_cards_backs_then_seats():
    for options in (dict(players=2), dict(players=5, extra_vips=3, chance="explicit")):
        game = dimsum.make(GAME, **options)
        assert game.num_chance_outcomes == 49 + 41 + 2 + game.players <= game.num_actions
        assert game.chance_outcome_name(0) == "draw Xiaolongbao 1"
        assert game.chance_outcome_name(48) == f"draw {TOKEN_NAMES[48]}" == "draw Spring Rolls 7"
        assert game.chance_outcome_name(49) == "turn up card 1"
        assert game.chance_outcome_name(89) == "turn up card 41"
        assert game.chance_outcome_name(BACK_R) == "shuffle a regular back"
        assert game.chance_outcome_name(BACK_V) == "shuffle a VIP back"
        assert [game.chance_outcome_name(SEAT + p) for p in range(game.players)] == [
            f"seat {p} starts" for p in range(game.players)]


def test_a_sampled_game_never_stops_at_a_chance_node():
    game = dimsum.make(GAME, players=3)
    s = game.new_state(4)
    while not s.is_terminal:
        assert not s.is_chance_node and "chance" not in s.to_dict()
        with pytest.raises(ValueError, match="not a chance node"):
            s.chance_outcomes()
        s.apply(s.legal_actions()[0])


# ---------------------------------------------------------------------------------------------
# The set-up (rulebook steps 4-10): the shuffle, the table cards, the start player, the deal

def test_setup_shuffle_of_the_extra_vips_places_one_back_per_position_by_the_backs_left(engine):
    # silver-3: 10 regular + 2 VIP backs in the top section; Fisher-Yates fills positions 11..1
    # from the backs not yet placed, position 0 takes the last one
    s = engine(GAME, players=3, extra_vips=2, **EXPLICIT).new_state(5)
    assert s.is_chance_node and s.current_player == dimsum.CHANCE
    d = s.to_dict()
    assert d["chance"] == "setup_shuffle" and d["deck"] == "?" * 12 + "V" + "RRRRR"
    assert outcomes(s) == {"shuffle a regular back": F(10, 12), "shuffle a VIP back": F(2, 12)}
    first(s, "shuffle a VIP back")
    assert s.to_dict()["deck"] == "?" * 11 + "V" + "V" + "RRRRR"
    assert outcomes(s) == {"shuffle a regular back": F(10, 11), "shuffle a VIP back": F(1, 11)}
    first(s, "shuffle a regular back")
    assert outcomes(s) == {"shuffle a regular back": F(9, 10), "shuffle a VIP back": F(1, 10)}
    first(s, "shuffle a VIP back")  # both VIPs placed: only regular backs are left
    nodes = 3
    while s.to_dict()["chance"] == "setup_shuffle":
        assert outcomes(s) == {"shuffle a regular back": 1}
        first(s, "shuffle a regular back")
        nodes += 1
    assert nodes == 11  # 12 positions, the last needs no draw
    d = s.to_dict()
    assert d["deck"] == "R" * 9 + "VRV" + "V" + "RRRRR" and d["chance"] == "setup_card"


@pytest.mark.parametrize("extra", [1, 2, 3])
def test_setup_shuffle_makes_every_arrangement_of_the_top_backs_equally_likely(extra):
    # the whole chance tree of the shuffle, exactly: like Fisher-Yates, every placement of the
    # `extra` VIP backs among the 10 + extra positions has probability 1 / C(10 + extra, extra)
    from math import comb

    game = dimsum.make(GAME, players=2, extra_vips=extra, **EXPLICIT)
    leaves = {}

    def walk(state, p):
        if state.to_dict()["chance"] != "setup_shuffle":
            top = state.to_dict()["deck"][:10 + extra]
            leaves[top] = leaves.get(top, 0) + p
            return
        for o, q in state.chance_outcomes(exact=True):
            child = state.clone()
            child.apply(o)
            walk(child, p * q)

    walk(game.new_state(0), F(1))
    assert len(leaves) == comb(10 + extra, extra)
    assert set(leaves.values()) == {F(1, comb(10 + extra, extra))}
    assert all(top.count("V") == extra for top in leaves)


def test_setup_without_extra_vips_has_no_shuffle_and_turns_up_regular_cards_from_table_1(engine):
    s = engine(GAME, players=2, **EXPLICIT).new_state(0)
    d = s.to_dict()
    assert d["chance"] == "setup_card" and d["deck"] == "RRRRRRRRRRVRRRRR"
    assert all(t["card"] is None for t in d["tables"])
    for k in range(7):  # one card at a time, table 1 first, uniform over the unseen regular cards
        probs = outcomes(s)
        assert set(probs.values()) == {F(1, 35 - k)} and len(probs) == 35 - k
        first(s, f"turn up card {20 + k}")
        d = s.to_dict()
        assert [t["card"] for t in d["tables"]] == [20 + j for j in range(k + 1)] + [None] * (6 - k)
    assert d["deck"] == "RRRVRRRRR" and d["chance"] == "setup_seat"


def test_setup_card_behind_a_vip_back_is_one_of_the_vip_cards(engine):
    # copper-2: a VIP back shuffled to the top is turned up onto table 1 as one of the 6 VIPs
    s = engine(GAME, players=2, extra_vips=1, **EXPLICIT).new_state(0)
    for _ in range(10):
        first(s, "shuffle a regular back")  # positions 10..1; position 0 takes the VIP
    assert s.to_dict()["deck"][:11] == "V" + "R" * 10
    assert outcomes(s) == {f"turn up card {n}": F(1, 6) for n in range(36, 42)}


def test_setup_start_player_is_one_seat_each_equally_likely(engine):
    s = engine(GAME, players=4, **EXPLICIT).new_state(1)
    to_setup_event(s, "setup_seat")
    assert outcomes(s) == {f"seat {p} starts": F(1, 4) for p in range(4)}
    first(s, "seat 2 starts")
    d = s.to_dict()
    assert d["active"] == 2 and d["chance"] == "setup_deal"


def test_setup_deal_is_a_sequence_of_single_draws_from_the_bag_seat_0_first(engine):
    s = engine(GAME, players=3, hand_limit=4, **EXPLICIT).new_state(2)
    to_setup_event(s, "setup_seat")
    first(s, "seat 1 starts")
    for k in range(12):  # 3 seats x 4 tokens, one chance node each
        assert s.is_chance_node and s.to_dict()["chance"] == "setup_deal"
        probs = outcomes(s)
        assert len(probs) == 49 - k and set(probs.values()) == {F(1, 49 - k)}
        t = TOKEN_CODES[48 - k]
        first(s, f"draw {TOKEN_NAMES[48 - k]}")
        hands = s.to_dict()["hands"]
        assert t in hands[k // 4] and [len(h) for h in hands] == [min(4, max(0, k + 1 - 4 * p)) for p in range(3)]
    # after the last token of the deal the start player plays on any table (step 11)
    d = s.to_dict()
    assert not s.is_chance_node and "chance" not in d and s.current_player == 1
    assert d["phase"] == "play" and d["required_table"] == 0 and len(d["bag"]) == 49 - 12


def test_explicit_setup_reaches_the_sampled_opening_when_given_the_sampled_draws():
    # the sampled set-up's draws, replayed as outcomes, give the very same opening position
    for options in (dict(players=3), dict(players=5, extra_vips=3, hand_limit=4)):
        sampled = dimsum.make(GAME, **options).new_state(11).to_dict()
        s = dimsum.make(GAME, **options, **EXPLICIT).new_state(11)
        top = _sampled_top_section(options, sampled)
        while s.to_dict().get("chance") == "setup_shuffle":
            pos = s.to_dict()["deck"].count("?") - 1
            first(s, "shuffle a VIP back" if top[pos] == "V" else "shuffle a regular back")
        for t in sampled["tables"]:
            first(s, f"turn up card {t['card']}")
        first(s, f"seat {sampled['active']} starts")
        for hand in sampled["hands"]:
            for code in sorted(hand, key=TOKEN_CODES.index):
                first(s, f"draw {TOKEN_NAMES[TOKEN_CODES.index(code)]}")
        got = s.to_dict()
        assert {k: v for k, v in got.items() if k != "rng"} == {k: v for k, v in sampled.items() if k != "rng"}


def _sampled_top_section(options, sampled):
    """The top section's backs of a sampled opening: the 7 dealt cards' kinds, then its deck."""
    kinds = "".join("V" if t["card"] >= 36 else "R" for t in sampled["tables"])
    return (kinds + sampled["deck"])[:10 + options.get("extra_vips", 0)]


# ---------------------------------------------------------------------------------------------
# In play: the draw after a play, the card after a fulfilment, the draw after the reward, the
# replenish after discarding

def test_draw_after_a_play_is_one_node_over_the_bag_then_the_turn_passes(engine):
    d = position(hands=[["SHM3", "EGG1"], ["XLB4"]], bag=["XLB1", "XLB2", "SPR7"], leftover="discard")
    _, s = load(engine, d, **EXPLICIT)
    act(s, "play Shumai 3 on table 6")
    got = s.to_dict()
    assert s.is_chance_node and got["chance"] == "draw" and got["active"] == 0 and got["required_table"] == 3
    assert outcomes(s) == {"draw Xiaolongbao 1": F(1, 3), "draw Xiaolongbao 2": F(1, 3), "draw Spring Rolls 7": F(1, 3)}
    first(s, "draw Spring Rolls 7")
    got = s.to_dict()
    assert got["hands"][0] == ["EGG1", "SPR7"] and got["active"] == 1 and got["required_table"] == 3
    assert s.current_player == 1 and "chance" not in got


def test_draw_from_an_empty_bag_takes_the_discard_pile_first(engine):
    # DSJ-17: the bag is empty, the other 46 tokens are in the discard pile; they are the outcomes
    d = position(hands=[["SHM3", "EGG1"], ["XLB4"]], leftover="discard")
    assert d["bag"] == [] and len(d["discard"]) == 46
    _, s = load(engine, d, **EXPLICIT)
    act(s, "play Shumai 3 on table 6")
    got = s.to_dict()
    assert got["chance"] == "draw" and got["discard"] == [] and got["bag"] == d["discard"]
    assert outcomes(s) == {f"draw {TOKEN_NAMES[TOKEN_CODES.index(t)]}": F(1, 46) for t in d["discard"]}


def test_card_turned_up_after_a_fulfilment_then_the_reward_then_the_draw(engine):
    # table 6 (card 6) has three of its four icons served; the deck's top back is regular
    d = position(hands=[["SHM3", "EGG1"], ["XLB4"]], required_table=6,
                 tables={6: (6, ["XLB1", "EGG2", "RDP3", None])})
    _, s = load(engine, d, **EXPLICIT)
    act(s, "play Shumai 3 on table 6")
    got = s.to_dict()
    assert got["chance"] == "card" and got["tables"][5]["card"] is None and got["deck"] == "RRRVRRRRR"
    assert got["phase"] == "play" and got["draw_pending"] and got["required_table"] == 3
    # unseen regular cards: 35 minus the 6 on tables 1-5 and 7, minus card 6 (out)
    assert outcomes(s) == {f"turn up card {n}": F(1, 28) for n in range(8, 36)}
    first(s, "turn up card 30")
    got = s.to_dict()
    assert got["tables"][5]["card"] == 30 and got["deck"] == "RRVRRRRR" and got["phase"] == "reward"
    assert s.current_player == 0 and names(s) == ["flip the glass", "take exotic tea"]
    act(s, "take exotic tea")
    got = s.to_dict()  # the reward's draw: the bag is every token not on a card or in a hand
    assert got["chance"] == "draw" and got["active"] == 0 and not got["draw_pending"]
    assert set(outcomes(s).values()) == {F(1, len(got["bag"]))}
    first(s, f"draw {TOKEN_NAMES[TOKEN_CODES.index(got['bag'][0])]}")
    got = s.to_dict()
    assert got["active"] == 1 and got["required_table"] == 3 and len(got["hands"][0]) == 2


def test_card_behind_a_vip_back_after_a_fulfilment_is_one_of_the_unseen_vips(engine):
    d = position(hands=[["SHM3", "EGG1"], ["XLB4"]], required_table=6, deck="VRRRRR",
                 tables={1: (36, None), 6: (6, ["XLB1", "EGG2", "RDP3", None])})
    _, s = load(engine, d, **EXPLICIT)
    act(s, "play Shumai 3 on table 6")
    assert outcomes(s) == {f"turn up card {n}": F(1, 5) for n in range(37, 42)}


def test_replenish_after_a_time_out_is_one_node_per_token(engine):
    d = position(players=2, hands=[["SHM3", "EGG1"], ["XLB4", "EGG5", "RRL2"]], active=1, required_table=4,
                 clock={"top": 10, "capacity": 1200, "lying": False})
    _, s = load(engine, d, timeout_discard="active_player", **EXPLICIT)
    s.advance(10)
    act(s, "discard Egg Tarts 5")
    bag = len(s.to_dict()["bag"])
    act(s, "done discarding")
    for k in range(3):  # XLB4, RRL2 kept: 3 tokens back up to 5
        got = s.to_dict()
        assert got["chance"] == "refill" and got["phase"] == "timeout_discard" and len(got["hands"][1]) == 2 + k
        assert set(outcomes(s).values()) == {F(1, bag - k)}
        s.apply(s.legal_actions()[-1])
    got = s.to_dict()  # then the glass is flipped and the interrupted turn resumes (DSJ-2, DSJ-6)
    assert "chance" not in got and got["phase"] == "play" and got["active"] == 1 and s.clock.top == 1200
    assert len(got["hands"][1]) == 5


def test_replenish_after_the_stuck_rule_is_one_node_per_token_then_the_stand(engine):
    # player 0 plays Shumai 3 and draws; player 1 holds nothing for table 3 and is stuck
    d = position(hands=[["SHM3", "EGG1"], ["SPR4", "PCH5"]])
    _, s = load(engine, d, **EXPLICIT)
    act(s, "play Shumai 3 on table 6")
    first(s, "draw Xiaolongbao 1")  # bag: 45 - 1
    got = s.to_dict()
    assert got["phase"] == "stuck_discard" and got["complaints"] == 1 and s.current_player == 1
    act(s, "discard Spring Rolls 4")
    act(s, "done discarding")
    for k in range(4):  # PCH5 kept: 4 tokens, one node each, from the 44 in the bag
        got = s.to_dict()
        assert got["chance"] == "refill" and got["phase"] == "stuck_discard" and s.clock.lying_down
        assert set(outcomes(s).values()) == {F(1, 44 - k)}
        s.apply(s.legal_actions()[0])
    got = s.to_dict()
    assert got["phase"] == "stand" and len(got["hands"][1]) == 5 and s.current_player == 1


# ---------------------------------------------------------------------------------------------
# Time at chance nodes

def test_a_chance_node_takes_no_time(engine):
    d = position(hands=[["SHM3", "EGG1"], ["XLB4"]], clock={"top": 500, "capacity": 1200, "lying": False})
    _, s = load(engine, d, **EXPLICIT)
    act(s, "play Shumai 3 on table 6", ticks=100)
    assert s.is_chance_node and s.clock.top == 400
    before = s.to_dict()
    with pytest.raises(ValueError, match="takes no time"):  # time cannot be charged to chance
        s.apply(s.legal_actions()[0], ticks=300)
    assert s.to_dict() == before
    s.apply(s.legal_actions()[0], ticks=0)
    assert s.clock.top == 400 and s.timeline[-1] == (s.history[-1], 0)


def test_advance_is_refused_at_a_chance_node_with_the_state_unchanged(engine):
    _, s = load(engine, position(hands=[["SHM3", "EGG1"], ["XLB4"]]), **EXPLICIT)
    act(s, "play Shumai 3 on table 6")
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.advance(10)
    assert s.to_dict() == before


def test_the_time_out_of_a_play_that_empties_the_glass_follows_its_draw(engine):
    d = position(hands=[["SHM3", "EGG1"], ["XLB4"]], clock={"top": 30, "capacity": 1200, "lying": False})
    _, s = load(engine, d, **EXPLICIT)
    act(s, "play Shumai 3 on table 6")  # 50 ticks: the glass is empty, the draw comes first
    got = s.to_dict()
    assert got["chance"] == "draw" and got["phase"] == "play" and s.clock.top == 0 and got["complaints"] == 0
    s.apply(s.legal_actions()[0])
    got = s.to_dict()
    assert got["phase"] == "timeout_discard" and got["complaints"] == 1 and got["discarder"] == 1


# ---------------------------------------------------------------------------------------------
# Bad input at a chance node: refused, the state unchanged

def _draw_node(engine):
    d = position(hands=[["SHM3", "EGG1"], ["XLB4"]], bag=["XLB1", "SPR7"], leftover="discard")
    _, s = load(engine, d, **EXPLICIT)
    act(s, "play Shumai 3 on table 6")
    assert s.legal_actions() == [0, 48]
    return s


@pytest.mark.parametrize("bad, error", [
    (1, IllegalActionError),                 # a token that is not in the bag
    (49, IllegalActionError),                # a card: not this node's kind
    (392, IllegalActionError),               # a player's action (flip the glass)
    (SEAT, IllegalActionError),              # a seat
    (-1, ValueError), (448, ValueError), (10 ** 9, ValueError),
    ("0", TypeError), (1.0, TypeError), (None, TypeError),
])
def test_a_bad_outcome_is_refused_with_the_state_unchanged(engine, bad, error):
    s = _draw_node(engine)
    before = s.to_dict()
    raw = s.to_bytes() if engine.kind == "core" else None
    with pytest.raises(error):
        s.apply(bad)
    assert s.to_dict() == before and s.is_chance_node
    if raw is not None:
        assert s.to_bytes() == raw


def test_a_bad_outcome_name_is_refused(engine):
    s = _draw_node(engine)
    with pytest.raises(ValueError):
        s.parse_action("flip the glass")  # a player's action is not an outcome's name
    assert s.parse_action("draw Spring Rolls 7") == 48 and s.action_name(48) == "draw Spring Rolls 7"


# ---------------------------------------------------------------------------------------------
# States from outside, copies, resampling

def test_a_pending_chance_event_in_a_sampled_game_is_refused():
    s = _draw_node(lambda *a, **k: dimsum.make(*a, **k))
    d = s.to_dict()
    with pytest.raises(ValueError, match="chance"):
        dimsum.make(GAME, players=2).state_from_dict(d)
    assert dimsum.make(GAME, players=2, **EXPLICIT).state_from_dict(d) == s


@pytest.mark.parametrize("change, field", [
    (dict(chance="card"), "chance"),            # no table waits for a card
    (dict(chance="refill"), "chance"),          # not discarding
    (dict(chance="setup_deal"), "chance"),      # the game is under way
    (dict(chance="bogus"), "chance"),
    (dict(deck="R?RVRRRRR"), "deck"),           # '?' only on top
    (dict(deck="??RVRRRRR"), "shuffle_left"),   # no shuffle pending
])
def test_an_inconsistent_chance_event_is_refused(change, field):
    s = _draw_node(lambda *a, **k: dimsum.make(*a, **k))
    d = {**s.to_dict(), **change}
    with pytest.raises(ValueError, match=field):
        dimsum.make(GAME, players=2, **EXPLICIT).state_from_dict(d)


def test_every_setup_node_round_trips_through_its_dict_and_bytes():
    game = dimsum.make(GAME, players=3, extra_vips=2, **EXPLICIT)
    s = game.new_state(9)
    while s.is_chance_node:
        assert game.state_from_dict(s.to_dict()) == s and game.state_from_bytes(s.to_bytes()) == s
        s.check()
        s.apply(s.legal_actions()[-1])


def test_resample_and_reseeded_clones_stay_at_the_same_chance_node():
    s = _draw_node(lambda *a, **k: dimsum.make(*a, **k))
    for copy in (s.resample(0, 123), s.clone(seed=5)):
        assert copy.is_chance_node and copy.chance_outcomes() == s.chance_outcomes()
        assert {k: v for k, v in copy.to_dict().items() if k != "rng"} == \
            {k: v for k, v in s.to_dict().items() if k != "rng"}


def test_the_observation_at_a_chance_node_shows_no_player_to_act():
    game = dimsum.make(GAME, players=3, extra_vips=1, **EXPLICIT)
    s = game.new_state(0)
    layout = {sl.name: sl for sl in game.observation_layout}
    cur, backs = layout["current_player"], layout["deck_backs"]
    obs = s.observation(0)
    assert not obs[cur.start:cur.stop].any()
    # positions not yet shuffled show no back: only the VIP and the bottom section are known
    assert obs[backs.start:backs.stop].sum() == 6


def test_explicit_games_stay_within_max_game_length():
    for options in (dict(players=2, glass_ticks=300), dict(players=5, extra_vips=3, glass_ticks=250)):
        game = dimsum.make(GAME, **options, **EXPLICIT)
        sampled = dimsum.make(GAME, **options)
        assert game.max_game_length > sampled.max_game_length
        for seed in range(20):
            s, rng, steps = game.new_state(seed), Rng(seed), 0
            while not s.is_terminal:
                legal = s.legal_actions()
                s.apply(legal[rng.bounded(len(legal))])
                steps += 1
            assert steps <= game.max_game_length


# ---------------------------------------------------------------------------------------------
# DSJ-22: a time-out that interrupts the team's reward decision

def _fulfil_as_the_glass_runs_out(engine, **options):
    # the play that fulfils table 6 costs the glass's last 50 ticks; no tea in the supply
    d = position(hands=[["SHM3", "EGG1"], ["XLB4"]], required_table=6, tea_supply=0, tea_reception=2, complaints=1,
                 tables={6: (6, ["XLB1", "EGG2", "RDP3", None])},
                 clock={"top": 50, "capacity": 1200, "lying": False})
    _, s = load(engine, d, timeout_discard="active_player", **options)
    act(s, "play Shumai 3 on table 6")
    got = s.to_dict()
    assert got["phase"] == "timeout_discard" and got["resume"] == "reward" and got["complaints"] == 2
    act(s, "done discarding")
    return s


def test_dsj22_the_interrupted_reward_is_chosen_before_the_time_outs_flip_one_complaint(engine):
    s = _fulfil_as_the_glass_runs_out(engine)
    got = s.to_dict()  # the reward waits with the glass still empty, its flip owed
    assert got["phase"] == "reward" and got["resume"] == "reward" and s.clock.top == 0
    assert names(s) == ["flip the glass"] and s.current_player == 0
    act(s, "flip the glass")  # the empty glass turns full: the reward's flip is the time-out's
    got = s.to_dict()
    assert got["complaints"] == 2 and s.clock.top == 1200 and got["phase"] == "play" and got["active"] == 1
    assert got["resume"] is None and not s.is_terminal


def test_dsj22_a_tea_reward_then_the_time_outs_flip_fills_the_glass(engine):
    d = position(hands=[["SHM3", "EGG1"], ["XLB4"]], required_table=6, tea_supply=1, tea_reception=1,
                 tables={6: (6, ["XLB1", "EGG2", "RDP3", None])},
                 clock={"top": 50, "capacity": 1200, "lying": False})
    _, s = load(engine, d, timeout_discard="active_player")
    act(s, "play Shumai 3 on table 6")
    act(s, "done discarding")
    act(s, "take exotic tea")
    got = s.to_dict()
    assert got["complaints"] == 1 and s.clock.top == 1200 and got["tea_reception"] == 2 and got["active"] == 1


def test_dsj22_option_timeout_first_flips_first_so_the_forced_flip_is_a_second_complaint(engine):
    s = _fulfil_as_the_glass_runs_out(engine, interrupted_reward="timeout_first")
    got = s.to_dict()
    assert got["phase"] == "reward" and got["resume"] is None and s.clock.top == 1200
    act(s, "flip the glass")  # a full glass flipped is empty: the third complaint loses
    assert s.is_terminal and s.outcome.reason == "complaints" and s.to_dict()["complaints"] == 3


def test_dsj22_with_explicit_chance_the_card_comes_before_the_time_out(engine):
    d = position(hands=[["SHM3", "EGG1"], ["XLB4"]], required_table=6, tea_supply=0, tea_reception=2,
                 tables={6: (6, ["XLB1", "EGG2", "RDP3", None])},
                 clock={"top": 50, "capacity": 1200, "lying": False})
    _, s = load(engine, d, timeout_discard="active_player", **EXPLICIT)
    act(s, "play Shumai 3 on table 6")
    assert s.to_dict()["chance"] == "card" and s.to_dict()["complaints"] == 0
    first(s, "turn up card 20")
    got = s.to_dict()
    assert got["phase"] == "timeout_discard" and got["resume"] == "reward" and got["complaints"] == 1


# ---------------------------------------------------------------------------------------------
# ending and observation_labels (dimsum.games.dim_sum_jam)

def test_ending_names_every_way_a_game_ends():
    from dimsum._views import outcome

    game = dimsum.make(GAME, players=3, ticks_per_action=0)
    seen = {}
    for seed in range(200):
        s, rng = game.new_state(seed), Rng(seed)
        while not s.is_terminal:
            legal = s.legal_actions()
            plays = [a for a in legal if a < 392]  # playing when possible reaches the deck's end
            s.apply((plays or legal)[rng.bounded(len(plays or legal))])
        o = outcome(s)
        seen[o.reason] = o
        assert o.returns == s.returns()
        if len(seen) == 3:
            break
    assert set(seen) <= {"team_win", "deck_out", "complaints"} and {"deck_out", "complaints"} <= set(seen)
    assert seen["complaints"].winners == () and "complaint" in seen["complaints"].description
    assert seen["deck_out"].winners == () and "deck" in seen["deck_out"].description


def test_ending_of_a_win_names_every_seat_a_winner(engine):
    from dimsum.games.dim_sum_jam import ending

    d = position(hands=[["SHM3"], ["XLB4"]], required_table=6, deck="",
                 tables={6: (36, ["EGG1", "RRL2", "RDP3", "PCH4", None, "SPR6"])})
    game, s = load(engine, d)
    act(s, "play Shumai 3 on table 6")
    reason, text, winners = ending(game.spec, s.fields())
    assert (reason, winners) == ("team_win", (0, 1)) and "win" in text
    with pytest.raises(ValueError):
        ending(game.spec, game.new_state(0).fields())


@pytest.mark.parametrize("options", [dict(players=2), dict(players=5, extra_vips=3),
                                     dict(players=3, chance="explicit")])
def test_observation_labels_name_every_entry_of_every_slice(options):
    from dimsum.games.dim_sum_jam import observation_labels

    game = dimsum.make(GAME, **options)
    labels = observation_labels(game.spec)
    assert set(labels) == {sl.name for sl in game.observation_layout}
    for sl in game.observation_layout:
        assert len(labels[sl.name]) == sl.stop - sl.start, sl.name
    text = game.new_state(0).observation_string(0)
    assert "bag: " in text and "SHM" in text
