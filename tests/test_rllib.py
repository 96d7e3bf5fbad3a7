"""dimsum.rllib: the games as RLlib multi-agent envs (new API stack), checked as RLlib checks them,
attacked with the action dicts a buggy or hostile trainer sends, and trained: RLlib's PPO with its
own example masking module, as its docs write it with only the env changed, and with
dimsum.rllib's module, one policy per seat, on a local Ray instance with two env runners.
Skipped without RLlib; a failure under DIMSUM_REQUIRE_ALL=1."""

import subprocess
import sys

import numpy as np
import pytest

from needs import need_module

need_module("ray.rllib")
torch = need_module("torch")

import dimsum  # noqa: E402
from dimsum.rllib import ACTION_MASK, OBSERVATIONS, DimsumMultiAgentEnv, MaskedPPOTorchRLModule, \
    ppo_self_play  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402
from dimsum.testing import profile  # noqa: E402

GAMES = dimsum.games()
SMALL = {name: dict(profile(name).small) for name in GAMES}  # short games (each game's profile)


def _env(game, **config):
    return DimsumMultiAgentEnv(dict(SMALL[game], game=game, **config))


def _illegal_action(env):
    legal = set(env.state.legal_actions())
    return next(a for a in range(env.game.num_actions) if a not in legal)


@pytest.mark.parametrize("game", GAMES)
def test_rllibs_env_checker_passes_unmodified(game):
    """RLlib's check_multiagent_environments, as its env runners call it: reset(seed=42), then one
    step of action_space.sample() for the agent to act, unmasked, so often illegal (the PettingZoo
    env raised there, which RLlib reported as "does not abide to the new gymnasium-style API").
    An illegal draw ends the episode (a legal first move never does): 40 calls give both."""
    env = _env(game)
    forfeits = 0
    for _ in range(40):
        check_multiagent_environments(env)
        forfeits += env.over
    env.reset(seed=42)
    illegal_at_start = env.game.num_actions - len(env.state.legal_actions())
    assert forfeits > 0 if illegal_at_start else forfeits == 0
    env.reset(seed=42)
    observations, rewards, terminateds, truncateds, infos = env.step({env._acting(): _illegal_action(env)})
    assert terminateds["__all__"] and infos[env._acting()] == {"illegal_action": _illegal_action(env)}


@pytest.mark.parametrize("game", GAMES)
def test_each_agent_sees_only_its_own_seat(game):
    """Random legal games: every step shows the agent to act, alone, its own view and its own legal
    moves; the last step shows every seat its own view, no moves, and its own return."""
    env = _env(game, max_steps=400)
    rng = np.random.default_rng(3)
    for seed in range(3):
        observations, infos = env.reset(seed=seed)
        while True:
            seat = env.state.current_player
            assert list(observations) == [f"player_{seat}"]
            view = observations[f"player_{seat}"]
            assert env.observation_spaces[f"player_{seat}"].contains(view)
            assert np.array_equal(view[OBSERVATIONS], env.state.observation(seat))
            assert np.array_equal(view[ACTION_MASK], env.state.legal_mask().astype(np.float32))
            action = int(rng.choice(env.state.legal_actions()))
            observations, rewards, terminateds, truncateds, infos = env.step({f"player_{seat}": action})
            if terminateds["__all__"] or truncateds["__all__"]:
                break
            assert rewards == {f"player_{seat}": 0.0}
        assert sorted(observations) == sorted(env.possible_agents) == sorted(rewards)
        for agent, view in observations.items():
            assert np.array_equal(view[OBSERVATIONS], env.state.observation(env._seat[agent]))
            assert not view[ACTION_MASK].any()
        if terminateds["__all__"]:
            assert [rewards[a] for a in env.possible_agents] == list(env.state.returns())
            assert all(terminateds[a] for a in env.possible_agents) and not truncateds["__all__"]
        else:  # cut by max_steps: no result, and RLlib gets the last observation it bootstraps from
            assert set(rewards.values()) == {0.0} and all(truncateds[a] for a in env.possible_agents)


def test_dim_sum_jam_shares_its_team_reward_a_forfeit_too():
    env = _env("dim_sum_jam")
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    while True:
        agent = env._acting()
        observations, rewards, terminateds, truncateds, infos = env.step({agent: int(rng.choice(env.state.legal_actions()))})
        if terminateds["__all__"]:
            break
    assert len(set(rewards.values())) == 1 and len(rewards) == 3
    env.reset(seed=1)
    observations, rewards, terminateds, truncateds, infos = env.step({env._acting(): _illegal_action(env)})
    assert set(rewards.values()) == {float(env.game.min_return)} and len(rewards) == 3


def test_a_forfeit_gives_the_offender_the_worst_return_and_leaves_the_state_untouched():
    env = _env("pig")
    env.reset(seed=5)
    before = env.state.to_bytes()
    offender = env._acting()
    observations, rewards, terminateds, truncateds, infos = env.step({offender: _illegal_action(env)})
    assert env.state.to_bytes() == before
    assert rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    with pytest.raises(RuntimeError, match="the episode is over: call reset"):
        env.step({offender: 0})


# What a buggy or hostile trainer sends to step(): each is refused with a clear error, the game
# unchanged and the same agent still to act.
def _hostile_steps(env):
    agent, other = env._acting(), next(a for a in env.possible_agents if a != env._acting())
    legal = env.state.legal_actions()[0]
    return [
        ({other: legal}, ValueError, "for the agent to act"),
        ({agent: legal, other: legal}, ValueError, "alone"),
        ({}, ValueError, "for the agent to act"),
        ({"player_99": legal}, ValueError, "for the agent to act"),
        ({"__all__": legal}, ValueError, "for the agent to act"),
        ([legal], ValueError, "for the agent to act"),
        (legal, ValueError, "for the agent to act"),
        ({agent: 1.7}, TypeError, "an action is an int"),
        ({agent: True}, TypeError, "an action is an int"),
        ({agent: "1"}, TypeError, "an action is an int"),
        ({agent: None}, TypeError, "an action is an int"),
        ({agent: np.array([legal, legal])}, TypeError, "an action is an int"),
        ({agent: -1}, dimsum.IllegalActionError, "out of range"),
        ({agent: env.game.num_actions}, dimsum.IllegalActionError, "out of range"),
        ({agent: 2 ** 70}, dimsum.IllegalActionError, "out of range"),
    ]


@pytest.mark.parametrize("game", GAMES)
def test_hostile_action_dicts_are_refused_cleanly(game):
    env = _env(game)
    env.reset(seed=9)
    before, agent = env.state.to_bytes(), env._acting()
    cases = _hostile_steps(env)
    for action_dict, error, message in cases:
        with pytest.raises(error, match=message):
            env.step(action_dict)
        assert env.state.to_bytes() == before and env._acting() == agent and not env.over
    env.step({agent: env.state.legal_actions()[0]})  # and the game goes on


def test_illegal_action_raise_refuses_and_keeps_the_turn():
    env = _env("nice_buns", illegal_action="raise")
    env.reset(seed=2)
    before, agent = env.state.to_bytes(), env._acting()
    with pytest.raises(dimsum.IllegalActionError):
        env.step({agent: _illegal_action(env)})
    assert env.state.to_bytes() == before and env._acting() == agent and not env.over


def test_step_before_reset_and_bad_configs_are_refused():
    with pytest.raises(RuntimeError, match="call reset"):
        _env("pig").step({"player_0": 0})
    for config, error, message in [
        ({}, ValueError, "needs 'game'"),
        ({"game": 3}, ValueError, "needs 'game'"),
        ({"game": "chess"}, ValueError, "chess"),
        ({"game": "pig", "illegal_action": "ignore"}, ValueError, "illegal_action"),
        ({"game": "pig", "chance": "explicit"}, ValueError, "chance"),
        ({"game": "pig", "max_steps": 0}, ValueError, "max_steps"),
        ({"game": "pig", "ticks": 5}, ValueError, "not timed"),
        ({"game": "pig", "no_such_option": 1}, (ValueError, TypeError), "no_such_option"),
    ]:
        with pytest.raises(error, match=message):
            DimsumMultiAgentEnv(config)
    with pytest.raises(ValueError, match="no options"):
        _env("pig").reset(options={"players": 9})


def test_a_seeded_reset_replays_the_game():
    def play(env, seed):
        observations, _ = env.reset(seed=seed)
        trace = []
        while True:
            agent = next(iter(observations))
            action = int(np.flatnonzero(observations[agent][ACTION_MASK])[-1])
            trace.append((agent, action))
            observations, rewards, terminateds, truncateds, _ = env.step({agent: action})
            if terminateds["__all__"] or truncateds["__all__"]:
                return trace, rewards
    assert play(_env("nice_buns"), 11) == play(_env("nice_buns"), 11)


def test_the_masking_module_never_picks_a_masked_action():
    env = _env("nice_buns")
    module = MaskedPPOTorchRLModule(observation_space=env.observation_spaces["player_0"],
                                    action_space=env.action_spaces["player_0"],
                                    model_config={"fcnet_hiddens": [8], "head_fcnet_hiddens": [8]})
    observations = []
    for seed in range(16):
        view, _ = env.reset(seed=seed)
        observations.append(next(iter(view.values())))
    batch = {"obs": {k: torch.as_tensor(np.stack([o[k] for o in observations])) for k in (OBSERVATIONS, ACTION_MASK)}}
    masks = batch["obs"][ACTION_MASK] > 0
    for forward in (module.forward_exploration, module.forward_inference, module.forward_train):
        with torch.no_grad():
            logits = forward(dict(batch))["action_dist_inputs"]
        probabilities = torch.softmax(logits, -1)
        assert float(probabilities[~masks].max()) == 0.0 and torch.allclose(probabilities.sum(-1), torch.ones(16))
        assert bool(masks.gather(1, logits.argmax(-1, keepdim=True)).all())
    assert module.compute_values(dict(batch)).shape == (16,)
    assert set(batch["obs"]) == {OBSERVATIONS, ACTION_MASK}  # the caller's batch is left as it was
    with pytest.raises(ValueError, match="Dict observation space"):
        MaskedPPOTorchRLModule(observation_space=env.observation_spaces["player_0"][OBSERVATIONS],
                               action_space=env.action_spaces["player_0"])


def test_without_the_extra_the_import_names_it():
    code = ("import sys; sys.modules['ray.rllib'] = None\n"
            "try:\n    import dimsum.rllib\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert 'pip install "dimsum-games[rllib]"' in out.stdout, out.stdout + out.stderr


# ---- training on a local Ray instance -------------------------------------------------------------

TINY = {"fcnet_hiddens": [16], "head_fcnet_hiddens": [16]}


@pytest.fixture(scope="module")
def local_ray():
    ray = need_module("ray")
    torch.set_num_threads(1)  # the learner runs in this process (num_learners=0)
    try:  # shut down also when the start fails half-way, or a test is interrupted
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
        yield ray
    finally:
        ray.shutdown()


def _parameters(algo, module_id):
    return [p.detach().clone() for p in algo.get_module(module_id).parameters()]


def _train(algo, module_ids, iterations):
    before = {m: _parameters(algo, m) for m in module_ids}
    results = [algo.train() for _ in range(iterations)]
    for m in module_ids:  # every policy learned: its weights moved
        assert any(not torch.equal(a, b) for a, b in zip(before[m], _parameters(algo, m))), m
    return results


def test_rllibs_docs_ppo_with_its_example_masking_module_trains_self_play(local_ray):
    """RLlib's PPO as its docs write a multi-agent masking run (PPOConfig, its example
    ActionMaskingTorchRLModule, a policy mapping), the env checker on; only the env is ours."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    config = (
        PPOConfig()
        .environment(DimsumMultiAgentEnv, env_config={"game": "nice_buns", "players": 2})
        .multi_agent(policies={"p0"}, policy_mapping_fn=lambda agent_id, episode, **kwargs: "p0")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            "p0": RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=TINY)}))
        .env_runners(num_env_runners=2, rollout_fragment_length=64)
        .training(train_batch_size_per_learner=256, minibatch_size=64, num_epochs=1)
    )
    assert not config.disable_env_checking
    algo = config.build_algo()
    try:
        results = _train(algo, ["p0"], 3)
    finally:
        algo.stop()
    runners = results[-1]["env_runners"]
    assert runners["num_env_steps_sampled_lifetime"] >= 3 * 256 and runners["num_episodes_lifetime"] >= 3
    # Nice Buns' returns add up to 1 in a game played to its end; a forfeit (an illegal action)
    # would give 0, a cut game 0: every episode ended by the rules, no illegal action sampled
    assert all(r["env_runners"]["episode_return_mean"] == 1.0 for r in results if "episode_return_mean" in r["env_runners"])


def test_one_policy_per_seat_with_dimsums_module_trains(local_ray):
    config = (ppo_self_play("pig", "per_seat", model_config=TINY)
              .env_runners(num_env_runners=2, rollout_fragment_length=64)
              .training(train_batch_size_per_learner=256, minibatch_size=64, num_epochs=1))
    algo = config.build_algo()
    try:
        results = _train(algo, ["player_0", "player_1"], 2)
    finally:
        algo.stop()
    assert {"player_0", "player_1"} <= set(results[-1]["learners"])
    # Pig is zero-sum: a game's returns add up to 0; a forfeit would give -1
    assert all(r["env_runners"]["episode_return_mean"] == 0.0 for r in results if "episode_return_mean" in r["env_runners"])
