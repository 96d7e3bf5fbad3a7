"""The trainer's choices (python/dimsum/baselines/train.py): who plays the other seats (the
heuristic, the latest checkpoint, a league), what each evaluation measures (against the heuristic
and the previous checkpoint; in a cooperative game, a team of the policy), its progress output, and
a run stopped early still leaving a record."""

import io
import json

import numpy as np
import pytest

import dimsum

from dimsum.baselines.evaluation import win_shares
from dimsum.baselines.opponents import OpponentSchedule
from needs import need_module


def test_a_cooperative_win_counts_whole_for_the_learner_and_a_loss_counts_nothing():
    returns = np.array([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]])
    seats = np.array([2, 0])
    assert list(win_shares(returns, seats, cooperative=True)) == [1.0, 0.0]
    # counted as a competitive game, the same tables would be three-way ties in both
    assert list(win_shares(returns, seats)) == pytest.approx([1 / 3, 1 / 3])


def test_a_competitive_win_is_shared_between_tied_seats():
    returns = np.array([[3.0, 3.0, 1.0], [0.0, 2.0, 1.0]])
    assert list(win_shares(returns, np.array([0, 2]))) == [0.5, 0.0]


def test_the_opponent_is_the_heuristic_until_the_warm_start_ends_and_while_there_is_no_checkpoint():
    for mode in ("heuristic", "self", "league"):
        schedule = OpponentSchedule(mode, warm_start=1000, seed=0)
        assert schedule.pick(999, ["a", "b"]) == ("heuristic", None)
        assert schedule.pick(5000, []) == ("heuristic", None)
    assert OpponentSchedule("heuristic", 0, 0).pick(5000, ["a", "b"]) == ("heuristic", None)


def test_self_play_takes_the_latest_checkpoint():
    assert OpponentSchedule("self", 0, 0).pick(1000, ["a", "b", "c"]) == ("policy", "c")


def test_a_league_draws_the_heuristic_and_every_checkpoint_and_repeats_for_a_seed():
    draws = [OpponentSchedule("league", 0, 7) for _ in range(2)]
    picks = [[s.pick(100, ["a", "b", "c"]) for _ in range(200)] for s in draws]
    assert picks[0] == picks[1]
    assert set(picks[0]) == {("heuristic", None), ("policy", "a"), ("policy", "b"), ("policy", "c")}
    other = OpponentSchedule("league", 0, 8)
    assert [other.pick(100, ["a", "b", "c"]) for _ in range(200)] != picks[0]


@pytest.mark.parametrize("mode,warm_start,message", [("mirror", 0, "opponents must be one of heuristic, self, league"),
                                                     ("self", -1, "warm_start must be >= 0")])
def test_a_bad_schedule_is_refused(mode, warm_start, message):
    with pytest.raises(ValueError, match=message):
        OpponentSchedule(mode, warm_start, 0)


def test_without_a_terminal_progress_is_a_plain_line_every_share_of_the_run():
    need_module("stable_baselines3")
    from dimsum.baselines.progress import progress_callback

    out = io.StringIO()
    callback = progress_callback(1000, every=0.25, stream=out)  # a StringIO is no terminal: no bar

    class Model:
        num_timesteps = 0

    callback.init_callback(Model())
    for steps in range(100, 1100, 100):
        Model.num_timesteps = steps
        callback.on_step()
    lines = out.getvalue().splitlines()
    assert [line.split()[1] for line in lines] == ["300", "500", "800", "1000"]
    assert lines[-1].startswith("  progress      1000 / 1000 steps (100%)")


def run(tmp_path, *args):
    from dimsum.baselines import train

    out = tmp_path / "run"
    train.main([*args, "--seed", "3", "--out", str(out)])
    return json.loads((out / "curve.json").read_text()), json.loads((out / "record.json").read_text())


def test_a_league_run_trains_against_earlier_checkpoints_and_evaluates_against_the_previous_one(tmp_path, capsys):
    need_module("sb3_contrib")
    curve, record = run(tmp_path, "nice_buns", "--players", "2", "--steps", "4096", "--envs", "8", "--eval-every",
                        "1024", "--eval-games", "8", "--opponents", "league", "--warm-start", "1024")
    assert curve[0]["trained_against"] == "heuristic" and "previous" not in curve[0]["evals"]
    assert all(set(c["evals"]) == {"heuristic", "previous"} for c in curve[1:])
    assert [c["evals"]["previous"]["checkpoint"] for c in curve[1:]] == [c["checkpoint"] for c in curve[:-1]]
    earlier = {c["checkpoint"] for c in curve}
    assert all(c["trained_against"] in earlier | {"heuristic"} for c in curve)
    assert "league" in record["algorithm"] and record["measure"] == "policy vs heuristic"
    assert "vs its previous checkpoint" in capsys.readouterr().out


def test_a_cooperative_run_measures_a_team_of_the_policy_and_the_policy_among_heuristics(tmp_path):
    need_module("sb3_contrib")
    curve, record = run(tmp_path, "dim_sum_jam", "--players", "3", "--steps", "2048", "--envs", "6", "--eval-every",
                        "1024", "--eval-games", "12", "--opponents", "self")
    assert all(set(c["evals"]) == {"team", "heuristic_team"} for c in curve)
    assert all(c["win"] == c["evals"]["team"]["win"] and c["games"] == 12 for c in curve)
    assert curve[1]["trained_against"] == curve[0]["checkpoint"]  # self-play: the latest checkpoint
    assert record["measure"] == "policy as a team (every seat)"


def test_a_run_stopped_early_records_the_checkpoints_so_far(tmp_path, monkeypatch):
    need_module("sb3_contrib")
    calls = []

    def pick(self, steps, checkpoints):
        calls.append(steps)
        if len(calls) == 2:
            raise KeyboardInterrupt  # as Ctrl-C or SIGTERM would, between two periods
        return "heuristic", None

    monkeypatch.setattr(OpponentSchedule, "pick", pick)
    curve, record = run(tmp_path, "nice_buns", "--players", "2", "--steps", "8192", "--envs", "8", "--eval-every",
                        "1024", "--eval-games", "8")
    assert record["stopped_early"] is True and record["steps"] == 1024 == curve[-1]["steps"] and len(curve) == 1


def test_the_curve_plots_a_share_of_zero_whose_wilson_bound_rounds_past_it(tmp_path):
    need_module("matplotlib")
    from dimsum.arena.ratings import wilson
    from dimsum.baselines.train import plot

    low, high = wilson(0, 12)
    assert low > 0.0  # the rounding the plot must survive
    point = {"games": 12, "win": 0.0, "low": low, "high": high}
    curve = [{"steps": 1024 * k, "minutes": 0.1 * k, "players": 3, "evals": {"team": point, "heuristic_team": point}}
             for k in (1, 2)]
    plot(curve, "zero", tmp_path / "curve.png", 0.25, reference={"win": 0.154, "label": "heuristic team"})
    assert (tmp_path / "curve.png").stat().st_size > 0


def test_a_game_option_reaches_the_training_the_evaluation_and_the_record(tmp_path):
    need_module("sb3_contrib")
    import dimsum
    from dimsum.baselines import load

    curve, record = run(tmp_path, "yum_cha", "--players", "4", "--option", "reward=score", "--option", "rounds=1",
                        "--steps", "1024", "--envs", "8", "--eval-every", "1024", "--eval-games", "8")
    assert record["options"] == {"players": 4, "reward": "score", "rounds": 1}
    assert curve[0]["games"] == 8
    path = tmp_path / "run" / curve[0]["checkpoint"]
    assert load(path, dimsum.make("yum_cha", players=4, reward="score", rounds=1)).game == "yum_cha"
    # the reward changes only the returns: the policy plays the default reward's game too
    assert load(path, dimsum.make("yum_cha", players=4, rounds=1)).game == "yum_cha"
    with pytest.raises(ValueError, match=r"rounds: policy 1, game 4"):  # other rules: refused
        load(path, dimsum.make("yum_cha", players=4))


def test_yum_cha_seats_see_and_may_do_the_same_under_either_reward():
    """What makes ``reward`` a neutral option of a policy file (policy_file.NEUTRAL_OPTIONS)."""
    import dimsum

    games = [dimsum.make("yum_cha", players=4, rounds=1, reward=r) for r in ("win_share", "score")]
    rng = np.random.default_rng(5)
    for seed in range(3):
        states = [g.new_state(seed) for g in games]
        while not states[0].is_terminal:
            assert list(states[0].legal_actions()) == list(states[1].legal_actions())
            for p in range(4):
                assert np.array_equal(states[0].observation(p), states[1].observation(p))
            legal = states[0].legal_actions()
            action = int(legal[rng.integers(len(legal))])
            for s in states:
                s.apply(action)
        assert states[1].is_terminal


def test_the_player_count_is_not_an_option(tmp_path, capsys):
    from dimsum.baselines import train

    with pytest.raises(SystemExit):
        train.main(["yum_cha", "--option", "players=3", "--out", str(tmp_path)])
    assert "give the player count as --players" in capsys.readouterr().err


def imitation_env(seed):
    from stable_baselines3.common.vec_env import VecMonitor, VecNormalize
    from dimsum.sb3 import DimsumVecEnv

    raw = DimsumVecEnv("nice_buns", num_envs=8, players=2, opponent="heuristic", learner_seat=[0, 1] * 4,
                       threads=1, seed=seed)
    return VecNormalize(VecMonitor(raw), norm_obs_keys=["observation"], norm_reward=False)


def test_a_short_imitation_makes_the_policy_pick_the_heuristics_moves_far_more_often_than_chance():
    need_module("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from dimsum.baselines import imitation

    env = imitation_env(0)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=16, batch_size=64, seed=0, device="cpu")
    data = imitation.collect(env, 6000, seed=1, gamma=model.gamma)
    env.training = False  # the held-out games leave the statistics the policy was fitted under
    held_out = imitation.collect(env, 1000, seed=2, gamma=model.gamma)

    def normalize(observations):
        return env._normalize_obs(observations, env.obs_rms["observation"])

    untrained = imitation.agreement(model, held_out, normalize)
    imitation.fit(model, data, normalize, epochs=6, seed=0)
    cloned = imitation.agreement(model, held_out, normalize)
    chance = imitation.random_agreement(held_out)
    assert cloned > max(untrained, chance) + 0.15, (cloned, untrained, chance)  # measured: 0.575 against 0.39 and 0.378


def test_imitation_data_repeats_for_a_seed_and_its_returns_are_the_games_discounted_outcomes():
    need_module("sb3_contrib")
    from dimsum.baselines import imitation

    first, second = (imitation.collect(imitation_env(4), 400, seed=9, gamma=0.9) for _ in range(2))
    assert np.array_equal(first.actions, second.actions) and np.array_equal(first.observations, second.observations)
    assert all(first.masks[np.arange(len(first)), first.actions])  # every move the heuristic chose is legal
    rewards = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 0.0]])
    dones = np.array([[False, False], [False, True], [True, False], [False, False]])
    returns, valid = imitation.discounted_returns(rewards, dones, 0.5)
    assert returns[:, 0].tolist() == [0.25, 0.5, 1.0, 0.0] and valid[:, 0].tolist() == [True, True, True, False]
    assert returns[:, 1].tolist() == [0.5, 1.0, 0.0, 0.0] and valid[:, 1].tolist() == [True, True, False, False]


def test_an_imitation_run_records_the_clone_before_ppo_and_self_play_starts_from_it(tmp_path, capsys):
    need_module("sb3_contrib")
    curve, record = run(tmp_path, "dim_sum_jam", "--players", "3", "--steps", "1024", "--envs", "6", "--eval-every",
                        "1024", "--eval-games", "6", "--opponents", "self", "--imitate", "600", "--imitate-epochs", "2")
    assert len(curve) == 2 and curve[0]["steps"] == 0 < 1024 <= curve[1]["steps"]
    assert curve[1]["trained_against"] == curve[0]["checkpoint"]  # the clone is the first self-play partner
    assert record["imitation"]["decisions"] >= 600 and record["imitation"]["epochs"] == 2
    assert "imitation:" in capsys.readouterr().out


def test_an_imitation_repeats_bit_for_bit_for_a_seed():
    need_module("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO
    from dimsum.baselines import imitation

    def cloned():
        env = imitation_env(6)
        model = MaskablePPO("MultiInputPolicy", env, n_steps=16, batch_size=64, seed=2, device="cpu")
        data = imitation.collect(env, 800, seed=3, gamma=model.gamma)
        imitation.fit(model, data, lambda o: env._normalize_obs(o, env.obs_rms["observation"]), epochs=2, seed=4)
        return model.policy.state_dict()

    first, second = cloned(), cloned()
    assert all(torch.equal(first[k], second[k]) for k in first)


def test_hidden_widths_reach_the_network_and_the_exported_file(tmp_path):
    need_module("sb3_contrib")
    from dimsum.baselines import policy_file

    curve, record = run(tmp_path, "nice_buns", "--players", "2", "--steps", "512", "--envs", "8", "--eval-every",
                        "512", "--eval-games", "4", "--hidden", "32,16")
    saved = policy_file.read(tmp_path / "run" / curve[-1]["checkpoint"])
    assert [layer.weight.shape[0] for layer in saved.layers[:-1]] == [32, 16]
    assert "net_arch [32, 16] tanh" in record["algorithm"]


def test_a_resumed_run_starts_from_the_files_actor_and_keeps_it_while_the_critic_warms_up(tmp_path):
    need_module("sb3_contrib")
    from dimsum.baselines import policy_file

    first, _ = run(tmp_path / "a", "nice_buns", "--players", "2", "--steps", "1024", "--envs", "8", "--eval-every",
                   "1024", "--eval-games", "4", "--hidden", "24,24")
    source = tmp_path / "a" / "run" / first[-1]["checkpoint"]
    curve, record = run(tmp_path / "b", "nice_buns", "--players", "2", "--steps", "2048", "--envs", "8",
                        "--eval-every", "2048", "--eval-games", "4", "--resume", str(source), "--critic-warmup", "1024",
                        "--opponents", "self")
    out = tmp_path / "b" / "run"
    assert [c["steps"] for c in curve] == [0, 1024, 2048]  # a period ends where the warm-up does
    assert curve[1]["trained_against"] == curve[0]["checkpoint"]  # self-play starts from the resumed policy
    original = policy_file.read(source)
    resumed, warmed, trained = (policy_file.read(out / c["checkpoint"]) for c in curve)
    for policy in (resumed, warmed):  # the actor as the file had it, through the warm-up too
        assert all(np.array_equal(a.weight, b.weight) and np.array_equal(a.bias, b.bias)
                   for a, b in zip(original.layers, policy.layers))
    for policy in (resumed, warmed):  # and the observation statistics (the warm-up does not update them)
        assert np.array_equal(policy.normalization["offset"], original.normalization["offset"])
        assert np.allclose(policy.normalization["scale"], original.normalization["scale"], rtol=1e-5)
    assert not np.array_equal(trained.normalization["offset"], original.normalization["offset"])  # then they move
    assert not all(np.array_equal(a.weight, b.weight) for a, b in zip(original.layers, trained.layers))  # then PPO
    assert record["resumed_from"]["path"] == str(source) and "frozen for the first 1024 steps" in record["algorithm"]


@pytest.mark.parametrize("extra, message", [
    (["--imitate", "600"], "--resume and --imitate both make the starting policy"),
    (["--hidden", "64,64"], "--hidden 64,64 differs from the resumed file's 24,24"),
])
def test_a_resume_that_cannot_be_done_is_refused(tmp_path, capsys, extra, message):
    from dimsum.baselines import policy_file

    game = dimsum.make("nice_buns", players=2)
    path = tmp_path / "small.dspolicy"
    policy_file.write(path, policy_file.untrained(game, hidden=(24, 24)))
    with pytest.raises(SystemExit):
        run(tmp_path, "nice_buns", "--players", "2", "--resume", str(path), *extra)
    assert message in capsys.readouterr().err


def test_hidden_widths_must_be_positive_integers(tmp_path, capsys):
    with pytest.raises(SystemExit):
        run(tmp_path, "nice_buns", "--hidden", "64,0")
    assert "hidden widths are positive integers" in capsys.readouterr().err


def test_team_progress_pays_each_games_change_in_orders_and_complaints_beside_the_return():
    need_module("stable_baselines3")
    from dimsum.baselines import shaping
    from dimsum.sb3 import DimsumVecEnv

    game = dimsum.make("dim_sum_jam", players=3)
    progress = shaping.team_progress(game)
    raw = DimsumVecEnv("dim_sum_jam", num_envs=3, learner_seat=[0, 1, 2], opponent="heuristic", seed=5, players=3)
    shaped = shaping.wrap(raw, game)
    obs = shaped.reset()
    start = progress(obs["observation"])
    paid, returns, ended = np.zeros(3), np.zeros(3), 0
    rng = np.random.default_rng(0)
    for _ in range(400):
        masks = raw.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        shaped.step_async(actions)
        obs, rewards, dones, infos = shaped.step_wait()
        paid += rewards
        for i in np.flatnonzero(dones):
            ret = infos[i]["returns"][i % 3]
            final = progress(infos[i]["terminal_observation"]["observation"][None])[0]
            # a game's payments: its return and the progress it made from its first observation
            assert np.isclose(paid[i], ret + final - start[i], atol=1e-5)
            paid[i], start[i] = 0.0, progress(obs["observation"][i:i + 1])[0]
            ended += 1
    assert ended >= 3


def test_team_progress_counts_vip_and_regular_orders_and_complaints():
    from dimsum.baselines import shaping
    from dimsum.games.dim_sum_jam import make_config

    game = dimsum.make("dim_sum_jam", players=4)
    cfg = make_config(**dict(game.options))
    at = {s.name: int(s.start) for s in game.observation_layout}
    obs = np.zeros((1, game.observation_shape[0]), np.float32)
    vip = next(i for i in range(len(cfg.cards)) if cfg.vip_mask >> i & 1)
    obs[0, at["cards_out"] + vip] = 1
    obs[0, at["cards_out"] + next(i for i in range(len(cfg.cards)) if not cfg.vip_mask >> i & 1)] = 1
    obs[0, at["counts"] + 2] = 2  # two complaints
    assert np.isclose(shaping.team_progress(game)(obs)[0], 0.1 + 0.01 - 0.1)
    with pytest.raises(ValueError, match="team_progress shaping is declared by dim_sum_jam, not by nice_buns"):
        shaping.team_progress(dimsum.make("nice_buns", players=2))


def test_a_shaped_run_says_so_in_its_record(tmp_path):
    need_module("sb3_contrib")
    curve, record = run(tmp_path, "dim_sum_jam", "--players", "3", "--steps", "1024", "--envs", "6", "--eval-every",
                        "1024", "--eval-games", "6", "--opponents", "self", "--shaping", "team_progress")
    assert "reward shaping team_progress" in record["algorithm"] and 0.0 <= curve[-1]["win"] <= 1.0
