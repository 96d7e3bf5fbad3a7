"""dimsum.BatchEnv: shapes, auto-reset, determinism (threads, batch size, per-move API),
all-or-nothing steps, input validation, clone_state/set_state, and use from several threads."""

import threading

import numpy as np
import pytest

import dimsum
from dimsum import _batch, _core
from dimsum.reference.rng import Rng, derive_seed

# Short games, so that tests see many games end: the rules' own guards end them (terminated).
SHORT = {"yum_cha": dict(players=3, rounds=1, max_turns_per_round=6)}

GAMES = _core.registered_games()
SAMPLE_SALT = 0x53414D504C450001  # sample_actions' salt (docs/API.md)


@pytest.fixture(params=GAMES)
def game(request):
    return dimsum.make(request.param, **SHORT.get(request.param, {}))


def dense_final_observation(env, terminated, truncated, info):
    """info["final_observation"]'s compact rows put back at their envs' rows (zero elsewhere),
    after checking that info["final_envs"] names exactly the envs that ended, ascending."""
    ended = np.flatnonzero(terminated | truncated)
    np.testing.assert_array_equal(info["final_envs"], ended)
    assert info["final_envs"].dtype == np.int32
    assert info["final_observation"].shape == (len(ended), env.players, env.observation_size)
    dense = np.zeros((env.num_envs, env.players, env.observation_size), dtype=np.float32)
    dense[ended] = info["final_observation"]
    return dense


def run(env, steps, policy_seed=0):
    """Steps env with sample_actions; returns a copy of everything each step returned."""
    return [step_record(env, env.sample_actions(policy_seed + k).copy()) for k in range(steps)]


def step_record(env, actions):
    """One step of env: a copy of everything it returned."""
    obs, rewards, terminated, truncated, info = env.step(actions)
    return dict(
        actions=actions,
        obs=obs.copy(),
        rewards=rewards.copy(),
        terminated=terminated.copy(),
        truncated=truncated.copy(),
        current_player=info["current_player"].copy(),
        legal_mask=info["legal_mask"].copy(),
        final_observation=dense_final_observation(env, terminated, truncated, info),
        final_returns=np.where((terminated | truncated)[:, None], info["final_returns"], 0),
    )


def assert_traces_equal(a, b, envs=slice(None)):
    assert len(a) == len(b)
    for step, (x, y) in enumerate(zip(a, b)):
        for key in x:
            np.testing.assert_array_equal(x[key][envs], y[key][envs], err_msg=f"step {step}, {key}")


class Mirror:
    """Env i driven one move at a time through the per-move API, by the documented contract."""

    def __init__(self, game, seed, i, max_steps):
        self.game, self.env_seed, self.max_steps = game, derive_seed(seed, i), max_steps
        self.k = 0
        self.deal()

    def deal(self):
        self.state = self.game.new_state(derive_seed(self.env_seed, self.k))
        self.steps = 0

    def step(self, action):
        self.state.apply(int(action))
        self.steps += 1
        terminated = self.state.is_terminal
        truncated = not terminated and self.steps >= self.max_steps
        rewards = np.zeros(self.game.players)
        final = None
        if terminated or truncated:
            rewards = np.array(self.state.returns())
            final = np.stack([self.state.observation(p) for p in range(self.game.players)])
            self.k += 1
            self.deal()
        return rewards, terminated, truncated, final

    def current(self):
        p = self.state.current_player
        return self.state.observation(p), self.state.legal_mask(), p


# -- shapes, dtypes, auto-reset ---------------------------------------------------------------


def test_reset_and_step_shapes_and_dtypes(game):
    env = dimsum.BatchEnv(game, 5, seed=3, threads=2)
    obs, info = env.reset()
    assert obs.shape == (5, game.observation_shape[0]) and obs.dtype == np.float32
    assert info["current_player"].shape == (5,) and info["current_player"].dtype == np.int32
    assert info["legal_mask"].shape == (5, game.num_actions) and info["legal_mask"].dtype == np.bool_
    obs, rewards, terminated, truncated, info = env.step(env.sample_actions(0))
    assert obs.shape == (5, game.observation_shape[0]) and obs.dtype == np.float32
    assert rewards.shape == (5, game.players) and rewards.dtype == np.float64
    assert terminated.shape == truncated.shape == (5,)
    assert terminated.dtype == truncated.dtype == np.bool_
    ended = int((terminated | truncated).sum())  # final observations: rows of the ended envs only
    assert info["final_observation"].shape == (ended, game.players, game.observation_shape[0])
    assert info["final_observation"].dtype == np.float32
    assert info["final_envs"].shape == (ended,) and info["final_envs"].dtype == np.int32
    assert info["final_returns"].shape == (5, game.players) and info["final_returns"].dtype == np.float64
    assert (env.num_envs, env.players, env.num_actions) == (5, game.players, game.num_actions)
    assert env.observation_shape == game.observation_shape


def test_games_that_end_reset_in_the_same_step():
    game = dimsum.make("yum_cha", **SHORT["yum_cha"])
    env = dimsum.BatchEnv(game, 8, seed=11, threads=2)
    env.reset()
    ended = 0
    for k in range(200):
        obs, rewards, terminated, truncated, info = env.step(env.sample_actions(k))
        assert not truncated.any()  # the rules end these games well before max_game_length
        assert (info["current_player"] >= 0).all()  # the env always holds a game in play
        assert info["legal_mask"].any(axis=1).all()
        np.testing.assert_array_equal(rewards[~terminated], 0)
        np.testing.assert_array_equal(rewards[terminated], info["final_returns"][terminated])
        ended += int(terminated.sum())
    assert ended > 20


def _steps_before_any_game_ends(game, num_envs, seed, threads, most=4, one_truncated=False):
    """How many steps (up to ``most``) these envs play until a game first ends: a truncation there
    ends every env at once (by the rules or by the cut), whatever the game's length (a short game
    ends early). ``one_truncated``: a step count at which some env is cut, not ended by the rules."""
    env = dimsum.BatchEnv(game, num_envs, seed=seed, threads=threads)
    env.reset()
    for k in range(most):
        _, _, terminated, _, _ = env.step(env.sample_actions(k))
        if terminated.any():
            return k if one_truncated and terminated.all() and k > 0 else k + 1
    return most


def test_final_observations_take_rows_only_for_the_envs_that_ended(game):
    # every env is truncated in the same step, the most rows a step can need; a view of an
    # earlier step's rows stays readable when the buffer grows for more rows
    steps = _steps_before_any_game_ends(game, 6, 8, 2)
    env = dimsum.BatchEnv(game, 6, seed=8, threads=2, max_episode_steps=steps)
    env.reset()
    kept = None
    for k in range(steps):
        _, _, terminated, truncated, info = env.step(env.sample_actions(k))
        ended = terminated | truncated
        if k < steps - 1 and ended.any():  # a game the rules ended early: keep its rows, uncopied
            kept = (info["final_observation"], info["final_observation"].copy())
    np.testing.assert_array_equal(truncated | terminated, True)
    assert info["final_observation"].shape == (6, game.players, env.observation_size)
    np.testing.assert_array_equal(info["final_envs"], np.arange(6))
    if kept is not None:
        np.testing.assert_array_equal(kept[0], kept[1])
    # the next step ends no game: no rows at all
    _, _, terminated, truncated, info = env.step(env.sample_actions(steps))
    assert not (terminated | truncated).any()
    assert info["final_observation"].shape == (0, game.players, env.observation_size)
    assert info["final_envs"].shape == (0,)


def test_truncation_at_max_episode_steps(game):
    steps = _steps_before_any_game_ends(game, 3, 5, 1, one_truncated=True)
    env = dimsum.BatchEnv(game, 3, seed=5, threads=1, max_episode_steps=steps)
    env.reset()
    for k in range(steps - 1):
        _, _, terminated, truncated, _ = env.step(env.sample_actions(k))
        assert not truncated.any()
    _, rewards, terminated, truncated, info = env.step(env.sample_actions(steps - 1))
    np.testing.assert_array_equal(truncated, ~terminated)
    assert truncated.any()


# -- determinism ------------------------------------------------------------------------------


def test_same_trajectories_whatever_threads(game):
    # 200 envs, so that 2 and 3 threads really split the batch (a batch of fewer than 64 envs a
    # thread runs inline), compared step by step (a whole trace of 200 envs would be large)
    envs = [dimsum.BatchEnv(game, 200, seed=42, threads=threads, max_episode_steps=25) for threads in (1, 2, 3)]
    for threads, env in zip((1, 2, 3), envs):
        assert env.threads == threads
        env.reset()
    for k in range(80):
        actions = envs[0].sample_actions(k).copy()
        one = [step_record(envs[0], actions)]
        for env in envs[1:]:
            assert_traces_equal(one, [step_record(env, actions)])


def test_small_batches_on_two_threads_run_inline_and_match_one_thread(game):
    traces = []
    for threads in (1, 2):
        env = dimsum.BatchEnv(game, 16, seed=42, threads=threads, max_episode_steps=25)
        env.reset()
        traces.append(run(env, 60))
    assert_traces_equal(traces[0], traces[1])


def test_tiny_batches_on_more_threads_than_blocks():
    # 5 envs cut in blocks of 4 for 3 threads: a pool thread often finds no work left, the path
    # where the caller must not wait for it.
    game = dimsum.make("yum_cha", **SHORT["yum_cha"])
    traces = []
    for threads in (1, 3):
        env = dimsum.BatchEnv(game, 5, seed=77, threads=threads)
        env.reset()
        traces.append(run(env, 600))
    assert_traces_equal(traces[0], traces[1])


def test_env_i_plays_the_same_games_in_any_batch_size(game):
    small = dimsum.BatchEnv(game, 4, seed=9, threads=1, max_episode_steps=30)
    large = dimsum.BatchEnv(game, 160, seed=9, threads=2, max_episode_steps=30)  # split over 2 threads
    small.reset()
    large.reset()
    np.testing.assert_array_equal(small.sample_actions(7), large.sample_actions(7)[:4])
    assert_traces_equal(run(small, 100), run(large, 100), envs=slice(0, 4))


def test_matches_the_per_move_api(game):
    seed, n, max_steps = 123, 6, 20
    env = dimsum.BatchEnv(game, n, seed=seed, threads=2, max_episode_steps=max_steps)
    obs, info = env.reset()
    mirrors = [Mirror(game, seed, i, max_steps) for i in range(n)]
    ended = 0
    for k in range(150):
        for i, m in enumerate(mirrors):
            o, mask, p = m.current()
            np.testing.assert_array_equal(obs[i], o, err_msg=f"step {k} env {i}")
            np.testing.assert_array_equal(info["legal_mask"][i], mask)
            assert info["current_player"][i] == p
        actions = env.sample_actions(k)
        assert all(info["legal_mask"][i, a] for i, a in enumerate(actions))
        expected = [m.step(a) for m, a in zip(mirrors, actions.copy())]
        obs, rewards, terminated, truncated, info = env.step(actions)
        for i, (r, term, trunc, final) in enumerate(expected):
            assert (terminated[i], truncated[i]) == (term, trunc)
            np.testing.assert_array_equal(rewards[i], r)
            if final is not None:
                ended += 1
                np.testing.assert_array_equal(info["final_returns"][i], r)
                row = list(info["final_envs"]).index(i)
                np.testing.assert_array_equal(info["final_observation"][row], final)
        for i, m in enumerate(mirrors):
            assert env.clone_state(i) == m.state
    assert ended >= n


def test_reset_deals_the_same_games_again_and_a_new_seed_others(game):
    env = dimsum.BatchEnv(game, 4, seed=1)
    first, _ = env.reset()
    first = first.copy()
    run(env, 10)
    again, _ = env.reset()
    np.testing.assert_array_equal(first, again)
    assert [env.clone_state(i) for i in range(4)] == [game.new_state(derive_seed(derive_seed(1, i), 0)) for i in range(4)]
    env.reset(seed=2)
    assert env.seed == 2
    assert env.clone_state(0) == game.new_state(derive_seed(derive_seed(2, 0), 0))


def test_sample_actions_are_legal_and_vary(game):
    env = dimsum.BatchEnv(game, 32, seed=0)
    _, info = env.reset()
    seen = set()
    for k in range(20):
        actions = env.sample_actions(k)
        assert actions.dtype == np.int64 and actions.shape == (32,)
        assert info["legal_mask"][np.arange(32), actions].all()
        seen.add(tuple(actions))
        _, _, _, _, info = env.step(actions)
    assert len(seen) > 1


def test_sample_actions_are_the_documented_draw(game):
    """Env i's action is legal_actions()[Rng(derive_seed(seed ^ salt, i)).bounded(count)] (docs/API.md):
    the engine reads the legal actions from the mask its last step made, not from a new
    generation, and must pick the same one."""
    env = dimsum.BatchEnv(game, 8, seed=3, threads=2)
    for k in range(40):
        actions = env.sample_actions(k)
        for i in range(env.num_envs):
            legal = env.clone_state(i).legal_actions()
            rng = Rng(derive_seed(k ^ SAMPLE_SALT, i))
            assert actions[i] == legal[rng.bounded(len(legal))]
        env.step(actions)


# -- arrays are the env's own, reused ---------------------------------------------------------


def test_step_returns_the_same_arrays_every_time_unless_copy():
    game = dimsum.make("yum_cha")
    env = dimsum.BatchEnv(game, 3, seed=0)
    obs0, info0 = env.reset()
    out1 = env.step(env.sample_actions(0))
    out2 = env.step(env.sample_actions(1))
    assert out1[0] is obs0 and out2[0] is obs0
    for a, b in zip(out1[:4], out2[:4]):
        assert a is b
    for key in info0:
        assert out2[4][key] is info0[key]
    assert env.sample_actions(2) is env.sample_actions(3)
    copied = env.step(env.sample_actions(4), copy=True)
    assert copied[0] is not obs0
    np.testing.assert_array_equal(copied[0], obs0)
    np.testing.assert_array_equal(copied[4]["legal_mask"], info0["legal_mask"])


# -- illegal actions and bad input ------------------------------------------------------------


def snapshot(env):
    return [env.clone_state(i).to_bytes() for i in range(env.num_envs)]


def test_an_illegal_action_rejects_the_whole_step():
    game = dimsum.make("yum_cha")
    env = dimsum.BatchEnv(game, 4, seed=0)
    obs, info = env.reset()
    obs_before, mask_before, before = obs.copy(), info["legal_mask"].copy(), snapshot(env)
    actions = env.sample_actions(0).copy()
    illegal = int(np.flatnonzero(~info["legal_mask"][2])[0])
    actions[2] = illegal
    with pytest.raises(dimsum.IllegalActionError) as e:
        env.step(actions)
    message = str(e.value)
    assert "env 2" in message and f"action {illegal} ({game.action_name(illegal)})" in message
    assert "legal:" in message and game.action_name(int(np.flatnonzero(mask_before[2])[0])) in message
    assert snapshot(env) == before
    np.testing.assert_array_equal(obs, obs_before)
    np.testing.assert_array_equal(info["legal_mask"], mask_before)
    env.step(env.sample_actions(0))  # and the env still works


@pytest.mark.parametrize("bad", [-1, 10**6, 2**40])
def test_an_out_of_range_action_is_illegal(bad):
    env = dimsum.BatchEnv(dimsum.make("yum_cha"), 3, seed=0)
    env.reset()
    before = snapshot(env)
    actions = env.sample_actions(0).copy()
    actions[1] = bad
    with pytest.raises(dimsum.IllegalActionError, match=f"env 1: action {bad} is out of range"):
        env.step(actions)
    assert snapshot(env) == before


def test_the_first_illegal_env_is_named_whatever_the_threads():
    game = dimsum.make("yum_cha")
    for threads in (1, 2, 3):
        env = dimsum.BatchEnv(game, 200, seed=0, threads=threads)
        env.reset()
        before = snapshot(env)
        actions = env.sample_actions(0).copy()
        actions[[7, 150, 199]] = -1
        with pytest.raises(dimsum.IllegalActionError, match="env 7: action -1 is out of range"):
            env.step(actions)
        assert snapshot(env) == before


def test_legality_is_the_envs_own_not_the_returned_mask():
    game = dimsum.make("yum_cha")
    env = dimsum.BatchEnv(game, 4, seed=0, threads=2)
    _, info = env.reset()
    before = snapshot(env)
    mask = info["legal_mask"]
    actions = env.sample_actions(0).copy()
    illegal = int(np.flatnonzero(~mask[2])[0])
    mask[:] = True  # the user's array: writing into it makes nothing legal
    actions[2] = illegal
    with pytest.raises(dimsum.IllegalActionError, match=f"env 2: action {illegal} "):
        env.step(actions)
    assert snapshot(env) == before
    mask[:] = False  # nor illegal
    env.step(env.sample_actions(0))
    assert mask.any(axis=1).all()  # and the step wrote it afresh


def test_the_cpp_step_reports_env_and_action_and_python_words_them():
    game = dimsum.make("yum_cha")
    env = dimsum.BatchEnv(game, 3, seed=0)
    _, info = env.reset()
    actions = env.sample_actions(0).copy()
    illegal = int(np.flatnonzero(~info["legal_mask"][1])[0])
    actions[1] = illegal
    with pytest.raises(_batch.IllegalAction) as e:
        _batch._BatchEnv.step(env, actions)
    assert e.value.args == (1, illegal)
    assert isinstance(e.value, ValueError) and not isinstance(e.value, dimsum.IllegalActionError)


def test_config_bytes_of_another_build_or_game_are_refused():
    example = "yum_cha"  # the game whose config the others' are offered as
    game = dimsum.make(example)
    config, size, version = game.config_bytes(), game.state_size, game.version[0]
    for bad in [(config[:-1], size, version), (config + b"\0", size, version), (config, size + 8, version),
                (config, size, version + 1)]:
        with pytest.raises(ValueError, match="not from this build"):
            _batch._BatchEnv(example, *bad, 2, 0, 1, 10)
        with pytest.raises(ValueError, match="not from this build"):
            _batch.random_playouts(example, *bad, 2, 0)
    with pytest.raises(ValueError, match="not compiled"):
        _batch._BatchEnv("mahjong", config, size, version, 2, 0, 1, 10)
    with pytest.raises(ValueError, match="not compiled"):
        _batch.random_playouts("mahjong", config, size, version, 2, 0)
    for other in GAMES:
        if other != example:
            theirs = dimsum.make(other)
            with pytest.raises(ValueError, match="not from this build"):
                _batch._BatchEnv(example, theirs.config_bytes(), theirs.state_size, theirs.version[0], 2, 0, 1, 10)


@pytest.mark.parametrize(
    "actions, error",
    [
        (np.zeros(3, dtype=np.float64), TypeError),
        (np.zeros(3, dtype=bool), TypeError),
        (["a", "b", "c"], TypeError),
        (None, TypeError),
        ([0.0, 1.0, 2.0], TypeError),
        (np.zeros(2, dtype=np.int64), ValueError),
        (np.zeros(4, dtype=np.int64), ValueError),
        (np.zeros((3, 1), dtype=np.int64), ValueError),
        (0, ValueError),
    ],
)
def test_actions_of_the_wrong_type_or_shape_are_refused(actions, error):
    env = dimsum.BatchEnv(dimsum.make("yum_cha"), 3, seed=0)
    env.reset()
    before = snapshot(env)
    with pytest.raises(error, match="actions"):
        env.step(actions)
    assert snapshot(env) == before


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
                                   ">i4", ">u8", "<i2", "=i8"])
def test_actions_of_any_integer_dtype_and_layout(dtype):
    game = dimsum.make("yum_cha")
    reference = dimsum.BatchEnv(game, 3, seed=4)
    env = dimsum.BatchEnv(game, 3, seed=4)
    reference.reset()
    env.reset()
    for k in range(20):
        actions = reference.sample_actions(k).copy()
        strided = np.zeros(6, dtype=dtype)[::2]
        strided[:] = actions
        expected = reference.step(actions)[0].copy()
        got = env.step(strided if k % 2 else actions.astype(dtype).tolist())[0]
        np.testing.assert_array_equal(got, expected)


def test_constructor_arguments_are_validated():
    game = dimsum.make("yum_cha")
    with pytest.raises(TypeError):
        dimsum.BatchEnv("yum_cha", 4)
    with pytest.raises(ValueError):
        dimsum.BatchEnv(game, 0)
    with pytest.raises(TypeError):
        dimsum.BatchEnv(game, 2.5)
    with pytest.raises(ValueError):
        dimsum.BatchEnv(game, 4, threads=0)
    with pytest.raises(ValueError):
        dimsum.BatchEnv(game, 4, seed=2**64)
    with pytest.raises(ValueError):
        dimsum.BatchEnv(game, 4, max_episode_steps=0)
    assert dimsum.BatchEnv(game, 3, threads=8).threads == 3  # never more threads than envs
    assert dimsum.BatchEnv(game, 1).threads == 1
    assert dimsum.BatchEnv(game, 64).threads >= 1
    assert dimsum.BatchEnv(game, 2).max_episode_steps == game.max_game_length


# -- clone_state / set_state ------------------------------------------------------------------


def test_clone_state_is_an_independent_per_move_state(game):
    env = dimsum.BatchEnv(game, 4, seed=8)
    obs, info = env.reset()
    run(env, 5)
    state = env.clone_state(3)
    state.check()
    np.testing.assert_array_equal(state.observation(state.current_player), obs[3])
    np.testing.assert_array_equal(state.legal_mask(), info["legal_mask"][3])
    state.apply(state.legal_actions()[0])
    assert env.clone_state(3) != state
    with pytest.raises(ValueError):
        env.clone_state(4)


@pytest.mark.parametrize("name", GAMES)  # every game: a game that plays apply_unkeyed must rekey
@pytest.mark.parametrize("learner_seat", [None, 1])
def test_states_handed_out_have_exact_keys(name, learner_seat):
    # BatchEnv plays Nice Buns, Pig and Dim Sum Jam with apply_unkeyed (common/engine.hpp, "Key upkeep"), the key
    # left stale; clone_state must rekey: its key equals that of the same position rebuilt from its
    # dict (state_from_dict computes the key from scratch). With a learner seat the opponents' moves too.
    game = dimsum.make(name, players=3)
    env = dimsum.BatchEnv(game, 6, seed=12, threads=1, learner_seat=learner_seat)
    env.reset()
    checked = 0
    for k in range(40):
        env.step(env.sample_actions(k))
        if k % 8 == 7:
            for i in range(env.num_envs):
                state = env.clone_state(i)
                assert state.hash == game.state_from_dict(state.to_dict()).hash, (k, i)
                assert state.to_bytes() == game.state_from_bytes(state.to_bytes()).to_bytes()
                checked += 1
    assert checked == 30


def test_set_state_puts_a_position_into_an_env(game):
    env = dimsum.BatchEnv(game, 3, seed=8)
    obs, info = env.reset()
    state = game.new_state(999)
    for a in state.legal_actions()[:1]:
        state.apply(a)
    env.set_state(1, state)
    assert env.clone_state(1) == state
    np.testing.assert_array_equal(obs[1], state.observation(state.current_player))
    np.testing.assert_array_equal(info["legal_mask"][1], state.legal_mask())
    assert info["current_player"][1] == state.current_player
    actions = env.sample_actions(0).copy()
    env.step(actions)
    state.apply(int(actions[1]))
    if not state.is_terminal:
        assert env.clone_state(1) == state


def test_set_state_refuses_other_games_and_finished_games():
    game = dimsum.make("yum_cha", **SHORT["yum_cha"])
    env = dimsum.BatchEnv(game, 2, seed=0)
    with pytest.raises(TypeError):
        env.set_state(0, dimsum.make("yum_cha", players=2).new_state(0))
    with pytest.raises(TypeError):
        env.set_state(0, b"not a state")
    state = game.new_state(3)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    before = snapshot(env)
    with pytest.raises(ValueError, match="terminal"):
        env.set_state(0, state)
    assert snapshot(env) == before


def test_truncation_counts_the_history_of_a_state_set_in():
    game = dimsum.make("yum_cha")
    env = dimsum.BatchEnv(game, 1, seed=0, max_episode_steps=5)
    env.reset()
    state = game.new_state(5)
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    env.set_state(0, state)
    _, _, terminated, truncated, info = env.step(env.sample_actions(0))
    assert truncated[0] and not terminated[0]
    assert env.clone_state(0) == game.new_state(derive_seed(derive_seed(0, 0), 1))  # its next game, k = 1


# -- threads ----------------------------------------------------------------------------------


def test_two_envs_stepped_from_two_python_threads_at_once():
    game = dimsum.make("yum_cha", **SHORT["yum_cha"])
    expected = {}
    for seed in (1, 2):
        env = dimsum.BatchEnv(game, 64, seed=seed, threads=2)
        env.reset()
        expected[seed] = run(env, 150)
    got, errors = {}, []
    barrier = threading.Barrier(2)

    def work(seed):
        try:
            env = dimsum.BatchEnv(game, 64, seed=seed, threads=2)
            env.reset()
            barrier.wait()
            got[seed] = run(env, 150)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for seed in (1, 2):
        assert_traces_equal(got[seed], expected[seed])


def test_one_env_shared_by_two_python_threads_stays_consistent():
    game = dimsum.make("yum_cha", **SHORT["yum_cha"])
    env = dimsum.BatchEnv(game, 32, seed=3, threads=2)
    env.reset()
    errors = []

    def work(offset):
        try:
            for k in range(200):
                try:
                    env.step(env.sample_actions(offset + k))
                except dimsum.IllegalActionError:
                    pass  # the other thread moved the envs between our sample and our step
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in (0, 10**6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i in range(env.num_envs):
        env.clone_state(i).check()


# -- random_playouts on the same pool ---------------------------------------------------------


def test_random_playouts_do_not_depend_on_threads(game):
    returns, lengths = dimsum.random_playouts(game, 40, seed=6, threads=1)
    for threads in (2, 3):
        r, l = dimsum.random_playouts(game, 40, seed=6, threads=threads)
        np.testing.assert_array_equal(r, returns)
        np.testing.assert_array_equal(l, lengths)
    assert returns.shape == (40, game.players)
    assert (lengths >= 1).all() and (lengths <= game.max_game_length).all()
    r, l = dimsum.random_playouts(game, 0, seed=6, threads=2)
    assert r.shape == (0, game.players) and l.shape == (0,)
