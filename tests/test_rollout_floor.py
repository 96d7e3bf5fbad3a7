"""benchmarks/rollout_floor.cpp, the rollouts alone of benchmarks/mcts_per_action.py (the most a
search over the game could reach per simulated action): it plays the games dimsum.random_playouts
plays, decision for decision (the same deals, the same draws, through the loop IS-MCTS's random
rollouts run), so its time per decision is of the real rollouts and not of a cheaper loop."""

import pytest

import dimsum
from benchmarks.mcts_per_action import FLOOR_GAMES, ROOT, rollout_floor
from cpp.core_hooks import build_check


@pytest.fixture(scope="module")
def floor_program(tmp_path_factory):
    # the tests' build (-O1): the games are checked here, not the speed
    return build_check(tmp_path_factory.mktemp("rollout_floor"), ROOT / "benchmarks" / "rollout_floor.cpp",
                       sorted(FLOOR_GAMES))


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("game_name", sorted(FLOOR_GAMES))
def test_the_floor_plays_random_playouts_games(floor_program, game_name, players):
    seed = 20261203 + players
    games = FLOOR_GAMES[game_name]
    per_decision_cpu, per_decision_wall, decisions_per_game = rollout_floor(floor_program, game_name, players, seed)
    _, lengths = dimsum.random_playouts(dimsum.make(game_name, players=players), games, seed=seed)
    assert decisions_per_game * games == pytest.approx(int(lengths.sum()), abs=0.5)
    assert per_decision_cpu > 0 and per_decision_wall > 0
