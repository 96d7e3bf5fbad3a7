"""benchmarks/rollout_floor.cpp, the rollouts alone of benchmarks/mcts_per_action.py (the most a
search over the game could reach per simulated action): it plays the games dimsum.random_playouts
plays, decision for decision (the same deals, the same draws), through the loop IS-MCTS's random
rollouts run, so its time per decision is of the real rollouts and not of a cheaper loop."""

import pytest

import dimsum
from benchmarks.mcts_per_action import FLOOR_GAMES, build_rollout_floor, rollout_floor


@pytest.fixture(scope="module")
def floor_program(tmp_path_factory):
    # -O1: the games are checked here, not the speed (the wheels' tests build it under emulation too)
    executable = build_rollout_floor(tmp_path_factory.mktemp("rollout_floor"), optimize="-O1")
    if executable is None:
        pytest.skip("no C++ compiler ($CXX, g++, clang++ or c++) to build benchmarks/rollout_floor.cpp")
    return executable


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("game_name", sorted(FLOOR_GAMES))
def test_the_floor_plays_random_playouts_games(floor_program, game_name, players):
    seed = 20261203 + players
    games = FLOOR_GAMES[game_name]
    per_decision_cpu, per_decision_wall, decisions_per_game = rollout_floor(floor_program, game_name, players, seed)
    _, lengths = dimsum.random_playouts(dimsum.make(game_name, players=players), games, seed=seed)
    assert decisions_per_game * games == pytest.approx(int(lengths.sum()), abs=0.5)
    assert per_decision_cpu > 0 and per_decision_wall > 0
