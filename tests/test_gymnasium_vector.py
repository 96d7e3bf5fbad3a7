"""dimsum.gymnasium.DimsumVectorEnv (a Gymnasium VectorEnv over BatchEnv's learner-seat mode, the
other seats played in C++) and the per-step ticks of BatchEnv and the adapters (docs/ADAPTERS.md).

Gymnasium 1.x has no checker for vector envs (gymnasium.utils.env_checker checks single envs
only), so the VectorEnv contract is tested directly: spaces contain the outputs, seeding
reproduces, and every step, auto-reset included, equals single DimsumEnv envs driven in Python
with the same deals and the same opponent random streams; gymnasium's own RecordEpisodeStatistics
wrapper reads the episodes right.
"""

import numpy as np
import pytest

from needs import need_module

gymnasium = need_module("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402

import dimsum  # noqa: E402
from dimsum.gymnasium import ENV_IDS, DimsumEnv, DimsumVectorEnv  # noqa: E402
from dimsum.reference.rng import Rng, derive_seed  # noqa: E402
from dimsum.testing import profile  # noqa: E402

GAMES = dimsum.games()
OPPONENT_STREAM = 0x4F50504F4E454E54  # kOpponentStream, batch/opponent_env.hpp
SMALL = {name: {"players": 3, **profile(name).small} for name in GAMES}  # short games (each game's profile)


class SeededRandomOpponent:
    """The C++ random opponent in Python: legal[rng.bounded(len(legal))], one stream per game."""

    def __init__(self):
        self.rng = None

    def deal(self, game_seed):
        self.rng = Rng(derive_seed(game_seed, OPPONENT_STREAM))

    def __call__(self, state):
        legal = state.legal_actions()
        return legal[self.rng.bounded(len(legal))]


class ReferenceEnvs:
    """One single-agent DimsumEnv per env, dealt as BatchEnv deals env i's k-th game."""

    def __init__(self, name, num_envs, seed, learner_seat, max_steps=None, ticks=None, **options):
        self.seed = seed
        seats = [learner_seat] * num_envs if isinstance(learner_seat, int) else list(learner_seat)
        self.opponents = [SeededRandomOpponent() for _ in range(num_envs)]
        self.envs = [DimsumEnv(name, learner_seat=seats[i], opponents=self.opponents[i], max_steps=max_steps,
                               ticks=ticks, **options) for i in range(num_envs)]
        self.games = [0] * num_envs
        self.obs = [self.deal(i) for i in range(num_envs)]

    def deal(self, i):
        game_seed = derive_seed(derive_seed(self.seed, i), self.games[i])
        self.opponents[i].deal(game_seed)
        observation, _ = self.envs[i].reset(seed=game_seed)
        return observation

    def step(self, i, action):
        """(next observation, reward, terminated, truncated, final observation or None)."""
        observation, reward, terminated, truncated, info = self.envs[i].step(int(action))
        final = None
        if terminated or truncated:
            final = (observation, info.get("returns"))
            self.games[i] += 1
            observation = self.deal(i)
        return observation, reward, terminated, truncated, final


def random_actions(rng, mask):
    """One legal action per row of an int8 mask, from a numpy Generator."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int64)


@pytest.mark.parametrize("name", GAMES)
def test_make_vec_builds_the_vector_env_with_batched_spaces_and_same_step_autoreset(name):
    env = gymnasium.make_vec(ENV_IDS[name], num_envs=5, vectorization_mode="vector_entry_point", **SMALL[name])
    assert isinstance(env, DimsumVectorEnv) and env.num_envs == 5
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    game = dimsum.make(name, **SMALL[name])
    assert env.single_action_space == gymnasium.spaces.Discrete(game.num_actions)
    assert env.action_space == gymnasium.spaces.MultiDiscrete([game.num_actions] * 5)
    assert env.single_observation_space["observation"].shape == game.observation_shape
    assert env.observation_space["observation"].shape == (5, *game.observation_shape)
    assert env.observation_space["action_mask"].shape == (5, game.num_actions)
    env.close()


def test_make_vec_prefers_the_vector_entry_point_and_sync_still_vectorizes_single_envs():
    assert isinstance(gymnasium.make_vec(ENV_IDS["nice_buns"], num_envs=2), DimsumVectorEnv)
    sync = gymnasium.make_vec(ENV_IDS["nice_buns"], num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)
    assert isinstance(sync.envs[0].unwrapped, DimsumEnv)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("learner_seat", [0, 2, (1, 0, 2, 1)], ids=["seat0", "seat2", "per_env"])
def test_every_step_equals_single_envs_with_the_same_deals_and_opponent_streams(name, learner_seat):
    """Observations, masks, rewards, flags, and at each auto-reset the final observation and
    returns, against DimsumEnv envs dealt env i's k-th game with the same opponent stream."""
    num_envs, seed = 4, 11
    env = DimsumVectorEnv(name, num_envs=num_envs, learner_seat=learner_seat, **SMALL[name])
    ref = ReferenceEnvs(name, num_envs, seed, learner_seat, **SMALL[name])
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ended_games = 0
    for _ in range(150):
        assert env.observation_space.contains(obs)
        for i in range(num_envs):
            assert np.array_equal(obs["observation"][i], ref.obs[i]["observation"])
            assert np.array_equal(obs["action_mask"][i], ref.obs[i]["action_mask"])
        actions = random_actions(rng, obs["action_mask"])
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert rewards.shape == (num_envs,) and rewards.dtype == np.float64
        assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_
        for i in range(num_envs):
            ref.obs[i], reward, term, trunc, final = ref.step(i, actions[i])
            assert (rewards[i], terminated[i], truncated[i]) == (reward, term, trunc)
            assert bool(info.get("_final_obs", np.zeros(num_envs, bool))[i]) == (final is not None)
            if final is not None:
                ended_games += 1
                final_obs, returns = final
                assert np.array_equal(info["final_obs"][i]["observation"], final_obs["observation"])
                assert not info["final_obs"][i]["action_mask"].any()
                assert tuple(info["final_info"]["returns"][i]) == returns
    assert ended_games > 0, "no game ended: the auto-reset was not exercised"


def test_truncation_gives_reward_zero_and_matches_single_envs():
    """max_steps counts every seat's actions; a cut game has no result (reward 0), as DimsumEnv."""
    num_envs, seed = 3, 5
    env = DimsumVectorEnv("yum_cha", num_envs=num_envs, max_steps=25, players=3)
    ref = ReferenceEnvs("yum_cha", num_envs, seed, 0, max_steps=25, players=3)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(1)
    cut = 0
    for _ in range(40):
        actions = random_actions(rng, obs["action_mask"])
        obs, rewards, terminated, truncated, info = env.step(actions)
        for i in range(num_envs):
            ref.obs[i], reward, term, trunc, _ = ref.step(i, actions[i])
            assert (rewards[i], terminated[i], truncated[i]) == (reward, term, trunc)
            assert np.array_equal(obs["observation"][i], ref.obs[i]["observation"])
            cut += int(trunc)
            if trunc:
                assert rewards[i] == 0.0
    assert cut > 0


def test_results_do_not_depend_on_threads_or_batch_size():
    def run(num_envs, threads):
        env = DimsumVectorEnv("nice_buns", num_envs=num_envs, threads=threads, learner_seat=1, players=3)
        obs, _ = env.reset(seed=3)
        rows = []
        for k in range(60):
            actions = env.batch_env.sample_actions(k)
            obs, rewards, terminated, _, _ = env.step(actions)
            rows.append((obs["observation"][:2].copy(), rewards[:2].copy(), terminated[:2].copy()))
        return rows

    small, big = run(2, 1), run(64, 2)
    for a, b in zip(small, big):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)


def test_seeded_resets_replay_and_unseeded_resets_follow_the_seed():
    env = DimsumVectorEnv("yum_cha", num_envs=3, players=4)
    first = env.reset(seed=np.int64(9))[0]["observation"].copy()
    after = env.reset()[0]["observation"].copy()
    again = env.reset(seed=9)[0]["observation"].copy()
    assert np.array_equal(first, again)
    assert np.array_equal(after, env.reset()[0]["observation"])  # np_random reseeded by seed=9
    with pytest.raises(TypeError, match="one base seed"):
        env.reset(seed=[1, 2, 3])


def test_copy_true_returns_new_arrays_and_copy_false_the_envs_own():
    copying = DimsumVectorEnv("nice_buns", num_envs=4, players=2)
    obs, _ = copying.reset(seed=1)
    nxt = copying.step(copying.batch_env.sample_actions(0))[0]
    assert not np.shares_memory(obs["observation"], nxt["observation"])
    sharing = DimsumVectorEnv("nice_buns", num_envs=4, copy=False, players=2)
    sharing.reset(seed=1)
    a = sharing.step(sharing.batch_env.sample_actions(0))[0]
    b = sharing.step(sharing.batch_env.sample_actions(1))[0]
    assert np.shares_memory(a["observation"], b["observation"])


def test_record_episode_statistics_reads_the_episodes():
    """gymnasium's own wrapper, which reads metadata["autoreset_mode"] from gymnasium 1.4 on: each
    ended episode's return is the learner's return, its length the learner's steps. Before 1.4 the
    wrapper assumes next-step autoreset whatever the env declares (it skips the step after an end),
    so it miscounts any same-step env; ray[rllib] pins gymnasium 1.2, so CI may run that one."""
    import gymnasium
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    if tuple(int(part) for part in gymnasium.__version__.split(".")[:2]) < (1, 4):
        pytest.skip(f"gymnasium {gymnasium.__version__}'s RecordEpisodeStatistics ignores autoreset_mode (1.4 reads it)")

    env = RecordEpisodeStatistics(DimsumVectorEnv("nice_buns", num_envs=8, players=2))
    obs, _ = env.reset(seed=4)
    lengths = np.zeros(8, int)
    episodes = 0
    for k in range(200):
        obs, rewards, terminated, truncated, info = env.step(env.unwrapped.batch_env.sample_actions(k))
        lengths += 1
        ended = terminated | truncated
        if ended.any():
            assert np.array_equal(info["_episode"], ended)
            assert np.array_equal(info["episode"]["l"][ended], lengths[ended])
            returns = info["final_info"]["returns"][ended, 0]
            assert np.array_equal(info["episode"]["r"][ended], np.where(terminated[ended], returns, 0.0))
            lengths[ended] = 0
            episodes += int(ended.sum())
    assert episodes > 0


def test_bad_input_is_refused_and_close_ends_the_env():
    env = DimsumVectorEnv("yum_cha", num_envs=2, players=4)
    with pytest.raises(RuntimeError, match="reset"):
        env.step([0, 0])
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
    legal = int(np.flatnonzero(obs["action_mask"][1])[0])
    before = env.batch_env.clone_state(1)
    with pytest.raises(dimsum.IllegalActionError, match="env 0"):
        env.step([illegal, legal])
    assert env.batch_env.clone_state(1) == before  # all or nothing
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"tick": 3})
    with pytest.raises(ValueError, match="learner_seat"):
        DimsumVectorEnv("yum_cha", num_envs=2, learner_seat=4, players=4)
    with pytest.raises(ValueError, match="unknown opponent policy 'smart'.*known: random"):
        DimsumVectorEnv("yum_cha", num_envs=2, opponent="smart")
    with pytest.raises(ValueError, match="not timed"):
        DimsumVectorEnv("yum_cha", num_envs=2, ticks=10)
    env.close()
    assert env.closed
    with pytest.raises(RuntimeError, match="closed"):
        env.step([legal, legal])
    env.close()  # a second close does nothing


# -- per-step ticks (Dim Sum Jam) ------------------------------------------------------------


def test_batch_env_ticks_charge_each_env_as_state_apply_does():
    """ticks=None, an int, and an array (num_envs,), against the per-move TimedState.apply."""
    game = dimsum.make("dim_sum_jam", players=3)
    env = dimsum.BatchEnv(game, num_envs=3, seed=2, threads=1)
    env.reset()
    states = [env.clone_state(i) for i in range(3)]
    for k in range(120):
        actions = env.sample_actions(k).copy()
        ticks = [None, 7, np.array([0, 90, 1000]) + k % 3][k % 3]
        _, _, terminated, truncated, _ = env.step(actions, ticks=ticks)
        for i in range(3):
            t = None if ticks is None else int(ticks if np.isscalar(ticks) else ticks[i])
            states[i].apply(int(actions[i]), t)
            if terminated[i] or truncated[i]:
                states[i] = env.clone_state(i)  # a new game was dealt
            else:
                assert env.clone_state(i).to_bytes() == states[i].to_bytes()
                assert states[i].timeline[-1] == (int(actions[i]), states[i].timeline[-1][1])


def test_batch_env_refuses_bad_ticks_and_moves_nothing():
    game = dimsum.make("dim_sum_jam", players=2)
    env = dimsum.BatchEnv(game, num_envs=2, seed=1, threads=1)
    actions = env.sample_actions(0).copy()
    before = [env.clone_state(i).to_bytes() for i in range(2)]
    for bad, error, match in [(-1, ValueError, "ticks must be in"), (np.array([5, -3]), ValueError, "env 1"),
                              (True, TypeError, "bool"), (np.array([1.5, 2.0]), TypeError, "dtype"),
                              ([1, 2, 3], ValueError, "shape"), (10**7, ValueError, "ticks must be in"),
                              (np.array([2**64 - 1, 0], np.uint64), ValueError, "env 0")]:
        with pytest.raises(error, match=match):
            env.step(actions, ticks=bad)
        assert [env.clone_state(i).to_bytes() for i in range(2)] == before
    untimed = dimsum.BatchEnv(dimsum.make("yum_cha"), num_envs=2, seed=1, threads=1)
    with pytest.raises(ValueError, match="not timed"):
        untimed.step(untimed.sample_actions(0), ticks=5)
    off = dimsum.BatchEnv(dimsum.make("dim_sum_jam", players=2, ticks_per_action=0), num_envs=2, seed=1, threads=1)
    with pytest.raises(ValueError, match="time is off"):
        off.step(off.sample_actions(0), ticks=5)
    off.step(off.sample_actions(0), ticks=0)  # no time passes: allowed


def test_vector_env_ticks_charge_the_learner_as_single_envs_do():
    """The constructor's ticks, then one call's array: the clocks (in the state bytes) equal
    single DimsumEnv envs charging the learner the same; the other seats pay their default."""
    num_envs, seed = 2, 6
    env = DimsumVectorEnv("dim_sum_jam", num_envs=num_envs, ticks=80, players=3)
    ref = ReferenceEnvs("dim_sum_jam", num_envs, seed, 0, ticks=80, players=3)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(2)
    for k in range(30):
        actions = random_actions(rng, obs["action_mask"])
        ticks = np.array([11, 12]) if k % 2 else None
        obs, _, terminated, truncated, _ = env.step(actions, ticks=ticks)
        for i in range(num_envs):
            ref.envs[i].ticks = 80 if ticks is None else int(ticks[i])
            ref.obs[i], *_ = ref.step(i, actions[i])
            if not (terminated[i] or truncated[i]):
                assert env.batch_env.clone_state(i).to_bytes() == ref.envs[i].state.to_bytes()


def test_single_env_ticks_charge_only_the_learner():
    single = DimsumEnv("dim_sum_jam", ticks=80, players=3)
    default = single.game.options["ticks_per_action"]
    for options, learner_ticks in [(None, 80), ({"ticks": 3}, 3)]:
        observation, _ = single.reset(seed=6, options=options)
        start = len(single.state.timeline)
        single.step(int(np.flatnonzero(observation["action_mask"])[0]))
        (_, charged), *others = single.state.timeline[start:]
        assert charged == learner_ticks
        assert others and all(t in (0, default) for _, t in others)  # team-mates: their default cost
    with pytest.raises(ValueError, match="not timed"):
        DimsumEnv("nice_buns", ticks=5)
    single.ticks = -1
    before = single.state.clone()
    with pytest.raises(ValueError, match="ticks must be in"):
        single.step(int(np.flatnonzero(single._observation()["action_mask"])[0]))
    assert single.state == before


def test_pettingzoo_step_takes_ticks():
    need_module("pettingzoo")
    from dimsum.pettingzoo import env as pz_env

    e = pz_env("dim_sum_jam", players=2)
    e.reset(seed=3)
    observation = e.observe(e.agent_selection)
    action = int(np.flatnonzero(observation["action_mask"])[0])
    with pytest.raises(ValueError, match="ticks must be in"):
        e.step(action, ticks=-5)
    assert e.state.timeline == []
    e.step(action, ticks=33)
    assert e.state.timeline == [(action, 33)]


def test_single_env_refuses_a_configuration_that_never_gives_the_learner_a_turn():
    """Every game ends before seat 1 acts: reset raises after 1000 deals instead of looping."""
    env = DimsumEnv("yum_cha", learner_seat=1, players=2, rounds=1, max_turns_per_round=1, first_player=0)
    with pytest.raises(RuntimeError, match="1000 games in a row ended before the learner seat's first turn"):
        env.reset(seed=0)


def test_a_cut_waits_for_the_learners_step_in_both_envs():
    """max_steps=1, learner seat 2: the other seats' opening is played in full, and the first
    learner step is cut, in the single env and the vector env alike."""
    single = DimsumEnv("nice_buns", learner_seat=2, max_steps=1, players=3)
    observation, _ = single.reset(seed=3)
    assert single.state.current_player == 2 and observation["action_mask"].any()
    *_, truncated, _ = single.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert truncated
    vector = DimsumVectorEnv("nice_buns", num_envs=1, learner_seat=2, max_steps=1, players=3)
    obs, _ = vector.reset(seed=3)
    assert vector.batch_env.clone_state(0).current_player == 2
    action = int(np.flatnonzero(obs["action_mask"][0])[0])
    *_, truncated, _ = vector.step([action])
    assert truncated[0]


def test_the_same_step_infos_have_the_layout_of_gymnasiums_own_sync_vector_env():
    """Gymnasium's SyncVectorEnv in SAME_STEP mode over single envs is the reference for where the
    ended episodes' data goes: the same keys, masks and per-env final observations."""
    def ended_step_info(env):
        obs, _ = env.reset(seed=1)
        rng = np.random.default_rng(0)
        while True:
            obs, _, terminated, truncated, info = env.step(random_actions(rng, obs["action_mask"]))
            if (terminated | truncated).any():
                return terminated | truncated, info

    sync = gymnasium.vector.SyncVectorEnv([lambda: DimsumEnv("nice_buns", players=2)] * 3,
                                          autoreset_mode=AutoresetMode.SAME_STEP)
    ours = DimsumVectorEnv("nice_buns", num_envs=3, players=2)
    for ended, info in (ended_step_info(sync), ended_step_info(ours)):
        assert set(info) == {"final_obs", "_final_obs", "final_info", "_final_info"}
        assert set(info["final_info"]) == {"returns", "_returns"}
        assert np.array_equal(info["_final_obs"], ended) and np.array_equal(info["_final_info"], ended)
        assert info["final_obs"].dtype == object
        for i in np.flatnonzero(ended):
            assert set(info["final_obs"][i]) == {"observation", "action_mask"}
            assert not info["final_obs"][i]["action_mask"].any()
