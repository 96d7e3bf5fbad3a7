"""The nearest peers on the same work, measured in the same run as ours (`pip install ".[peers]"`).

OpenSpiel: pig (dice, the peer of Nice Buns), gin_rummy (draw and discard, the peer of Yum Cha),
hanabi (cooperative, hidden information, the peer of Dim Sum Jam), each as a Python loop
(legal_actions, random.choice, apply_action, chance sampled from chance_outcomes) and, for pig,
whole games in C++ through evaluate_bots, also side by side with Nice Buns' C++ playouts in one
run, with the same number of players (per decision and per game; benchmarks/pig_side_by_side.py).
RLCard: gin-rummy. Skipped when a peer is not installed.
"""

import random

import pytest

from .workloads import openspiel_random_game

GAMES = 4


def _openspiel_python_loop(game, seed, observe):
    rng = random.Random(seed)
    return sum(openspiel_random_game(game, rng, observe)[0] for _ in range(GAMES))


@pytest.mark.parametrize("peer,observe", [("pig", False), ("gin_rummy", False), ("hanabi", True)])
def test_peer_openspiel_python_loop(benchmark, peer, observe):
    pyspiel = pytest.importorskip("pyspiel")
    params = {"players": 4} if peer == "hanabi" else {}
    game = pyspiel.load_game(peer, params)
    benchmark.group = f"peer:{peer}"
    steps = benchmark.pedantic(_openspiel_python_loop, args=(game, 1, observe), rounds=3, iterations=1)
    benchmark.extra_info["steps_per_call"] = steps
    benchmark.extra_info["with_observation"] = observe


def test_peer_openspiel_pig_cpp_bots(benchmark):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("pig")
    benchmark.group = "peer:pig"
    seeds = iter(range(10**9))

    def play():
        steps = 0
        for _ in range(50):
            bots = [pyspiel.make_uniform_random_bot(p, next(seeds)) for p in range(2)]
            pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seeds))
        return steps

    benchmark.pedantic(play, rounds=3, iterations=1)
    benchmark.extra_info["games_per_call"] = 50


def test_peer_openspiel_pig_bots_side_by_side(benchmark):
    """pig's native rollout loop (evaluate_bots with C++ uniform random bots) and Nice Buns' C++
    playouts (one thread), with the same number of players, timed alternately in each round on
    fresh seeds, in CPU time (benchmarks/pig_side_by_side.py). The benchmark's own time is a
    round of all of them. The ratios (pig's time / ours, per decision and
    per game) are in extra_info and printed (-s)."""
    pyspiel = pytest.importorskip("pyspiel")
    from .pig_side_by_side import PLAYERS, pig_counts_per_game, pig_game, time_table, timed_rounds

    benchmark.group = "peer:pig"
    games = 200
    measured = {}
    seeds = iter(range(1, 10**9))  # shared by the rounds: each plays new games

    def one_round():  # one round of every loop; the rounds' times add up in `measured`
        for players, times in timed_rounds(games, rounds=1, seeds=seeds).items():
            for key, values in times.items():
                measured.setdefault(players, {}).setdefault(key, []).extend(values)

    benchmark.pedantic(one_round, rounds=5, iterations=1)
    pig_counts = {p: pig_counts_per_game(pig_game(pyspiel, p), 2000) for p in PLAYERS}
    for row in time_table(measured, pig_counts):
        p = row["players"]
        for key in ("per_decision", "per_game", "loop_per_decision", "loop_per_apply", "loop_per_game"):
            benchmark.extra_info[f"nice_buns_{p}p_vs_pig_{p}p_{key}"] = round(row[key], 2)
        print(f"\nnice_buns players={p}: {row['ours_ns_per_decision']:.1f} ns per decision, "
              f"{row['ours_decisions_per_game']:.1f} decisions per game; pig players={p}: "
              f"{row['pig_ns_per_decision']:.1f} ns per decision ({row['pig_loop_ns_per_decision']:.1f} loop only), "
              f"{row['pig_decisions_per_game']:.1f} per game; nice_buns is {row['per_decision']:.2f}x pig per "
              f"decision ({row['loop_per_decision']:.2f}x its loop only), {row['per_game']:.2f}x per game "
              f"({row['loop_per_game']:.2f}x)")


def test_peer_rlcard_gin_rummy(benchmark):
    rlcard = pytest.importorskip("rlcard")
    env = rlcard.make("gin-rummy", config={"seed": 1})
    benchmark.group = "peer:gin_rummy"
    rng = random.Random(1)

    def play():
        steps = 0
        for _ in range(2):
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(rng.choice(list(state["legal_actions"].keys())))
                steps += 1
        return steps

    steps = benchmark.pedantic(play, rounds=3, iterations=1)
    benchmark.extra_info["steps_per_call"] = steps


@pytest.mark.parametrize("num_envs", [1, 64, 1024])
@pytest.mark.parametrize("task", ["TicTacToe-v1", "SparrowMahjong-v1"])
def test_peer_envpool_pgx_batch(benchmark, task, num_envs):
    """EnvPool's C++ ports of pgx games, sync mode, the same policy-in-numpy loop as
    benchmarks/test_bench_batch.py::test_batch_env_step_numpy_policy (its peer)."""
    envpool = pytest.importorskip("envpool")
    pytest.importorskip("envpool.pgx.registration")
    np = pytest.importorskip("numpy")
    env = envpool.make_gymnasium(task, num_envs=num_envs, seed=0)
    _, info = env.reset()
    rng = np.random.default_rng(0)
    steps = {1: 2500, 64: 200, 1024: 20}[num_envs]
    benchmark.group = f"peer:envpool {task}"
    holder = [info]

    def run():
        for _ in range(steps):
            mask = holder[0]["legal_action_mask"]
            actions = (rng.random(mask.shape) * mask).argmax(1).astype(np.int32)
            holder[0] = env.step(actions)[4]

    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    benchmark.extra_info["env_steps_per_round"] = steps * num_envs
    benchmark.extra_info["num_envs"] = num_envs


def test_peer_openspiel_hanabi_bots_side_by_side(benchmark):
    """hanabi's native rollout loop (evaluate_bots with C++ uniform random bots) and Dim Sum Jam's
    C++ playouts (one thread), 3 and 4 players, alternately in each round on fresh seeds, in CPU
    time (benchmarks/native_side_by_side.py). The ratios (hanabi's time / ours)
    are in extra_info and printed (-s)."""
    pyspiel = pytest.importorskip("pyspiel")
    from .native_side_by_side import PEERS, peer_counts_per_game, peer_game, time_table, timed_rounds

    benchmark.group = "peer:hanabi"
    spec = PEERS["hanabi"]
    measured = {}
    seeds = iter(range(1, 10**9))  # shared by the rounds: each plays new games

    def one_round():
        for players, times in timed_rounds("hanabi", "dim_sum_jam", spec.players, 50, 1, spec.ours_factor,
                                           seeds).items():
            for key, values in times.items():
                measured.setdefault(players, {}).setdefault(key, []).extend(values)

    benchmark.pedantic(one_round, rounds=3, iterations=1)
    counts = {p: peer_counts_per_game(peer_game(pyspiel, "hanabi", p), 1000) for p in spec.players}
    for row in time_table(measured, counts):
        p = row["players"]
        for key in ("per_decision", "per_game", "loop_per_decision", "loop_per_game"):
            benchmark.extra_info[f"dim_sum_jam_{p}p_vs_hanabi_{p}p_{key}"] = round(row[key], 2)
        print(f"\ndim_sum_jam players={p}: {row['ours_ns_per_decision']:.1f} ns per decision; hanabi "
              f"{row['peer_ns_per_decision']:.1f}; {row['per_decision']:.2f}x per decision "
              f"({row['loop_per_decision']:.2f}x loop only), {row['per_game']:.2f}x per game")
