"""Nothing of another seat reaches a learner (issue 20, item 4): the learner-seat BatchEnv, the
Gymnasium vector env and the SB3 VecEnv over it, and the single Gymnasium env's mask, hand a
learner its own views only, by construction. Every-seat final observations come only when asked
for by name (``BatchEnv(..., final_observations="all")``), and that env is the reference here:
the same seed and the same learner actions play the same games, so its learner rows are what the
learner-only env must give, and its other rows are what must not reach the learner."""

import numpy as np
import pytest

import dimsum
from dimsum.testing import profile

GAMES = dimsum.games()
SMALL = {name: {"players": 3, **profile(name).small} for name in GAMES}  # short games: some end
# Every key a learner-seat step's info has; a new key is a new way out, to be checked here first.
STEP_INFO_KEYS = {"current_player", "legal_mask", "final_envs", "final_observation", "final_returns"}


def twin_envs(name, seats, seed=3, max_steps=None):
    """The learner-only env (the default) and the every-seat reference, same games."""
    game = dimsum.make(name, **SMALL[name])
    kwargs = dict(num_envs=len(seats), seed=seed, threads=1, learner_seat=seats, max_episode_steps=max_steps)
    return game, dimsum.BatchEnv(game, **kwargs), dimsum.BatchEnv(game, final_observations="all", **kwargs)


@pytest.mark.parametrize("name", GAMES)
def test_batch_env_final_observations_are_the_learners_only_by_default(name):
    seats = [0, 1, 2, 1, 0, 2]
    game, env, every = twin_envs(name, seats, max_steps=25)  # a cut every 25 actions: many ended games
    assert env.final_observations == "learner" and every.final_observations == "all"
    env.reset(), every.reset()
    ended = other_seat_differs = 0
    for k in range(120):
        actions = env.sample_actions(k)
        _, _, terminated, truncated, info = env.step(actions, copy=True)
        _, _, _, _, reference = every.step(actions, copy=True)
        np.testing.assert_array_equal(info["final_envs"], reference["final_envs"])
        n = len(info["final_envs"])
        assert info["final_observation"].shape == (n, env.observation_size)  # one view per ended env
        assert reference["final_observation"].shape == (n, game.players, env.observation_size)
        for row, i in enumerate(info["final_envs"]):
            views = reference["final_observation"][row]
            np.testing.assert_array_equal(info["final_observation"][row], views[seats[i]])
            other_seat_differs += any(not np.array_equal(views[p], views[seats[i]])
                                      for p in range(game.players) if p != seats[i])
        ended += n
    assert ended > 0 and other_seat_differs > 0  # the views withheld were the learner's to miss


@pytest.mark.parametrize("name", GAMES)
def test_every_batch_env_return_is_the_learners_view(name):
    """obs, mask and player are the learner's (its own observation and legal actions of the
    state the env holds), rewards are one number per env, and info has no other key."""
    seats = [2, 0, 1, 2]
    game = dimsum.make(name, **SMALL[name])
    env = dimsum.BatchEnv(game, num_envs=4, seed=5, threads=1, learner_seat=seats)
    obs, info = env.reset()
    assert set(info) == {"current_player", "legal_mask"}
    for k in range(40):
        for i, seat in enumerate(seats):
            state = env.clone_state(i)
            assert state.current_player == seat == info["current_player"][i]
            np.testing.assert_array_equal(obs[i], state.observation(seat))
            np.testing.assert_array_equal(info["legal_mask"][i], state.legal_mask())
        obs, rewards, _, _, info = env.step(env.sample_actions(k))
        assert set(info) == STEP_INFO_KEYS and rewards.shape == (4,)


def _ends(state, action):
    after = state.clone()
    after.apply(action)
    return after.is_terminal


@pytest.mark.parametrize("name", GAMES)
def test_states_the_learner_cannot_tell_apart_look_the_same_to_it(name):
    """A state and a resample of it for the learner (the other seats' hidden cards and the
    future redrawn) give the learner-seat env the same obs, mask and player."""
    game = dimsum.make(name, **SMALL[name])
    envs = [dimsum.BatchEnv(game, num_envs=1, seed=0, threads=1, learner_seat=1) for _ in range(2)]
    shown = [env.reset() for env in envs]  # the env's own arrays: set_state rewrites them
    compared = 0
    for seed in range(30):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        for _ in range(int(rng.integers(0, 12))):  # a few moves in, stopping short of a short game's end
            after = state.clone()
            after.apply(int(rng.choice(state.legal_actions())))
            if after.is_terminal:
                break
            state = after
        while not state.is_terminal and state.current_player != 1:  # on to the learner, not to the end if avoidable
            live = [a for a in state.legal_actions() if not _ends(state, a)] or state.legal_actions()
            state.apply(int(rng.choice(live)))
        if state.is_terminal:
            continue
        twin = state.resample(1, seed + 1000)
        envs[0].set_state(0, state)
        envs[1].set_state(0, twin)
        (obs_a, info_a), (obs_b, info_b) = shown
        np.testing.assert_array_equal(obs_a, obs_b)
        np.testing.assert_array_equal(info_a["legal_mask"], info_b["legal_mask"])
        np.testing.assert_array_equal(info_a["current_player"], info_b["current_player"])
        compared += 1
    assert compared >= 10


def test_final_observations_is_checked():
    game = dimsum.make("nice_buns", players=3)
    with pytest.raises(ValueError, match="needs a learner_seat"):
        dimsum.BatchEnv(game, num_envs=2, final_observations="learner")
    with pytest.raises(ValueError, match="final_observations must be one of"):
        dimsum.BatchEnv(game, num_envs=2, learner_seat=0, final_observations="others")
    with pytest.raises(TypeError, match="final_observations must be one of"):
        dimsum.BatchEnv(game, num_envs=2, learner_seat=0, final_observations=1)
    every_seat = dimsum.BatchEnv(game, num_envs=2)  # step takes every seat's actions: every seat's views
    assert every_seat.final_observations == "all"
    assert 'final_observations="all"' in repr(dimsum.BatchEnv(game, 2, learner_seat=0, final_observations="all"))


def every_seat_reference(name, seats, seed):
    """The every-seat BatchEnv, reset, playing the games an adapter over seed `seed` plays."""
    game = dimsum.make(name, **SMALL[name])
    every = dimsum.BatchEnv(game, len(seats), seed=seed, threads=1, max_episode_steps=25, learner_seat=seats,
                            final_observations="all")
    every.reset()
    return every


def assert_learners_final_view(final, reference, row, seat):
    """An adapter's final observation (a dict) is the reference's row for the learner's seat."""
    np.testing.assert_array_equal(final["observation"], reference["final_observation"][row, seat])
    assert not final["action_mask"].any()  # no action is left in an ended game


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_vector_env_final_obs_are_the_learners(name):
    from needs import need_module

    need_module("gymnasium")
    from dimsum.gymnasium import DimsumVectorEnv

    seats = [1, 2, 0, 1]
    vec = DimsumVectorEnv(name, num_envs=4, learner_seat=seats, max_steps=25, threads=1, **SMALL[name])
    vec.reset(seed=11)
    every = every_seat_reference(name, seats, seed=11)
    ended = 0
    for k in range(80):
        actions = every.sample_actions(k)  # the same games in both: the same legal actions
        _, _, terminated, truncated, info = vec.step(actions)
        _, _, _, _, reference = every.step(actions)
        if not (terminated | truncated).any():
            assert info == {}
            continue
        assert set(info) == {"final_obs", "_final_obs", "final_info", "_final_info"}
        assert set(info["final_info"]) == {"returns", "_returns"}
        for row, i in enumerate(reference["final_envs"]):
            assert_learners_final_view(info["final_obs"][i], reference, row, seats[i])
        ended += len(reference["final_envs"])
    assert ended > 0


@pytest.mark.parametrize("name", GAMES)
def test_sb3_vec_env_terminal_observations_are_the_learners(name):
    from needs import need_module

    need_module("stable_baselines3")
    from dimsum.sb3 import DimsumVecEnv

    seats = [2, 0, 1, 0]
    vec = DimsumVecEnv(name, num_envs=4, learner_seat=seats, max_steps=25, threads=1, **SMALL[name])
    vec.seed(13)
    vec.reset()
    every = every_seat_reference(name, seats, seed=13)
    ended = 0
    for k in range(80):
        actions = every.sample_actions(k)
        _, _, dones, infos = vec.step(actions)
        _, _, _, _, reference = every.step(actions)
        np.testing.assert_array_equal(np.flatnonzero(dones), reference["final_envs"])
        for i, info in enumerate(infos):
            assert set(info) <= {"terminal_observation", "TimeLimit.truncated", "returns"}
            assert ("terminal_observation" in info) == bool(dones[i])
        for row, i in enumerate(reference["final_envs"]):
            assert_learners_final_view(infos[i]["terminal_observation"], reference, row, seats[i])
        ended += len(reference["final_envs"])
    assert ended > 0


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_single_env_mask_is_built_for_the_learner_only(name):
    """Put on a state where another seat is to act (the env never returns one, but nothing may
    depend on that), the env shows no mask at all, not that seat's legal actions."""
    from needs import need_module

    need_module("gymnasium")
    from dimsum.gymnasium import DimsumEnv

    env = DimsumEnv(name, learner_seat=1, **SMALL[name])
    env.reset(seed=2)
    state = env.unwrapped.game.new_state(4)
    while state.current_player == 1:
        state.apply(state.legal_actions()[0])
    assert state.legal_mask().any()  # the other seat has moves a mask would show
    env.unwrapped.state = state
    assert not env.action_masks().any()
    observation = env.unwrapped._observation()
    assert not observation["action_mask"].any()
    np.testing.assert_array_equal(observation["observation"], state.observation(1))
