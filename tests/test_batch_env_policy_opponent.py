"""The learner-seat BatchEnv whose other seats are a policy network (opponent="policy",
src/dimsum_core/batch/opponent_env.hpp): it plays them as the policy bot does, greedy."""

import numpy as np
import pytest

import dimsum
import dimsum.bots
from dimsum.baselines import PolicyFileError, load, policy_file, shipped_path
from dimsum.baselines.policy_file import untrained


def mirror_step(state, action, learner, bot):
    """What the env should do with env i's `action`: apply it, then let `bot` play every other
    seat until the learner is to act again or the game is over."""
    state.apply(int(action))
    while not state.is_terminal and state.current_player != learner:
        state.apply(bot.act(state))
    return state


@pytest.mark.parametrize("players, learner", [(2, 0), (2, 1), (4, 2)])
def test_the_opponents_play_the_policy_bots_moves_step_by_step(players, learner):
    game = dimsum.make("nice_buns", players=players)
    env = dimsum.BatchEnv(game, num_envs=3, seed=7, threads=1, learner_seat=learner, opponent="policy",
                          opponent_weights="shipped")
    bot = dimsum.bots.make("policy", game, weights="shipped")
    env.reset()
    rng = np.random.default_rng(players * 10 + learner)
    ended_games = 0
    for _ in range(120):
        before = [env.clone_state(i) for i in range(env.num_envs)]
        masks = [s.legal_actions() for s in before]
        actions = np.array([m[rng.integers(len(m))] for m in masks])
        _, rewards, terminated, truncated, info = env.step(actions)
        for i in range(env.num_envs):
            expected = mirror_step(before[i], actions[i], learner, bot)
            if terminated[i] or truncated[i]:
                ended_games += 1
                assert expected.is_terminal == bool(terminated[i])
                assert info["final_returns"][i][learner] == pytest.approx(expected.returns()[learner])
            else:
                assert env.clone_state(i) == expected, f"env {i}: the opponents left another position"
    assert ended_games > 0  # the mirror also covered games ending on an opponent's move


def test_the_opponent_is_not_the_random_one_and_a_seed_replays_it():
    game = dimsum.make("nice_buns", players=2)

    def run(opponent, **kw):
        env = dimsum.BatchEnv(game, num_envs=8, seed=3, threads=2, learner_seat=0, opponent=opponent, **kw)
        env.reset()
        rewards = []
        for k in range(300):
            rewards.append(env.step(env.sample_actions(k), copy=True)[1])
        return np.array(rewards), env.clone_state(5)

    first, state = run("policy", opponent_weights="shipped")
    again, state_again = run("policy", opponent_weights=shipped_path(game))
    assert np.array_equal(first, again) and state == state_again
    assert not np.array_equal(first, run("random")[0])


def test_a_policy_for_another_configuration_or_a_mismatched_file_is_refused(tmp_path):
    game = dimsum.make("nice_buns", players=2)
    four = dimsum.make("nice_buns", players=4)
    with pytest.raises(PolicyFileError, match="made for nice_buns"):
        dimsum.BatchEnv(four, num_envs=2, learner_seat=0, opponent="policy", opponent_weights=shipped_path(game))
    with pytest.raises(PolicyFileError, match="not for yum_cha"):
        dimsum.BatchEnv(dimsum.make("yum_cha"), num_envs=2, learner_seat=0, opponent="policy",
                        opponent_weights=shipped_path(game))
    policy = load("shipped", game)
    policy.observation_layout[0] = ("someone", 0, 2)  # a slice renamed: another observation layout
    path = tmp_path / "layout.dspolicy"
    policy_file.write(path, policy)
    with pytest.raises(PolicyFileError, match="observation layout"):
        dimsum.BatchEnv(game, num_envs=2, learner_seat=0, opponent="policy", opponent_weights=path)


def test_the_cpp_env_checks_the_network_against_the_game_itself():
    from dimsum import _batch
    from dimsum.bots.policy import load_net

    game = dimsum.make("nice_buns", players=2)
    net = load_net("shipped", game)
    other = dimsum.make("yum_cha")
    with pytest.raises(ValueError, match="the opponent network takes"):
        _batch._BatchEnv(other.name, other.config_bytes(), other.state_size, other.version[0], 2, 0, 1,
                         other.max_game_length, [0, 0], "policy", False, net)
    with pytest.raises(ValueError, match='opponent "policy" only'):
        _batch._BatchEnv(game.name, game.config_bytes(), game.state_size, game.version[0], 2, 0, 1,
                         game.max_game_length, [0, 0], "random", False, net)


def test_bad_opponent_arguments_say_what_is_allowed():
    game = dimsum.make("nice_buns", players=2)
    with pytest.raises(ValueError, match="needs opponent_weights"):
        dimsum.BatchEnv(game, num_envs=2, learner_seat=0, opponent="policy")
    with pytest.raises(ValueError, match='opponent_weights is for opponent="policy"'):
        dimsum.BatchEnv(game, num_envs=2, learner_seat=0, opponent="random", opponent_weights="shipped")
    with pytest.raises(ValueError, match="give a learner_seat"):
        dimsum.BatchEnv(game, num_envs=2, opponent="policy", opponent_weights="shipped")
    env = dimsum.BatchEnv(game, num_envs=2, learner_seat=1, opponent="policy", opponent_weights="shipped")
    assert "opponent='policy', opponent_weights='shipped'" in repr(env)


def test_an_untrained_network_file_plays_too(tmp_path):
    # any policy file made for the game, not only the shipped ones
    game = dimsum.make("nice_buns", players=3)
    path = tmp_path / "untrained.dspolicy"
    policy_file.write(path, untrained(game, hidden=(8,), seed=1))
    env = dimsum.BatchEnv(game, num_envs=2, seed=1, threads=1, learner_seat=2, opponent="policy",
                          opponent_weights=path)
    bot = dimsum.bots.make("policy", game, weights=path)
    env.reset()
    before = env.clone_state(0)
    action = before.legal_actions()[0]
    env.step(np.array([action, env.clone_state(1).legal_actions()[0]]))
    expected = mirror_step(before, action, 2, bot)
    if not expected.is_terminal:
        assert env.clone_state(0) == expected


def test_the_vector_envs_pass_the_policy_opponent_through():
    from needs import need_module

    need_module("gymnasium")
    from dimsum._gymnasium_vector import DimsumVectorEnv

    env = DimsumVectorEnv("nice_buns", num_envs=2, opponent="policy", opponent_weights="shipped", players=2)
    assert env.batch_env.opponent == "policy" and env.batch_env.opponent_weights == "shipped"
    with pytest.raises(ValueError, match="needs opponent_weights"):
        DimsumVectorEnv("nice_buns", num_envs=2, opponent="policy", players=2)
    need_module("stable_baselines3")
    from dimsum.sb3 import DimsumVecEnv

    vec = DimsumVecEnv("nice_buns", num_envs=2, opponent="policy", opponent_weights="shipped", players=2)
    assert vec.opponent_weights == "shipped"
    vec.close()
