"""dimsum.sb3.DimsumVecEnv (an SB3 VecEnv over BatchEnv's learner-seat mode) and the single
Gymnasium env under Stable-Baselines3 and sb3-contrib (docs/TRAINING.md).

SB3 ships no checker for a VecEnv (its check_env takes single envs: run here on DimsumEnv), so
the VecEnv contract is tested directly: every step, auto-reset included, equals single DimsumEnv
envs driven with the same deals and opponent streams (the reference of tests/test_gymnasium_vector.py)
in SB3's shapes; SB3's own wrappers (VecMonitor, VecNormalize) and MaskablePPO run on it."""

import numpy as np
import pytest

from needs import need_module

need_module("gymnasium")
need_module("stable_baselines3")
need_module("sb3_contrib")
torch = need_module("torch")

import gymnasium  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.env_checker import check_env as sb3_check_env  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402
from stable_baselines3.common.vec_env import VecMonitor, VecNormalize  # noqa: E402
from test_gymnasium_vector import SMALL, ReferenceEnvs, random_actions  # noqa: E402

import dimsum  # noqa: E402
from dimsum.gymnasium import ENV_IDS, DimsumEnv  # noqa: E402
from dimsum.reference.rng import derive_seed  # noqa: E402
from dimsum.sb3 import DimsumVecEnv  # noqa: E402

GAMES = dimsum.games()
torch.set_num_threads(1)  # tiny networks: threads only contend on the shared cores


def masks_of(env):
    return np.stack(env.env_method("action_masks"))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("learner_seat, max_steps", [(0, None), ((1, 0, 2, 1), None), (0, 20)],
                         ids=["seat0", "per_env", "cut_at_20"])
def test_every_step_equals_single_envs_in_sb3s_shapes(name, learner_seat, max_steps):
    """obs, masks (env_method), rewards, dones, and at each auto-reset infos' terminal_observation,
    TimeLimit.truncated and returns, against DimsumEnv envs dealt env i's k-th game with the same
    opponent stream; with max_steps=20, games are cut (TimeLimit.truncated)."""
    num_envs, seed = 4, 11
    if max_steps is not None:  # a cut some games reach: a short game's is below its longest
        max_steps = min(max_steps, dimsum.make(name, **SMALL[name]).max_game_length // 2)
    env = DimsumVecEnv(name, num_envs=num_envs, learner_seat=learner_seat, max_steps=max_steps, **SMALL[name])
    ref = ReferenceEnvs(name, num_envs, seed, learner_seat, max_steps=max_steps, **SMALL[name])
    assert env.seed(seed) == [derive_seed(seed, i) for i in range(num_envs)]
    obs = env.reset()
    rng = np.random.default_rng(seed)
    ended = cut = 0  # games ended by the rules, games cut at max_steps
    for _ in range(150):
        assert all(env.observation_space[key].contains(obs[key][i]) for key in obs for i in range(num_envs))
        masks = masks_of(env)
        assert masks.dtype == np.bool_ and np.array_equal(masks, obs["action_mask"] == 1)
        assert np.array_equal(get_action_masks(env), masks)
        for i in range(num_envs):
            assert np.array_equal(obs["observation"][i], ref.obs[i]["observation"])
            assert np.array_equal(obs["action_mask"][i], ref.obs[i]["action_mask"])
        actions = random_actions(rng, obs["action_mask"])
        obs, rewards, dones, infos = env.step(actions)
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_ and len(infos) == num_envs
        for i in range(num_envs):
            ref.obs[i], reward, terminated, truncated, final = ref.step(i, actions[i])
            assert (rewards[i], dones[i]) == (np.float32(reward), terminated or truncated)
            if not dones[i]:
                assert infos[i] == {}
                continue
            ended += int(terminated)
            cut += int(truncated)
            final_obs, returns = final
            assert np.array_equal(infos[i]["terminal_observation"]["observation"], final_obs["observation"])
            assert not infos[i]["terminal_observation"]["action_mask"].any()
            assert infos[i]["TimeLimit.truncated"] == (truncated and not terminated)
            assert infos[i].get("returns") == returns
    if max_steps is None:
        assert ended > 0 and cut == 0, f"{ended} games ended by the rules, {cut} cut"
    else:
        assert cut > 0, "no game was cut at max_steps"


def test_sb3s_checker_passes_on_the_single_env_and_make_vec_env_needs_only_the_id():
    for name in GAMES:
        sb3_check_env(DimsumEnv(name), warn=False)
    env = make_vec_env(ENV_IDS["nice_buns"], n_envs=4)  # asks for render_mode="rgb_array"
    env.reset()
    assert is_masking_supported(env) and get_action_masks(env).shape == (4, env.action_space.n)
    MaskablePPO("MultiInputPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0).learn(64)


def test_maskable_ppo_trains_on_the_vec_env_under_vec_monitor_and_vec_normalize():
    env = DimsumVecEnv("nice_buns", num_envs=8, players=2, opponent="heuristic")
    monitored = VecMonitor(env)
    wrapped = VecNormalize(monitored, norm_obs_keys=["observation"])
    assert is_masking_supported(wrapped)
    model = MaskablePPO("MultiInputPolicy", wrapped, n_steps=64, batch_size=128, n_epochs=1, seed=0)
    model.learn(8 * 64 * 2)
    assert model.num_timesteps == 1024
    episodes = monitored.episode_count
    assert episodes > 0 and monitored.get_attr("opponent") == ["heuristic"] * 8


def test_vec_monitor_reads_each_episode_as_the_learners_return_and_steps():
    env = VecMonitor(DimsumVecEnv("yum_cha", num_envs=6, **SMALL["yum_cha"]))
    env.seed(2)
    obs = env.reset()
    rng = np.random.default_rng(2)
    lengths = np.zeros(6, int)
    seen = 0
    for _ in range(200):
        obs, rewards, dones, infos = env.step(random_actions(rng, obs["action_mask"]))
        lengths += 1
        for i in np.flatnonzero(dones):
            episode = infos[i]["episode"]
            assert episode["l"] == lengths[i] and episode["r"] == pytest.approx(infos[i]["returns"][0])
            lengths[i] = 0
            seen += 1
    assert seen > 0


def test_seeding_replays_and_unseeded_resets_follow_the_seed():
    env = DimsumVecEnv("yum_cha", num_envs=3, players=4)
    env.seed(9)
    first = env.reset()["observation"]
    after = env.reset()["observation"]
    env.seed(9)
    assert np.array_equal(first, env.reset()["observation"])
    assert np.array_equal(after, env.reset()["observation"])
    with pytest.raises(TypeError, match="one base seed"):
        env.seed([1, 2, 3])
    assert DimsumVecEnv("yum_cha", num_envs=3, seed=4).reset()["observation"].tolist() == \
        DimsumVecEnv("yum_cha", num_envs=3, seed=4).reset()["observation"].tolist()


def test_bad_actions_raise_and_leave_every_env_where_it_was():
    env = DimsumVecEnv("nice_buns", num_envs=4, players=3)
    env.seed(1)
    obs = env.reset()
    before = [env.batch_env.clone_state(i) for i in range(4)]
    legal = random_actions(np.random.default_rng(0), obs["action_mask"])
    illegal = legal.copy()
    illegal[2] = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
    for bad, error, message in [(legal[:3], ValueError, r"shape \(num_envs,\) = \(4,\)"),
                                (legal.reshape(4, 1), ValueError, "shape"),
                                (legal.astype(float), TypeError, "integers"),
                                (np.full(4, np.inf), TypeError, "integers"),
                                (illegal, dimsum.IllegalActionError, "env 2: action"),
                                (np.full(4, 10_000), dimsum.IllegalActionError, "out of range")]:
        with pytest.raises(error, match=message):
            env.step(bad)
        assert [env.batch_env.clone_state(i) for i in range(4)] == before
    env.step(legal)  # still usable
    with pytest.raises(RuntimeError, match="step_wait"):
        env.step_wait()


def test_attributes_methods_options_and_close():
    env = DimsumVecEnv("dim_sum_jam", num_envs=3, learner_seat=(0, 1, 0), players=2)
    assert env.get_attr("learner_seat") == [0, 1, 0] and env.get_attr("render_mode", indices=[1]) == [None]
    assert env.env_is_wrapped(gymnasium.Wrapper) == [False] * 3 and env.has_attr("action_masks")
    with pytest.raises(RuntimeError, match="call reset"):
        env.env_method("action_masks")
    with pytest.raises(AttributeError, match="no attribute 'speed'"):
        env.get_attr("speed")
    with pytest.raises(AttributeError, match="sets only 'ticks'"):
        env.set_attr("learner_seat", 1)
    env.set_attr("ticks", 0)
    assert env.ticks == 0
    env.set_options({"ticks": None})
    env.reset()
    assert env.ticks is None
    env.set_options({"speed": 1})
    with pytest.raises(ValueError, match=r"unknown reset options \['speed'\]"):
        env.reset()
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.reset()


def test_rgb_array_frames_are_each_learners_view():
    need_module("resvg_py")
    from dimsum.render.raster import FRAME_SHAPE, state_to_rgb

    env = DimsumVecEnv("nice_buns", num_envs=2, learner_seat=(0, 1), render_mode="rgb_array", players=2)
    env.reset()
    frames = env.get_images()
    assert [f.shape for f in frames] == [(*FRAME_SHAPE, 3)] * 2
    assert np.array_equal(frames[1], state_to_rgb(env.batch_env.clone_state(1), 1))
    assert env.render().shape == (2 * FRAME_SHAPE[0], FRAME_SHAPE[1], 3)  # SB3 tiles them


def test_the_training_example_runs_with_a_tiny_budget(capsys):
    """examples/train_maskable_ppo.py (docs/TRAINING.md), a few hundred steps: it trains and evaluates."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    example.main(["--steps", "512", "--envs", "8", "--games", "10"])
    out = capsys.readouterr().out
    # SB3 learns whole rollouts: n_steps=128 for each of 8 envs
    assert "random masked policy wins" in out and "after 1024 steps MaskablePPO wins" in out


def test_without_sb3_the_import_names_the_extra():
    import subprocess
    import sys

    code = ("import sys; sys.modules['stable_baselines3'] = None\n"
            "try:\n"
            "    import dimsum.sb3\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert 'dimsum.sb3 needs the sb3 extra: pip install "dimsum-games[sb3]"' in out


# -- the traps of SB3's own tools: evaluation without masks, subprocess workers ---------------------

def test_sb3s_evaluate_policy_on_a_maskable_model_warns_of_the_illegal_actions(monkeypatch):
    """SB3's own evaluate_policy asks a MaskablePPO model for actions without masks: its games end
    on illegal actions (illegal_action="terminate"), scored as losses. It must not be a silent 0:
    the first such episode warns, naming sb3-contrib's masked evaluate_policy, and each says so in
    its info; sb3-contrib's evaluation, which passes the masks, warns of nothing."""
    import warnings

    import dimsum.gymnasium as dgym
    from sb3_contrib.common.maskable.evaluation import evaluate_policy as masked_evaluate_policy
    from stable_baselines3.common.evaluation import evaluate_policy

    monkeypatch.setattr(dgym, "_warned_illegal_action", False)  # another test may have forfeited first
    env = DimsumEnv("nice_buns", players=2)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=64, batch_size=32, seed=0, device="cpu")
    infos = []
    with pytest.warns(dgym.IllegalActionWarning, match="sb3_contrib.common.maskable.evaluation.evaluate_policy"):
        evaluate_policy(model, env, n_eval_episodes=3, warn=False,
                        callback=lambda local, _: infos.append(local["info"]) if local["done"] else None)
    assert len(infos) == 3 and all(info.get("ended_by_illegal_action") for info in infos)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once a process: no second warning, even when asked again
        evaluate_policy(model, env, n_eval_episodes=1, warn=False)
    monkeypatch.setattr(dgym, "_warned_illegal_action", False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", dgym.IllegalActionWarning)
        masked_evaluate_policy(model, env, n_eval_episodes=2, warn=False)


SUBPROCESS_SCRIPT = '''
import sys

def main(start_method):
    import gymnasium  # noqa: F401
    import dimsum.gymnasium  # noqa: F401  (inside main: a spawned worker never runs it)
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    env = make_vec_env("dimsum.gymnasium:dimsum/NiceBuns-v0", n_envs=2, env_kwargs={"players": 2},
                       vec_env_cls=SubprocVecEnv, vec_env_kwargs={"start_method": start_method})
    try:
        env.reset()
        masks = env.env_method("action_masks")
        env.step([int(m.nonzero()[0][0]) for m in masks])
        print("stepped", env.num_envs)
    finally:
        env.close()

if __name__ == "__main__":
    main(sys.argv[1])
'''


@pytest.mark.parametrize("start_method", ["spawn", "forkserver"])
def test_subprocess_workers_make_the_env_with_the_import_inside_main(start_method, tmp_path):
    """The "module:id" form makes each worker import dimsum.gymnasium itself (Gymnasium 1.x has no
    plugin entry points): SubprocVecEnv with "spawn" and "forkserver", the import inside main()."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "train.py"
    script.write_text(SUBPROCESS_SCRIPT)
    python_path = os.pathsep.join([str(Path(dimsum.__file__).resolve().parent.parent),
                                   os.environ.get("PYTHONPATH", "")])
    run = subprocess.run([sys.executable, str(script), start_method], capture_output=True, text=True, timeout=300,
                         cwd=tmp_path, env={**os.environ, "PYTHONPATH": python_path})
    assert run.returncode == 0, run.stderr[-3000:]
    assert "stepped 2" in run.stdout
