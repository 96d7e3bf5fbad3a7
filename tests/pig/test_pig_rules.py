"""One test (or more) per Pig rule of docs/rules/pig.md, on both engines."""

import random
from collections import Counter

import pytest

import dimsum

G = "pig"
ROLL, HOLD = 0, 1


def position(game, seed=0, **keys):
    """A position built from a readable dict: the opening of ``seed`` with ``keys`` changed."""
    d = game.new_state(seed).to_dict()
    d.update(keys)
    return game.state_from_dict(d)


def roll_until(state, outcome):
    """Explicit chance: roll, then the die shows ``outcome`` (its index: face outcome + 1)."""
    state.apply(ROLL)
    assert state.is_chance_node
    state.apply(outcome)


# -- PIG-1: set-up ------------------------------------------------------------------------------

def test_pig_1_seat_0_starts_with_every_score_at_0(engine):
    for chance in ("sampled", "explicit"):
        state = engine(G, players=3, chance=chance).new_state(5)
        d = state.to_dict()
        assert state.current_player == 0 and not state.is_chance_node
        assert d["scores"] == [0, 0, 0] and d["turn_total"] == 0 and d["moves"] == 0 and d["last_roll"] is None


@pytest.mark.parametrize("players", [2, 3, 7, 10])
def test_pig_1_two_to_ten_players(engine, players):
    game = engine(G, players=players)
    assert game.players == players and len(game.new_state(0).to_dict()["scores"]) == players


@pytest.mark.parametrize("players", [1, 11])
def test_pig_1_player_counts_outside_two_to_ten_are_refused(engine, players):
    with pytest.raises(ValueError, match="players"):
        engine(G, players=players)


def test_pig_1_defaults_are_openspiels(engine):
    game = engine(G)
    assert game.options == {"players": 2, "winscore": 100, "diceoutcomes": 6, "horizon": 1000, "piglet": False,
                            "chance": "sampled"}


# -- PIG-2: the die -----------------------------------------------------------------------------

def test_pig_2_every_face_is_equally_likely(engine):
    state = engine(G, chance="explicit").new_state(0)
    state.apply(ROLL)
    assert state.chance_outcomes() == [(o, pytest.approx(1 / 6)) for o in range(6)]
    assert [state.action_name(o) for o in range(6)] == [f"roll {f}" for f in range(1, 7)]


def test_pig_2_sampled_rolls_show_every_face(engine):
    game = engine(G)
    faces = Counter()
    for seed in range(300):
        state = game.new_state(seed)
        state.apply(ROLL)
        faces[state.to_dict()["last_roll"]] += 1
    assert set(faces) == {f"roll {f}" for f in range(1, 7)}
    assert min(faces.values()) > 25  # 50 expected each


@pytest.mark.parametrize("faces", [2, 20, 100])
def test_pig_2_a_die_of_n_faces(engine, faces):
    game = engine(G, diceoutcomes=faces, chance="explicit")
    state = game.new_state(0)
    state.apply(ROLL)
    assert state.legal_actions() == list(range(faces))
    assert game.num_actions == max(2, faces) and game.num_chance_outcomes == faces


# -- PIG-3: rolling -----------------------------------------------------------------------------

def test_pig_3_a_1_loses_the_turn_total_and_passes_the_turn(engine):
    game = engine(G, players=3, chance="explicit")
    state = position(game, moves=4, turn_total=9, last_roll="roll 5", scores=[10, 0, 0])
    roll_until(state, 0)
    d = state.to_dict()
    assert d["turn_total"] == 0 and d["scores"] == [10, 0, 0] and d["last_roll"] == "roll 1"
    assert state.current_player == 1 and d["turn_player"] == 1


def test_pig_3_another_face_adds_to_the_turn_total(engine):
    game = engine(G, chance="explicit")
    state = game.new_state(0)
    roll_until(state, 4)  # shows 5
    roll_until(state, 1)  # shows 2
    d = state.to_dict()
    assert d["turn_total"] == 7 and d["last_roll"] == "roll 2" and state.current_player == 0 and d["moves"] == 2


def test_pig_3_only_hold_once_holding_reaches_the_target(engine):
    game = engine(G)
    assert position(game, moves=30, scores=[90, 0], turn_total=9, last_roll="roll 4").legal_actions() == [ROLL, HOLD]
    assert position(game, moves=30, scores=[90, 0], turn_total=10, last_roll="roll 4").legal_actions() == [HOLD]


def test_pig_3_the_unused_action_ids_are_never_legal(engine):
    game = engine(G)
    assert [game.action_name(a) for a in range(6)] == ["roll", "hold", "unused 2", "unused 3", "unused 4", "unused 5"]
    state = game.new_state(0)
    with pytest.raises(dimsum.IllegalActionError):
        state.apply(2)


# -- PIG-4: holding -----------------------------------------------------------------------------

def test_pig_4_hold_banks_the_turn_total_and_passes_the_turn(engine):
    game = engine(G, players=3)
    state = position(game, moves=5, scores=[3, 4, 5], turn_total=12, turn_player=2, current_player=2,
                     last_roll="roll 6")
    state.apply(HOLD)
    d = state.to_dict()
    assert d["scores"] == [3, 4, 17] and d["turn_total"] == 0 and d["moves"] == 6
    assert state.current_player == 0 and d["turn_player"] == 0


def test_pig_4_a_hold_with_nothing_rolled_passes_the_turn(engine):
    state = engine(G).new_state(0)
    state.apply(HOLD)
    assert state.current_player == 1 and state.to_dict()["scores"] == [0, 0]


# -- PIG-5: the target --------------------------------------------------------------------------

def test_pig_5_reaching_the_target_wins(engine):
    game = engine(G, players=3)
    state = position(game, moves=60, scores=[60, 95, 80], turn_total=7, turn_player=1, current_player=1,
                     last_roll="roll 3")
    assert list(state.returns()) == [0.0, 0.0, 0.0]
    state.apply(HOLD)
    assert state.is_terminal and list(state.returns()) == [-0.5, 1.0, -0.5]
    assert state.to_dict()["turn_player"] == 2  # the turn passed, as OpenSpiel's
    assert state.outcome.reason == "target" and state.outcome.winners == (1,)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_pig_5_returns_are_zero_sum(engine, players):
    game = engine(G, players=players, winscore=25)
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_state(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        assert sum(state.returns()) == pytest.approx(0.0)
        assert sorted(state.returns())[-1] in (0.0, 1.0)
    assert game.min_return == -1 / (players - 1) and game.max_return == 1.0


# -- PIG-6: the horizon -------------------------------------------------------------------------

def test_pig_6_the_horizon_ends_the_game_with_no_winner(engine):
    game = engine(G, horizon=3)
    state = game.new_state(0)
    for _ in range(3):
        state.apply(HOLD)
    assert state.is_terminal and list(state.returns()) == [0.0, 0.0]
    assert state.outcome.reason == "horizon" and state.outcome.winners == ()
    assert game.max_game_length == 3


def test_pig_6_a_hold_that_reaches_the_target_at_the_horizon_wins(engine):
    game = engine(G, horizon=31)
    state = position(game, moves=30, scores=[98, 0], turn_total=4, last_roll="roll 4")
    state.apply(HOLD)
    assert state.is_terminal and list(state.returns()) == [1.0, -1.0]


def test_pig_6_a_roll_at_the_horizon_casts_no_die(engine):
    for chance in ("sampled", "explicit"):
        game = engine(G, horizon=2, chance=chance)
        state = game.new_state(0)
        state.apply(HOLD)
        rng_before = state.fields()["rng"]
        state.apply(ROLL)
        assert state.is_terminal and not state.is_chance_node
        assert state.fields()["rng"] == rng_before and state.to_dict()["last_roll"] is None
    assert engine(G, horizon=2, chance="explicit").max_game_length == 3


# -- PIG-7: piglet ------------------------------------------------------------------------------

def test_pig_7_piglet_adds_1_or_loses(engine):
    game = engine(G, piglet=True, chance="explicit")
    state = game.new_state(0)
    state.apply(ROLL)
    assert state.chance_outcomes() == [(0, pytest.approx(1 / 6)), (1, pytest.approx(5 / 6))]
    assert [state.action_name(o) for o in (0, 1)] == ["roll 1", "roll 2-6"]
    state.apply(1)
    roll_until(state, 1)
    assert state.to_dict()["turn_total"] == 2
    roll_until(state, 0)
    assert state.to_dict()["turn_total"] == 0 and state.current_player == 1
    assert game.num_actions == 2


def test_pig_7_sampled_piglet_loses_about_one_roll_in_six(engine):
    game = engine(G, piglet=True)
    lost = 0
    for seed in range(600):
        state = game.new_state(seed)
        state.apply(ROLL)
        lost += state.current_player == 1
    assert 60 < lost < 140  # 100 expected


# -- PIG-8: the heuristic -----------------------------------------------------------------------

def test_pig_8_heuristic_holds_at_20():
    import dimsum.bots

    game = dimsum.make(G)
    bot = dimsum.bots.make("heuristic", game, seed=1)
    assert bot.act(position(game, moves=4, turn_total=19, last_roll="roll 5")) == ROLL
    assert bot.act(position(game, moves=4, turn_total=20, last_roll="roll 5")) == HOLD
    assert bot.act(position(game, moves=30, scores=[97, 0], turn_total=3, last_roll="roll 3")) == HOLD


# -- states from outside ------------------------------------------------------------------------

@pytest.mark.parametrize("keys,field", [
    (dict(scores=[100, 100], current_player=-1), "scores"),
    (dict(turn_total=1, moves=1, last_roll="roll 2"), "turn_total"),
    (dict(turn_total=5, moves=1, last_roll="roll 1"), "turn_total"),
    (dict(scores=[40, 0], moves=3), "moves"),
    (dict(current_player=1), "current_player"),
    (dict(scores=[100, 0], turn_player=0, current_player=-1, moves=30), "scores"),
])
def test_positions_the_rules_cannot_reach_are_refused_naming_the_field(engine, keys, field):
    with pytest.raises(ValueError, match=field):
        position(engine(G), **keys)


def test_a_chance_node_in_a_sampled_game_is_refused(engine):
    with pytest.raises(ValueError, match="current_player"):
        position(engine(G), current_player=-2)
