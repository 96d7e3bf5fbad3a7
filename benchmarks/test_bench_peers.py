"""The nearest peers on the same work, measured in the same run as ours (`pip install ".[peers]"`).

OpenSpiel: pig (dice, the peer of Nice Buns), gin_rummy (draw and discard, the peer of Yum Cha),
hanabi (cooperative, hidden information, the peer of Dim Sum Jam), each as a Python loop
(legal_actions, random.choice, apply_action, chance sampled from chance_outcomes) and, for pig,
whole games in C++ through evaluate_bots, also side by side with Nice Buns' C++ playouts in one
run (per decision and per game). RLCard: gin-rummy. Skipped when a peer is not installed.
"""

import random
import statistics
import time

import pytest

import dimsum

from .workloads import CONFIGS

GAMES = 4


def _openspiel_python_loop(game, seed, observe):
    rng = random.Random(seed)
    steps = 0
    for _ in range(GAMES):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions, probs = zip(*outcomes)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                if observe:
                    state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps


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


def _pig_decisions_per_game(game, games=1000, seed=0):
    """The mean number of decisions in a uniformly random game of pig. evaluate_bots does not
    report it, so it is counted in a Python loop over the same game and policy (2,000 games give
    it to about 2%)."""
    rng = random.Random(seed)
    decisions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions / games


def test_peer_openspiel_pig_bots_side_by_side(benchmark):
    """pig's native rollout loop (evaluate_bots with C++ uniform random bots) and Nice Buns' C++
    playouts (one thread), timed alternately in each round so that both see the same machine. The
    ratios (pig's time / ours, per decision and per game) are in extra_info and printed (-s)."""
    pyspiel = pytest.importorskip("pyspiel")
    pig = pyspiel.load_game("pig")
    benchmark.group = "peer:pig"
    games = 200
    ours = {p: dimsum.make("nice_buns", **dict(CONFIGS["nice_buns"], players=p)) for p in (2, 4)}
    seeds = iter(range(10**9))
    times = {"pig": [], "pig_setup": []}
    decisions = {}
    times.update({p: [] for p in ours})

    def one_round():
        start = time.perf_counter()
        for _ in range(games):
            bots = [pyspiel.make_uniform_random_bot(p, next(seeds)) for p in range(2)]
            pyspiel.evaluate_bots(pig.new_initial_state(), bots, next(seeds))
        times["pig"].append(time.perf_counter() - start)
        start = time.perf_counter()  # the Python calls of each pig game without the game: made bots, a state
        for _ in range(games):
            bots = [pyspiel.make_uniform_random_bot(p, next(seeds)) for p in range(2)]
            pig.new_initial_state()
        times["pig_setup"].append(time.perf_counter() - start)
        for players, game in ours.items():
            start = time.perf_counter()
            _, lengths = dimsum.random_playouts(game, games, seed=len(times[players]))
            times[players].append(time.perf_counter() - start)
            decisions[players] = int(lengths.sum())  # every step of a sampled game is a decision

    benchmark.pedantic(one_round, rounds=5, iterations=1)
    benchmark.extra_info["games_per_call"] = games
    pig_decisions = _pig_decisions_per_game(pig, 2000) * games
    # pig's time with and without its per-game Python calls (ours makes one call for all games):
    # the second is the stricter comparison, pig's C++ loop alone
    pig_times = {"pig": statistics.median(times["pig"]),
                 "pig_loop_only": statistics.median(times["pig"]) - statistics.median(times["pig_setup"])}
    for players in ours:
        our_time = statistics.median(times[players])
        print(f"\nnice_buns players={players}: {our_time / decisions[players] * 1e9:.1f} ns per decision, "
              f"{decisions[players] / games:.1f} decisions per game")
        for label, pig_time in pig_times.items():
            per_game = pig_time / our_time
            per_decision = (pig_time / pig_decisions) / (our_time / decisions[players])
            benchmark.extra_info[f"nice_buns_{players}p_vs_{label}_per_game"] = round(per_game, 2)
            benchmark.extra_info[f"nice_buns_{players}p_vs_{label}_per_decision"] = round(per_decision, 2)
            print(f"  {label}: {pig_time / pig_decisions * 1e9:.1f} ns per decision, {pig_decisions / games:.1f} "
                  f"per game; nice_buns is {per_decision:.2f}x it per decision, {per_game:.2f}x per game")


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
