"""The Gymnasium single-agent adapter (dimsum.gymnasium): gymnasium's env checker on every game,
the registered ids, and the adapter's conventions (docs/ADAPTERS.md)."""

import sys

import numpy as np
import pytest

from needs import need_module
import processes

gymnasium = need_module("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import dimsum  # noqa: E402
from dimsum.gymnasium import ENV_IDS, DimsumEnv  # noqa: E402

GAMES = dimsum.games()


def play_random_episode(env, seed):
    """One episode with random legal moves; returns (rewards, terminated, truncated) of the last step."""
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards = []
    while True:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        if terminated or truncated:
            return rewards, terminated, truncated, info


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("render_mode", [None, "ansi"])
def test_gymnasium_env_checker_passes(name, render_mode):
    """check_env steps unmasked actions, one of them sampled before a reset, so it runs with
    illegal_action="terminate"; made through the id so that it also renders every mode."""
    env = gymnasium.make(ENV_IDS[name], render_mode=render_mode, illegal_action="terminate")
    check_env(env.unwrapped, skip_render_check=False)


def test_terminate_policy_ends_the_episode_on_an_illegal_action_with_the_worst_reward():
    env = DimsumEnv("yum_cha", illegal_action="terminate")
    observation, _ = env.reset(seed=2)
    before = env.state.clone()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    observation, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and not truncated and reward == env.game.min_return
    assert info == {"illegal_action": illegal, "ended_by_illegal_action": True} and not observation["action_mask"].any()
    assert env.state == before
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    env.reset(seed=2)
    assert env.state == before


@pytest.mark.parametrize("name", GAMES)
def test_the_registered_ids_make_the_game_with_options(name):
    env = gymnasium.make(ENV_IDS[name], players=3, learner_seat=2)
    assert env.unwrapped.game.name == name and env.unwrapped.game.players == 3
    assert env.unwrapped.learner_seat == 2
    observation, _ = env.reset(seed=0)
    assert env.observation_space.contains(observation)


def test_the_module_id_form_registers_on_make():
    env = gymnasium.make("dimsum.gymnasium:dimsum/NiceBuns-v0")
    assert env.unwrapped.game.name == "nice_buns"


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seat", [0, 1])
def test_reward_is_the_learners_return_at_the_end_and_zero_before(name, seat):
    env = DimsumEnv(name, learner_seat=seat)
    for seed in range(3):
        rewards, terminated, truncated, info = play_random_episode(env, seed)
        assert terminated and not truncated
        assert all(r == 0.0 for r in rewards[:-1])
        assert rewards[-1] == env.state.returns()[seat] == info["returns"][seat]


@pytest.mark.parametrize("name", GAMES)
def test_the_learner_acts_at_every_step(name):
    env = DimsumEnv(name, learner_seat=1)
    observation, _ = env.reset(seed=4)
    for _ in range(20):
        assert env.state.current_player == 1
        np.testing.assert_array_equal(observation["observation"], env.state.observation(1))
        np.testing.assert_array_equal(observation["action_mask"], env.state.legal_mask())
        observation, _, terminated, truncated, _ = env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        if terminated or truncated:
            break


def test_opponent_policies_are_called_with_the_state_for_their_seats():
    seen = []

    def first_legal(state):
        seen.append(state.current_player)
        return state.legal_actions()[0]

    env = DimsumEnv("nice_buns", players=3, opponents={1: first_legal, 2: first_legal})
    observation, _ = env.reset(seed=1)
    env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert seen and set(seen) <= {1, 2}


def test_a_missing_opponent_policy_is_refused():
    with pytest.raises(ValueError, match="seats \\[2\\]"):
        DimsumEnv("nice_buns", players=3, opponents={1: lambda s: s.legal_actions()[0]})


def test_seeded_resets_replay_the_same_episode_from_new_state_seed():
    a, b = DimsumEnv("yum_cha", learner_seat=2), DimsumEnv("yum_cha", learner_seat=2)
    assert play_random_episode(a, 9)[0] == play_random_episode(b, 9)[0]
    assert a.state == b.state
    a.reset(seed=9)  # new_state(9), then the opponents' opening moves up to seat 2's turn
    replayed = dimsum.make("yum_cha").new_state(9)
    for action in a.state.history:
        replayed.apply(action)
    assert replayed == a.state and a.state.current_player == 2


def test_unseeded_resets_continue_from_the_last_seed():
    a, b = DimsumEnv("nice_buns"), DimsumEnv("nice_buns")
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.reset()[0]["observation"].tolist() == b.reset()[0]["observation"].tolist()
    assert a.state == b.state


def test_max_steps_truncates_with_zero_reward():
    env = DimsumEnv("nice_buns", players=2, max_steps=6)
    rewards, terminated, truncated, _ = play_random_episode(env, 0)
    assert truncated and not terminated and rewards[-1] == 0.0
    assert env.steps >= 6
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_an_illegal_action_raises_and_leaves_the_state_unchanged():
    env = DimsumEnv("dim_sum_jam", illegal_action="raise")
    observation, _ = env.reset(seed=2)
    before = env.state.clone()
    with pytest.raises(dimsum.IllegalActionError):
        env.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert env.state == before


def test_explicit_chance_a_bad_seat_and_a_bad_policy_are_refused():
    with pytest.raises(ValueError, match="chance='explicit' is refused"):
        DimsumEnv("yum_cha", chance="explicit")
    with pytest.raises(ValueError, match="learner_seat"):
        DimsumEnv("yum_cha", players=2, learner_seat=2)
    with pytest.raises(ValueError, match="illegal_action"):
        DimsumEnv("yum_cha", illegal_action="ignore")


def test_ansi_render_is_the_learners_view():
    env = DimsumEnv("yum_cha", learner_seat=2, render_mode="ansi")
    env.reset(seed=3)
    assert env.render() == env.state.observation_string(2)


def test_the_gymnasium_adapter_needs_no_pettingzoo():
    """The gymnasium extra alone is enough: pettingzoo blocked, the env still plays."""
    code = ("import sys; sys.modules['pettingzoo'] = None\n"
            "import gymnasium, dimsum.gymnasium\n"
            "env = gymnasium.make('dimsum/DimSumJam-v0'); env.reset(seed=0)")
    assert processes.run([sys.executable, "-c", code]).returncode == 0


def test_opponents_may_be_bots_or_bot_specs_and_a_seeded_reset_replays_the_game():
    from dimsum import bots

    def episode(env, seed):
        obs, _ = env.reset(seed=seed)
        actions, done = [], False
        while not done:
            action = int(np.flatnonzero(obs["action_mask"])[0])
            obs, _, terminated, truncated, _ = env.step(action)
            actions.append(action)
            done = terminated or truncated
        return actions, env.unwrapped.state.returns()

    env = DimsumEnv("nice_buns", players=3, opponents={1: "heuristic", 2: "random"})
    assert episode(env, 4) == episode(env, 4)
    game = env.unwrapped.game
    env = DimsumEnv("nice_buns", players=3, opponents=bots.make("heuristic", game, seed=1))
    assert len(episode(env, 5)[0]) > 0
    with pytest.raises(ValueError, match="unknown bot kind 'hueristic'"):
        DimsumEnv("nice_buns", opponents="hueristic")
    with pytest.raises(ValueError, match="no parameter 'depth'"):
        DimsumEnv("nice_buns", opponents="heuristic:depth=3")
    with pytest.raises(ValueError, match=r"opponents\[1\] is not a callable"):
        DimsumEnv("nice_buns", opponents=42)


@pytest.mark.parametrize("name", GAMES)
def test_action_masks_is_the_learners_mask_through_the_wrappers(name):
    """sb3-contrib's convention: ``action_masks()`` (bool, num_actions), the learner seat's legal
    actions only, reached through gymnasium.make's wrappers with get_wrapper_attr as SB3 does."""
    env = gymnasium.make(ENV_IDS[name], players=3, learner_seat=1, illegal_action="raise")
    with pytest.raises(RuntimeError, match="call reset"):
        env.get_wrapper_attr("action_masks")()
    observation, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(400):
        mask = env.get_wrapper_attr("action_masks")()
        assert mask.dtype == np.bool_ and mask.shape == (env.unwrapped.game.num_actions,)
        state = env.unwrapped.state
        assert state.current_player == 1
        assert np.array_equal(mask, state.legal_mask()) and np.array_equal(mask, observation["action_mask"] == 1)
        observation, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            assert not env.get_wrapper_attr("action_masks")().any()
            observation, _ = env.reset()


@pytest.mark.parametrize("name", GAMES)
def test_check_env_passes_on_the_default_env_with_no_arguments(name):
    """The default illegal-action policy is "terminate" (PettingZoo classic's convention), so
    Gymnasium's checker, which steps unmasked samples, passes on ``gymnasium.make(id)`` as is."""
    env = gymnasium.make(ENV_IDS[name])
    assert env.unwrapped.illegal_action == "terminate"
    check_env(env)


def test_the_default_ends_the_episode_on_an_illegal_action_and_refuses_an_action_outside_the_space():
    env = DimsumEnv("nice_buns")
    observation, _ = env.reset(seed=3)
    before = env.state.clone()
    for bad in (-1, env.game.num_actions):
        with pytest.raises(dimsum.IllegalActionError, match=f"action {bad} is out of range: actions are 0..{env.game.num_actions - 1}"):
            env.step(bad)
        assert env.state == before and not env.forfeited
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (env.game.min_return, True, False,
                                                  {"illegal_action": illegal, "ended_by_illegal_action": True})
    assert env.state == before and not env.action_masks().any()


# ---- hardening III (issue 21): Y8 opponent failures, Y9 actions that are not ints ---------------

NOT_INTS = [1.7, "1", np.float32(1.9), True, np.bool_(True), float("inf"), float("nan"), None, [1],
            np.array([1]), 1 + 0j]


@pytest.mark.parametrize("action", NOT_INTS, ids=repr)
def test_y9_step_refuses_what_is_not_an_int_of_the_action_space(action):
    env = DimsumEnv("nice_buns", players=2)
    env.reset(seed=3)
    before = (env.state.clone(), env.steps, env.learner_steps)
    with pytest.raises(TypeError, match="an action is an int in \\[0, "):
        env.step(action)
    assert (env.state, env.steps, env.learner_steps) == before
    terminate = DimsumEnv("nice_buns", players=2, illegal_action="terminate")
    terminate.reset(seed=3)
    with pytest.raises(TypeError, match="an action is an int"):
        terminate.step(action)  # a wrong type is a bug in the caller, not an illegal move to forfeit


def test_y9_python_ints_numpy_integers_and_0d_integer_arrays_are_played():
    for kind in (int, np.int64, np.int32, np.uint8, lambda a: np.array(a, np.int16)):
        env = DimsumEnv("nice_buns", players=2)
        observation, _ = env.reset(seed=3)
        legal = int(np.flatnonzero(observation["action_mask"])[0])
        reference = DimsumEnv("nice_buns", players=2)
        reference.reset(seed=3)
        reference.step(legal)
        env.step(kind(legal))
        assert env.state == reference.state
    with pytest.raises(dimsum.IllegalActionError, match="out of range"):
        env.step(10**30)


class _FailingOpponent:
    """Plays its first ``good`` moves randomly, then fails: raises, or returns an illegal action
    or a float."""

    def __init__(self, how, good=0):
        self.how, self.good = how, good

    def act(self, state):
        if self.good > 0:
            self.good -= 1
            return state.legal_actions()[0]
        if self.how == "raise":
            raise RuntimeError("the opponent broke")
        if self.how == "illegal":
            return int(np.flatnonzero(state.legal_mask() == 0)[0])
        return float(state.legal_actions()[0])


@pytest.mark.parametrize("how, error", [("raise", RuntimeError), ("illegal", dimsum.IllegalActionError),
                                        ("float", TypeError)])
def test_y8_an_opponent_failure_puts_the_env_back_before_the_learners_action(how, error):
    opponent = _FailingOpponent(how, good=1 if how != "raise" else 0)
    env = DimsumEnv("yum_cha", players=2, opponents=opponent)
    observation, _ = env.reset(seed=4)
    caught = None
    while caught is None:  # the learner plays until the opponent, after its good moves, fails
        before = (env.state.clone(), env.steps, env.learner_steps)
        action = int(np.flatnonzero(observation["action_mask"])[0])
        try:
            observation, *_ = env.step(action)
        except error as e:
            caught = e
    assert (env.state, env.steps, env.learner_steps) == before
    assert env.state.current_player == env.learner_seat
    if sys.version_info >= (3, 11):
        assert any("the env is back to before that action" in note for note in caught.__notes__)
    # the next step is the learner's again, from the same state: with a working opponent it plays
    # exactly as a fresh env does (the state's random future was put back too)
    env._policies[1] = lambda state: state.legal_actions()[0]
    fresh = DimsumEnv("yum_cha", players=2, opponents=lambda state: state.legal_actions()[0])
    fresh.reset(seed=4)
    fresh.state = before[0].clone()
    assert env.step(action)[0]["observation"].tolist() == fresh.step(action)[0]["observation"].tolist()
    assert env.state == fresh.state


def test_y8_an_opponent_failing_in_resets_opening_leaves_no_episode():
    game = dimsum.make("yum_cha", players=2)
    seed = next(s for s in range(100) if game.new_state(s).current_player == 0)  # seat 0 opens
    env = DimsumEnv("yum_cha", players=2, learner_seat=1, opponents=_FailingOpponent("raise"))
    with pytest.raises(RuntimeError, match="the opponent broke"):
        env.reset(seed=seed)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_the_mask_is_built_for_the_learner_seat_only():
    """Issue 20: were the env ever to hold a state where another seat is to act, its mask and
    action_masks() would show nothing of that seat's options (a hand, in Yum Cha)."""
    env = DimsumEnv("yum_cha", players=3, learner_seat=0)
    env.reset(seed=1)
    assert env.action_masks().any()
    state = env.state
    while state.current_player == 0:
        state.apply(state.legal_actions()[0])
    assert not env.action_masks().any() and not env._observation()["action_mask"].any()
