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


def step_and_mirror(env, actions, learner, bot, where=""):
    """Steps `env` with `actions` and checks each env against mirror_step on its state from before:
    the same position where the game goes on, terminal (with the same return) where it ended.
    Returns (envs whose game ended, envs checked in play)."""
    before = [env.clone_state(i) for i in range(env.num_envs)]
    _, rewards, terminated, truncated, info = env.step(actions)
    ended = checked = 0
    for i in range(env.num_envs):
        expected = mirror_step(before[i], actions[i], learner, bot)
        if terminated[i] or truncated[i]:
            ended += 1
            assert expected.is_terminal == bool(terminated[i])
            assert info["final_returns"][i][learner] == pytest.approx(expected.returns()[learner])
        else:
            assert env.clone_state(i) == expected, f"{where}env {i}: the opponents left another position"
            checked += 1
    return ended, checked


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
        masks = [env.clone_state(i).legal_actions() for i in range(env.num_envs)]
        actions = np.array([m[rng.integers(len(m))] for m in masks])
        ended_games += step_and_mirror(env, actions, learner, bot)[0]
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


def odd_relu_policy(game, seed):
    """An untrained network whose widths are no multiple of the kernel's tiles (bots/policy_net.cpp:
    16 outputs, rows in pairs) and whose hidden layers are relu (zeros inside the network), so that
    every path of the batched evaluation is taken."""
    policy = untrained(game, hidden=(21, 18), seed=seed)
    for layer in policy.layers[:-1]:
        layer.activation = "relu"
    for layer in policy.layers:  # a bias, so that no output starts at zero
        layer.bias = np.random.default_rng(seed).standard_normal(layer.bias.shape).astype(np.float32) * 0.1
    return policy


@pytest.mark.parametrize("players, learner, weights", [(2, 1, "shipped"), (4, 0, "shipped"), (3, 2, "odd")])
def test_a_block_of_envs_played_together_moves_as_the_bot_alone(players, learner, weights, tmp_path):
    # 150 envs on one thread: blocks of 64 envs (opponent_env.hpp, kPolicyBlock), so each round
    # evaluates up to 64 rows at once, in tiles of 32 and pairs; each env's opponents must still
    # make the moves the policy bot makes in that env alone, over 150 deals and their next games
    game = dimsum.make("nice_buns", players=players)
    if weights == "odd":
        weights = tmp_path / "odd.dspolicy"
        policy_file.write(weights, odd_relu_policy(game, seed=players))
    env = dimsum.BatchEnv(game, num_envs=150, seed=players, threads=1, learner_seat=learner, opponent="policy",
                          opponent_weights=weights)
    bot = dimsum.bots.make("policy", game, weights=weights)
    env.reset()
    checked = ended = 0
    for k in range(12):
        e, c = step_and_mirror(env, env.sample_actions(1000 + k), learner, bot, where=f"step {k}, ")
        ended, checked = ended + e, checked + c
    assert checked > 1000


def run_policy_env(num_envs, threads, steps=60, players=4):
    """Every output of `steps` steps of a policy-opponent env, the actions drawn by the largest env's
    sample_actions and cut to num_envs (env i's game depends on the seed and i alone)."""
    game = dimsum.make("nice_buns", players=players)
    env = dimsum.BatchEnv(game, num_envs=num_envs, seed=11, threads=threads, learner_seat=1, opponent="policy",
                          opponent_weights="shipped")
    reference = dimsum.BatchEnv(game, num_envs=200, seed=11, threads=1, learner_seat=1, opponent="policy",
                                opponent_weights="shipped")
    env.reset()
    reference.reset()
    outputs = []
    for k in range(steps):
        actions = reference.sample_actions(k)
        reference.step(actions)
        obs, rewards, terminated, truncated, info = env.step(actions[:num_envs], copy=True)
        outputs.append((obs, rewards, terminated, truncated, info["legal_mask"], info["current_player"]))
    return outputs


def test_the_play_depends_on_neither_threads_nor_batch_size():
    # blocks of 64 envs on 1 or 2 threads, or the first 70 or 5 envs alone: the same games
    alone = run_policy_env(200, threads=1)
    for num_envs, threads in [(200, 2), (70, 1), (70, 2), (5, 1)]:
        other = run_policy_env(num_envs, threads)
        for k, (a, b) in enumerate(zip(alone, other)):
            for x, y in zip(a, b):
                assert np.array_equal(x[:num_envs], y), f"{num_envs} envs, {threads} threads: step {k} differs"


def test_logits_of_many_rows_are_each_rows_logits_alone(tmp_path):
    # PolicyNet.logits evaluates its rows together (forward_rows); each row must be bit for bit
    # what it gives alone, whatever the row's place in a tile or a pair
    game = dimsum.make("nice_buns", players=3)
    path = tmp_path / "odd.dspolicy"
    policy_file.write(path, odd_relu_policy(game, seed=5))
    net = dimsum.bots.PolicyBot(game, weights=path)._net
    states = []
    for seed in range(8):
        state = game.new_state(seed)
        while not state.is_terminal:
            states.append(state.clone())
            state.apply(state.legal_actions()[len(states) % len(state.legal_actions())])
    observations = np.stack([s.observation(s.current_player) for s in states[:75]])
    masks = np.stack([s.legal_mask() for s in states[:75]])
    together = net.logits(observations, masks)
    alone = np.concatenate([net.logits(observations[r:r + 1], masks[r:r + 1]) for r in range(len(masks))])
    assert len(masks) == 75 and together.view(np.uint32).tolist() == alone.view(np.uint32).tolist()


@pytest.mark.parametrize("name, players", [("nice_buns", 4), ("dim_sum_jam", 3)])
def test_a_move_computes_the_legal_logits_alone_and_chooses_as_the_full_logits_do(name, players, tmp_path):
    # policy_move and the batched rounds evaluate the last layer for the legal actions only; the
    # choice must be the legal argmax (lowest action on a tie) of every logit computed in full
    game = dimsum.make(name, players=players)
    path = tmp_path / "odd.dspolicy"
    policy_file.write(path, odd_relu_policy(game, seed=players))
    bot = dimsum.bots.make("policy", game, weights=path)
    states = []
    for seed in range(4):
        state = game.new_state(seed)
        while not state.is_terminal and len(states) < 400:
            states.append(state.clone())
            state.apply(bot.act(state))
    masks = np.stack([s.legal_mask() for s in states])
    full = bot._net.logits(np.stack([s.observation(s.current_player) for s in states]), masks)
    expected = [int(np.flatnonzero(m)[np.argmax(row[m])]) for row, m in zip(full, masks.astype(bool))]
    assert [bot.act(s) for s in states] == expected


def test_a_bias_of_negative_zero_gives_the_same_bits_in_rows_of_four_as_alone(tmp_path):
    # the kernels for four rows add every product, zeros included; one row's skip its zero inputs.
    # They give the same bits only because a bias of -0.0 becomes +0.0 when the network is loaded
    # (PolicyNet::positive_zero_biases). The attack: a hidden layer that is all zeros (relu of a
    # large negative sum) under a last layer whose biases are -0.0, so that each logit is its bias
    # plus products of zero; without that step it came out -0.0 alone and +0.0 four rows at a time
    game = dimsum.make("nice_buns", players=3)
    policy = untrained(game, hidden=(40,), seed=7)
    hidden, last = policy.layers
    hidden.activation = "relu"
    hidden.bias = np.full(hidden.bias.shape, -1e4, dtype=np.float32)
    last.bias = np.full(last.bias.shape, -0.0, dtype=np.float32)
    path = tmp_path / "negative_zero.dspolicy"
    policy_file.write(path, policy)
    net = dimsum.bots.PolicyBot(game, weights=path)._net
    states = []
    state = game.new_state(3)
    while not state.is_terminal and len(states) < 24:
        states.append(state.clone())
        state.apply(state.legal_actions()[0])
    observations = np.stack([s.observation(s.current_player) for s in states])
    masks = np.stack([s.legal_mask() for s in states])
    together = net.logits(observations, masks)
    alone = np.concatenate([net.logits(observations[r:r + 1], masks[r:r + 1]) for r in range(len(masks))])
    assert len(states) == 24 and not together.any()  # every logit is a zero: the hidden layer is all zeros
    assert together.view(np.uint32).tolist() == alone.view(np.uint32).tolist()
    assert not np.signbit(together).any()
