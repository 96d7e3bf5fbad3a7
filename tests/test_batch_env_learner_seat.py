"""BatchEnv's learner-seat mode (batch/opponent_env.hpp): step takes one seat's actions, the other
seats are played in C++ by a named opponent policy. The VectorEnv over it is tested against single
envs in tests/test_gymnasium_vector.py; this file checks the BatchEnv face itself."""

import numpy as np
import pytest

import dimsum
from dimsum import _batch
from dimsum.testing import profile



@pytest.mark.parametrize("name", dimsum.games())
def test_the_learner_is_always_to_act_and_rewards_are_its_own(name):
    game = dimsum.make(name, **{"players": 3, **profile(name).small})  # short games: some end in 300 steps
    env = dimsum.BatchEnv(game, num_envs=16, seed=4, threads=1, learner_seat=2)
    _, info = env.reset()
    assert (info["current_player"] == 2).all()
    ended = 0
    for k in range(300):
        _, rewards, terminated, truncated, info = env.step(env.sample_actions(k))
        assert rewards.shape == (16,) and rewards.dtype == np.float64
        assert (info["current_player"] == 2).all()
        expected = np.where(terminated, info["final_returns"][:, 2], 0.0)
        assert np.array_equal(rewards, expected)
        ended += int(terminated.sum())
    assert ended > 0


def test_each_env_may_have_its_own_learner_seat():
    game = dimsum.make("nice_buns", players=3)
    seats = [0, 1, 2, 1, 0]
    env = dimsum.BatchEnv(game, num_envs=5, seed=2, threads=1, learner_seat=seats)
    assert env.learner_seat == tuple(seats) and env.learner_seats.tolist() == seats
    for k in range(100):
        _, rewards, terminated, _, info = env.step(env.sample_actions(k))
        assert info["current_player"].tolist() == seats
        assert np.array_equal(rewards, np.where(terminated, info["final_returns"][np.arange(5), seats], 0.0))
    for bad, error in [([0, 1], ValueError), ([0, 1, 2, 3, 0], ValueError), ([0.0] * 5, TypeError),
                       ([-1, 0, 0, 0, 0], ValueError)]:
        with pytest.raises(error, match="learner_seat"):
            dimsum.BatchEnv(game, num_envs=5, learner_seat=bad)


def test_every_seat_mode_is_unchanged_by_default():
    game = dimsum.make("nice_buns", players=3)
    env = dimsum.BatchEnv(game, num_envs=4, seed=1, threads=1)
    assert env.learner_seat is None and env.opponent is None
    _, rewards, *_ = env.step(env.sample_actions(0))
    assert rewards.shape == (4, 3)


def test_set_state_takes_only_positions_where_the_learner_acts():
    game = dimsum.make("nice_buns", players=3)
    env = dimsum.BatchEnv(game, num_envs=2, seed=1, threads=1, learner_seat=1)
    state = game.new_state(5)
    while state.current_player != 0:
        state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="player 0 is to act, not this env's learner seat"):
        env.set_state(0, state)
    state.apply(state.legal_actions()[0])
    while state.current_player != 1:
        state.apply(state.legal_actions()[0])
    env.set_state(0, state)
    assert env.clone_state(0) == state


def test_opponent_policies_are_named_and_unknown_names_refused():
    assert _batch.opponent_policies("dim_sum_jam") == ["random", "heuristic"]
    assert dimsum.BatchEnv.opponent_policies(dimsum.make("nice_buns")) == ["random", "heuristic", "policy"]
    game = dimsum.make("yum_cha")
    with pytest.raises(ValueError, match=r"unknown opponent policy 'greedy' for yum_cha; known: random, heuristic, policy \(with a network\)"):
        dimsum.BatchEnv(game, num_envs=2, learner_seat=0, opponent="greedy")
    with pytest.raises(ValueError, match="learner_seat must be in"):
        dimsum.BatchEnv(game, num_envs=2, learner_seat=game.players)
    with pytest.raises(TypeError, match="opponent must be a policy name"):
        dimsum.BatchEnv(game, num_envs=2, learner_seat=0, opponent=None)


def _learner_win_rate(opponent: str, games: int = 1500) -> float:
    """A random learner's mean return in 2-player Nice Buns over ``games`` finished games."""
    env = dimsum.BatchEnv(dimsum.make("nice_buns", players=2), num_envs=256, seed=5, learner_seat=0,
                          opponent=opponent)
    env.reset()
    total, finished, round_ = 0.0, 0, 0
    while finished < games:
        _, rewards, terminated, _, _ = env.step(env.sample_actions(round_))
        total += float(rewards[terminated].sum())
        finished += int(terminated.sum())
        round_ += 1
    return total / finished


def test_heuristic_opponents_play_the_heuristic_bot_and_beat_a_random_learner_more_than_random_ones_do():
    # the heuristic wins about 70% of 2-player games against random play (docs/BOTS.md), random
    # against random 50%: over 1,500 games each the standard error is about 0.013
    against_random, against_heuristic = _learner_win_rate("random"), _learner_win_rate("heuristic")
    assert 0.42 < against_random < 0.58
    assert against_heuristic < against_random - 0.1


def test_a_configuration_that_never_gives_the_learner_a_turn_is_refused_not_dealt_for_ever():
    """Yum Cha, one round of one turn, seat 0 first: every game ends before seat 1 acts. The env
    skips such games, and after 1000 in a row raises instead of dealing for ever."""
    game = dimsum.make("yum_cha", players=2, rounds=1, max_turns_per_round=1, first_player=0)
    with pytest.raises(RuntimeError, match="1000 games in a row ended before the learner seat's first turn"):
        dimsum.BatchEnv(game, num_envs=2, seed=0, threads=1, learner_seat=1)
    env = dimsum.BatchEnv(game, num_envs=2, seed=0, threads=1, learner_seat=0)  # seat 0 always acts
    assert (env.reset()[1]["current_player"] == 0).all()
