"""BatchEnv's rows are updated in place (only the entries that change are written:
common/observation_row.hpp): every step's obs row is the per-move API's observation for the player
to act, bit for bit, and the legal mask its legal actions, in every game, with every seat's turn
(a row passes from seat to seat), across auto-resets (ended and truncated games), after set_state
and after reset, in every rule variant of the conformance set, with learner seats and timed steps.
A row updated from what it showed (Dim Sum Jam's observe_changes) is compared after jumps of many
actions too: a learner seat's row skips the opponents' turns, an auto-reset jumps to a new deal."""

import numpy as np
import pytest

import dimsum
from dimsum import _core
from dimsum.testing import profile

GAMES = _core.registered_games()
# the benchmarks' configurations and the small ones (short games: many auto-resets)
CONFIGS = [(name, kind) for name in GAMES for kind in ("bench", "small")]
# every rule variant the conformance tests play (other seat counts, variants, time off)
VARIANTS = [(name, k) for name in GAMES for k in range(len(profile(name).conformance))]


def make(name, kind):
    return dimsum.make(name, **getattr(profile(name), kind))


def assert_rows_are_the_per_move_apis(env, obs, mask, player):
    for i in range(env.num_envs):
        state = env.clone_state(i)
        assert player[i] == state.current_player
        expected = state.observation(state.current_player)
        # bits, not values: -0.0 against 0.0 or a NaN would show
        np.testing.assert_array_equal(obs[i].view(np.uint32), expected.view(np.uint32), err_msg=f"env {i}")
        np.testing.assert_array_equal(np.flatnonzero(mask[i]), state.legal_actions(), err_msg=f"env {i}")


def play_checking_every_row(env, steps):
    """reset, then `steps` steps of sampled actions, every row and mask checked after each;
    returns how many games ended or were truncated on the way."""
    obs, info = env.reset()
    assert_rows_are_the_per_move_apis(env, obs, info["legal_mask"], info["current_player"])
    ended = 0
    for k in range(steps):
        obs, _, terminated, truncated, info = env.step(env.sample_actions(k))
        ended += int((terminated | truncated).sum())
        assert_rows_are_the_per_move_apis(env, obs, info["legal_mask"], info["current_player"])
    return ended


@pytest.mark.parametrize("name,kind", CONFIGS)
def test_every_steps_rows_are_the_per_move_observations(name, kind):
    env = dimsum.BatchEnv(make(name, kind), 12, seed=5 + len(name), threads=1)
    ended = play_checking_every_row(env, 150)
    assert ended > 0 or kind == "bench"  # the small games end within these steps


@pytest.mark.parametrize("name", GAMES)
def test_learner_seat_rows_are_the_per_move_observations(name):
    env = dimsum.BatchEnv(make(name, "small"), 8, seed=3, threads=2, learner_seat=1)
    obs, info = env.reset()
    assert_rows_are_the_per_move_apis(env, obs, info["legal_mask"], info["current_player"])
    for k in range(100):
        obs, _, _, _, info = env.step(env.sample_actions(k))
        assert_rows_are_the_per_move_apis(env, obs, info["legal_mask"], info["current_player"])


@pytest.mark.parametrize("name", GAMES)
def test_rows_after_set_state_and_the_steps_after_it(name):
    game = make(name, "small")
    env = dimsum.BatchEnv(game, 6, seed=11, threads=1)
    obs, info = env.reset()
    donor = dimsum.BatchEnv(game, 6, seed=12, threads=1)
    donor.reset()
    for k in range(40):
        env.step(env.sample_actions(k))
        donor.step(donor.sample_actions(k))
        if k % 7 == 3:  # another game's position, often another seat to act, into env k % 6
            env.set_state(k % 6, donor.clone_state((k + 1) % 6))
            assert_rows_are_the_per_move_apis(env, obs, info["legal_mask"], info["current_player"])
    assert_rows_are_the_per_move_apis(env, obs, info["legal_mask"], info["current_player"])


@pytest.mark.parametrize("name", GAMES)
def test_reset_and_set_state_rewrite_a_row_the_caller_wrote_into(name):
    """docs/API.md: a step writes only the entries that change, so a row the caller wrote into
    is rewritten whole by reset() (every row) and set_state (its env's row) only."""
    game = make(name, "small")
    env = dimsum.BatchEnv(game, 4, seed=1, threads=1)
    obs, info = env.reset()
    for k in range(5):
        env.step(env.sample_actions(k))
    obs[:] = 7.0
    info["legal_mask"][:] = True
    for i in range(env.num_envs):
        env.set_state(i, env.clone_state(i))
    assert_rows_are_the_per_move_apis(env, obs, info["legal_mask"], info["current_player"])
    obs[:] = -3.0
    info["legal_mask"][:] = False
    obs, info = env.reset()
    assert_rows_are_the_per_move_apis(env, obs, info["legal_mask"], info["current_player"])
    for k in range(20):
        obs, _, _, _, info = env.step(env.sample_actions(k))
        assert_rows_are_the_per_move_apis(env, obs, info["legal_mask"], info["current_player"])


@pytest.mark.parametrize("name,k", VARIANTS)
def test_rows_in_every_rule_variant_with_truncations(name, k):
    game = dimsum.make(name, **profile(name).conformance[k])
    if game.explicit_chance:
        pytest.skip("BatchEnv plays sampled games only")
    # max_episode_steps short enough that games are truncated as well as ended
    env = dimsum.BatchEnv(game, 6, seed=100 + k, threads=1, max_episode_steps=25)
    assert play_checking_every_row(env, 80) > 0


@pytest.mark.parametrize("name", GAMES)
def test_rows_with_a_learner_seat_per_env_and_the_heuristic_opponent(name):
    """Each env's row is its own seat's, seats 0 to players - 1 across the envs; between two
    steps the opponents play any number of actions (the row jumps over them)."""
    game = make(name, "bench")
    seats = tuple(i % game.players for i in range(2 * game.players))
    env = dimsum.BatchEnv(game, len(seats), seed=8, threads=1, learner_seat=seats, opponent="heuristic")
    obs, info = env.reset()
    assert_rows_are_the_per_move_apis(env, obs, info["legal_mask"], info["current_player"])
    for step in range(120):
        obs, _, _, _, info = env.step(env.sample_actions(step))
        assert list(info["current_player"]) == list(seats)
        assert_rows_are_the_per_move_apis(env, obs, info["legal_mask"], info["current_player"])


def test_rows_when_steps_take_other_ticks_than_their_default():
    """Dim Sum Jam is timed: a step that charges its own ticks moves the clock and may run the
    glass out (a time-out), which the default costs rarely do."""
    game = make("dim_sum_jam", "small")
    env = dimsum.BatchEnv(game, 8, seed=21, threads=1)
    obs, info = env.reset()
    rng = np.random.default_rng(4)
    for step in range(120):
        ticks = rng.integers(0, game.options["glass_ticks"] // 2, size=env.num_envs)
        obs, _, _, _, info = env.step(env.sample_actions(step), ticks=ticks)
        assert_rows_are_the_per_move_apis(env, obs, info["legal_mask"], info["current_player"])


@pytest.mark.parametrize("players", [2, 4, 6])
def test_yum_cha_rows_are_the_reference_engines_observations(players):
    """Yum Cha's count slices and scalars are stored whole every step (observation_row.hpp's
    set_counts and put, never marked) while its one-hots are updated in place: the per-move API
    shares that writer, so the rows are checked against the pure-Python reference engine, which
    shares nothing with it, across seat changes and auto-resets (a count falling to zero, a
    row passed to another seat)."""
    import dimsum.reference

    options = dict(players=players, rounds=1, max_turns_per_round=12)
    ref = dimsum.reference.make("yum_cha", **options)
    env = dimsum.BatchEnv(dimsum.make("yum_cha", **options), 8, seed=5, threads=1)
    obs, info = env.reset()
    ended = 0
    for k in range(60):
        obs, _, terminated, truncated, info = env.step(env.sample_actions(k))
        ended += int(terminated.sum() + truncated.sum())
        for i in range(env.num_envs):
            state = ref.state_from_dict(env.clone_state(i).to_dict())
            expected = np.asarray(state.observation(info["current_player"][i]), dtype=np.float32)
            assert obs[i].view(np.uint32).tolist() == expected.view(np.uint32).tolist(), (k, i)
    assert ended > 0  # the auto-reset path was taken
