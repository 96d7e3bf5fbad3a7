"""The PettingZoo AEC adapter (dimsum.pettingzoo): PettingZoo's own api, seed and render tests on
every game with a few option sets, and the adapter's conventions (docs/ADAPTERS.md)."""

import functools
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from needs import need_module
import processes

need_module("pettingzoo")
need_module("gymnasium")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import dimsum  # noqa: E402
from dimsum.pettingzoo import env as make_env  # noqa: E402
from dimsum.pettingzoo import raw_env  # noqa: E402

from dimsum.testing import profile  # noqa: E402

# Every game: its short games (its profile) at 2 seats, and the first option set its conformance
# suite runs beyond the defaults (other seats and rules), made short the same way.
OPTION_SETS = [(name, options) for name in dimsum.games()
               for options in ({**profile(name).small, "players": 2},
                               {**profile(name).small, **dict(profile(name).conformance[1])})]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in options.items())}" for name, options in OPTION_SETS]


def play_random_game(env, seed):
    """Plays one whole game with uniformly random legal moves; returns the summed rewards."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        total[agent] += reward
        legal = np.flatnonzero(observation["action_mask"])
        env.step(None if termination or truncation else int(rng.choice(legal)))
    return total


# api_test's advice for flat observations; a dict with an action mask is PettingZoo's own convention
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("name, options", OPTION_SETS, ids=IDS)
def test_pettingzoo_api_test(name, options):
    api_test(make_env(name, **options), num_cycles=300)


@pytest.mark.parametrize("name, options", OPTION_SETS, ids=IDS)
def test_pettingzoo_seed_test(name, options):
    seed_test(functools.partial(make_env, name, **options), num_cycles=300)


@pytest.mark.parametrize("name, options", OPTION_SETS, ids=IDS)
def test_pettingzoo_render_test(name, options, capsys):
    need_module("resvg_py")  # render_test renders every mode of the metadata, rgb_array (the render extra) among them
    render_test(functools.partial(make_env, name, **options))


@pytest.mark.parametrize("name", dimsum.games())
def test_ansi_render_is_the_selected_agents_view(name):
    env = make_env(name, render_mode="ansi")
    env.reset(seed=3)
    seat = int(env.agent_selection.split("_")[1])
    assert env.render() == env.unwrapped.state.observation_string(seat)


@pytest.mark.parametrize("name", dimsum.games())
def test_rewards_are_zero_until_the_end_then_the_games_returns(name):
    env = make_env(name)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if termination:
            break
        assert reward == 0.0
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    state = env.unwrapped.state
    assert state.is_terminal
    returns = state.returns()
    assert env.unwrapped.rewards == {f"player_{p}": returns[p] for p in range(len(returns))}


def test_the_same_seed_deals_the_same_game_as_new_state():
    env = make_env("nice_buns", players=3)
    env.reset(seed=42)
    assert env.unwrapped.state == dimsum.make("nice_buns", players=3).new_state(42)


def test_unseeded_resets_continue_from_the_last_seed():
    a, b = make_env("yum_cha"), make_env("yum_cha")
    a.reset(seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert a.unwrapped.state == b.unwrapped.state
    assert a.unwrapped.state != dimsum.make("yum_cha").new_state(5)


def test_max_steps_truncates_every_agent_with_zero_reward():
    env = make_env("nice_buns", players=3, max_steps=4)
    env.reset(seed=1)
    steps = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if truncation:
            assert reward == 0.0 and not termination
            assert not observation["action_mask"].any()
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps == 4 and env.agents == []


def test_an_illegal_action_raises_and_leaves_the_state_unchanged():
    env = make_env("yum_cha")
    env.reset(seed=2)
    before = env.unwrapped.state.clone()
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(dimsum.IllegalActionError):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.unwrapped.state == before


def test_explicit_chance_is_refused():
    with pytest.raises(ValueError, match="chance='explicit' is refused"):
        raw_env("nice_buns", chance="explicit")


def test_an_agent_sees_only_its_own_observation():
    """Fairness: two states that differ only in another seat's hidden cards (a resample for seat
    0 redraws the other hands) give seat 0 the same observation, and seat 1 a different one."""
    env = make_env("yum_cha", players=4)
    env.reset(seed=8)
    play = np.random.default_rng(8)
    for _ in range(6):  # a few moves in, so that some of the history is public
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(play.choice(np.flatnonzero(mask))))
    raw = env.unwrapped
    original = raw.state
    seen = {agent: env.observe(agent)["observation"].copy() for agent in env.possible_agents}
    for seed in range(20):
        other = original.resample(0, seed)
        if other.to_dict()["hands"][1] != original.to_dict()["hands"][1]:
            break
    else:
        pytest.fail("no resample changed seat 1's hand")
    raw.state = other
    np.testing.assert_array_equal(env.observe("player_0")["observation"], seen["player_0"])
    assert not np.array_equal(env.observe("player_1")["observation"], seen["player_1"])


def test_importing_dimsum_does_not_import_pettingzoo():
    code = ("import sys, dimsum; dimsum.make('yum_cha'); "
            "sys.exit('pettingzoo' in sys.modules or 'gymnasium' in sys.modules)")
    assert processes.run([sys.executable, "-c", code]).returncode == 0


@pytest.mark.parametrize("name", dimsum.games())
def test_whole_random_games_end_with_the_games_returns(name):
    env = make_env(name)
    for seed in range(3):
        total = play_random_game(env, seed)
        returns = env.unwrapped.state.returns()
        assert total == {f"player_{p}": returns[p] for p in range(len(returns))}


def test_step_or_observe_before_reset_is_refused():
    env = make_env("nice_buns")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")


def test_the_adapters_doc_examples_run():
    """docs/ADAPTERS.md's code blocks, as written."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "ADAPTERS.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 3  # PettingZoo, Gymnasium, the Gymnasium VectorEnv
    for block in blocks:
        exec(compile(block, "docs/ADAPTERS.md", "exec"), {})


# ---- hardening III (issue 21): Y9 actions that are not ints -------------------------------------

@pytest.mark.parametrize("action", [1.7, "1", np.float32(1.9), True, np.bool_(True), float("inf"), float("nan"),
                                    [1], np.array([1]), 1 + 0j], ids=repr)
def test_y9_step_refuses_what_is_not_an_int_of_the_action_space(action):
    env = make_env("nice_buns", players=2)
    env.reset(seed=2)
    before, agent = env.unwrapped.state.clone(), env.agent_selection
    with pytest.raises(TypeError, match="an action is an int in \\[0, "):
        env.step(action)
    assert env.unwrapped.state == before and env.agent_selection == agent


def test_y9_python_ints_numpy_integers_and_0d_integer_arrays_are_played():
    for kind in (int, np.int64, np.int32, np.uint8, lambda a: np.array(a, np.int16)):
        env, reference = make_env("nice_buns", players=2), make_env("nice_buns", players=2)
        env.reset(seed=2)
        reference.reset(seed=2)
        legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
        env.step(kind(legal))
        reference.step(legal)
        assert env.unwrapped.state == reference.unwrapped.state
    with pytest.raises(dimsum.IllegalActionError, match="out of range"):
        env.step(10**30)
