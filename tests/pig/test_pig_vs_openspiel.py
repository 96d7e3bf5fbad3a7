"""dimsum's pig and OpenSpiel's pig are the same game: played in lockstep with explicit chance on
seeded random moves, they list the same legal actions (chance outcomes with the same
probabilities), have the same player to move, and pay the same returns, over OpenSpiel's
parameters (which are dimsum's option names)."""

import random

import pytest

import dimsum
from needs import need_module

pyspiel = need_module("pyspiel")

PARAMS = [
    {},
    {"players": 3},
    {"players": 10, "winscore": 30},
    {"players": 2, "winscore": 20, "diceoutcomes": 2},
    {"players": 4, "winscore": 50, "diceoutcomes": 20},
    {"players": 2, "winscore": 40, "piglet": True},
    {"players": 3, "horizon": 25},
    {"players": 2, "winscore": 30, "horizon": 40},
]


def play_in_lockstep(params, seed):
    ours = dimsum.make("pig", chance="explicit", **params).new_state(seed)
    theirs = pyspiel.load_game("pig", params).new_initial_state()
    rng = random.Random(seed)
    step = 0
    while True:
        where = f"params {params} seed {seed} step {step}"
        assert ours.is_terminal == theirs.is_terminal(), where
        assert ours.is_chance_node == theirs.is_chance_node(), where
        if ours.is_terminal:
            assert list(ours.returns()) == pytest.approx(theirs.returns()), where
            return step
        if ours.is_chance_node:
            actions, probs = zip(*theirs.chance_outcomes())
            assert [o for o, _ in ours.chance_outcomes()] == list(actions), where
            assert [p for _, p in ours.chance_outcomes()] == pytest.approx(probs), where
            action = rng.choices(actions, probs)[0]
        else:
            assert ours.current_player == theirs.current_player(), where
            assert ours.legal_actions() == list(theirs.legal_actions()), where
            assert ours.action_name(ours.legal_actions()[0]) == theirs.action_to_string(
                theirs.current_player(), theirs.legal_actions()[0]).replace("stop", "hold"), where
            action = rng.choice(ours.legal_actions())
        assert list(ours.returns()) == pytest.approx(theirs.returns()), where
        ours.apply(action)
        theirs.apply_action(action)
        step += 1


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "defaults")
def test_dimsum_and_openspiel_pig_agree_move_for_move(params):
    lengths = [play_in_lockstep(params, seed) for seed in range(40)]
    assert max(lengths) > 10


def test_the_games_declare_the_same_facts():
    ours, theirs = dimsum.make("pig"), pyspiel.load_game("pig")
    assert {k: v for k, v in ours.options.items() if k != "chance"} == theirs.get_parameters()
    assert ours.num_chance_outcomes == theirs.max_chance_outcomes()
    assert (ours.min_return, ours.max_return) == (theirs.min_utility(), theirs.max_utility())
    assert ours.max_game_length >= theirs.max_game_length()
    info, kind = dimsum.game_info("pig"), theirs.get_type()
    assert info.information == "perfect" and kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert info.utility == "zero_sum" and kind.utility == pyspiel.GameType.Utility.ZERO_SUM
