"""``pickle.dumps`` / ``pickle.loads`` of a state: dimsum's games beside their closest OpenSpiel game.

    PYTHONPATH=python python -m benchmarks.pickle_speed [--steps 40] [--calls 2000] [--rounds 5]

Each round takes fresh states (a new random game per round, ``--steps`` moves in, chance drawn by
its probabilities in explicit mode, sampled otherwise) and times ``--calls`` dumps and loads of
each in CPU time (time.process_time, so the other processes on a shared machine count less).
Pairs are timed side by side in the same round and the best round of each is kept. The peers:
pig for Pig and Nice Buns, gin_rummy for Yum Cha, hanabi for Dim Sum Jam.

For callgrind (instructions: the same whatever the load), ``--loop OP GAME N`` only runs N dumps
or loads of one explicit-mode state (GAME a dimsum game or ``openspiel:NAME``); run it at N and at
0 and divide the difference by N:

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python -m benchmarks.pickle_speed --loop dumps dim_sum_jam 20000

Take N = 20000: the start-up alone differs by up to 1.5 million instructions from one run to the
next (allocation addresses), which is 750 instructions a call at N = 2000 and under 80 at 20000.

``--depths`` measures how the cost grows with the history: Yum Cha states 40, 1,000 and 16,000
decisions in (16 rounds of up to 2,000 turns, so that one game is that long) and a finished default
game, each round on a fresh seed; ``pickle.loads``, ``pickle.dumps`` (of the state as played, and
as loaded) and ``copy.copy`` (of the loaded state) in CPU time and wall time, per call and per
decision. ``--against DIR`` times another build side by side in the
same rounds (DIR holds its ``dimsum`` package, e.g. a copy of main's ``python/`` with its compiled
modules): each round runs both builds, one subprocess each, on the same seed, in alternating order:

    PYTHONPATH=python python -m benchmarks.pickle_speed --depths --rounds 5 --against /tmp/main/python
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import pickle
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import dimsum

from .workloads import dimsum_random_step

PEERS = {"pig": "pig", "yum_cha": "gin_rummy", "nice_buns": "pig", "dim_sum_jam": "hanabi"}
MODES = ("sampled", "explicit")


def dimsum_state(name: str, mode: str, steps: int, seed: int):
    state = dimsum.make(name, chance=mode).new_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        dimsum_random_step(state, rng)
    return state


def openspiel_state(name: str, steps: int, seed: int):
    import pyspiel

    state = pyspiel.load_game(name).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def per_call_us(fn, arg, calls: int) -> float:
    start = time.process_time()
    for _ in range(calls):
        fn(arg)
    return (time.process_time() - start) / calls * 1e6


def measure(state, calls: int) -> tuple[float, float, int]:
    data = pickle.dumps(state)
    return per_call_us(pickle.dumps, state, calls), per_call_us(pickle.loads, data, calls), len(data)


def loop(op: str, game: str, n: int, steps: int) -> None:
    if game.startswith("openspiel:"):
        state = openspiel_state(game.split(":", 1)[1], steps, 7)
    else:
        state = dimsum_state(game, "explicit", steps, 7)
    data = pickle.dumps(state)
    pickle.loads(data)  # warm: the game is cached, as in a worker that has loaded one state
    fn, arg = (pickle.dumps, state) if op == "dumps" else (pickle.loads, data)
    for _ in range(n):
        fn(arg)


def rounds(n: int, steps: int, calls: int) -> list[dict[str, tuple[float, float, int]]]:
    """Each round's {label: (dumps us, loads us, bytes)}: our games in both chance modes and, with
    OpenSpiel installed, each one's peer ("  OpenSpiel NAME"), on fresh states every round."""
    try:
        import pyspiel  # noqa: F401
        peers = True
    except ImportError:
        peers = False
    out = []
    for r in range(n):
        seed = random.randrange(2**32)
        states = {}
        for name in PEERS:
            for mode in MODES:
                states[f"{name} ({mode})"] = dimsum_state(name, mode, steps, seed + r)
            if peers:
                states[f"  OpenSpiel {PEERS[name]}"] = openspiel_state(PEERS[name], steps, seed + r)
        out.append({label: measure(state, calls) for label, state in states.items()})
    return out


# -- cost against the history's length ------------------------------------------------------------

DEEP = {"rounds": 16, "max_turns_per_round": 2000}   # one Yum Cha game long enough for every depth
DEPTHS = (40, 1000, 16000)
FINISHED = "finished"                                # a finished default (4-round) game
OPS = ("loads", "dumps", "dumps_loaded", "copy")   # dumps_loaded: pickle.dumps of the state as loaded


def depth_states(seed: int) -> dict:
    """{label: (state, decisions in)}: the deep game's states at DEPTHS and a finished default game."""
    states = {}
    rng = random.Random(seed)
    state = dimsum.make("yum_cha", **DEEP).new_state(seed)
    for depth in DEPTHS:
        while len(state.history) < depth and not state.is_terminal:
            dimsum_random_step(state, rng)
        states[str(depth)] = (state.clone(), len(state.history))
    state = dimsum.make("yum_cha").new_state(seed)
    while not state.is_terminal:
        dimsum_random_step(state, rng)
    states[FINISHED] = (state, len(state.history))
    return states


def timed(fn, arg, calls: int) -> tuple[float, float]:
    """(CPU µs, wall µs) a call over ``calls`` calls."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(calls):
        fn(arg)
    return (time.process_time() - cpu) / calls * 1e6, (time.perf_counter() - wall) / calls * 1e6


def depth_round(seed: int, budget: int) -> dict:
    """One round: {label: {"decisions": n, "bytes": b, op: [cpu µs, wall µs]}}; about ``budget``
    decisions' worth of calls per operation (at least 20 calls), so every depth takes similar time."""
    out = {}
    for label, (state, decisions) in depth_states(seed).items():
        data = pickle.dumps(state)
        pickle.loads(data)  # warm: the game is cached, as in a worker that has loaded one state
        calls = max(20, budget // max(decisions, 1))
        row = {"decisions": decisions, "bytes": len(data)}
        loaded = pickle.loads(data)
        for op, fn, arg in (("loads", pickle.loads, data), ("dumps", pickle.dumps, state),
                            ("dumps_loaded", pickle.dumps, loaded), ("copy", copy.copy, loaded)):
            row[op] = timed(fn, arg, calls)
        out[label] = row
    return out


def _run_build(python_dir: str, seed: int, budget: int) -> dict:
    """One depth round in a subprocess importing dimsum from ``python_dir``."""
    repo = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([python_dir, repo]))
    proc = subprocess.run([sys.executable, "-m", "benchmarks.pickle_speed", "--depth-round", str(seed),
                           "--budget", str(budget)], cwd=repo, env=env, capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def depth_report(rounds_: int, budget: int, against: str | None) -> None:
    builds = {"this": str(Path(dimsum.__file__).resolve().parent.parent)}
    if against:
        builds["against"] = str(Path(against).resolve())
    per: dict = {name: [] for name in builds}
    for r in range(rounds_):
        seed = random.randrange(2**32)
        order = list(builds) if r % 2 == 0 else list(reversed(builds))
        for name in order:
            per[name].append(_run_build(builds[name], seed, budget))
    labels = [str(d) for d in DEPTHS] + [FINISHED]
    print(f"median over {rounds_} rounds (fresh seeds), µs a call, CPU time (wall in brackets); "
          f"ns a decision beside; builds: " + ", ".join(f"{k}={v}" for k, v in builds.items()))
    for name in builds:
        print(f"\n[{name}]")
        print(f"{'state':>10} {'decisions':>9} {'bytes':>7} " + " ".join(f"{op + ' µs':>20} {'ns/dec':>7}" for op in OPS))
        for label in labels:
            rows = [rnd[label] for rnd in per[name]]
            decisions = statistics.median(row["decisions"] for row in rows)
            cells = []
            for op in OPS:
                cpu = statistics.median(row[op][0] for row in rows)
                wall = statistics.median(row[op][1] for row in rows)
                cells.append(f"{cpu:9.2f} [{wall:8.2f}] {cpu * 1e3 / max(decisions, 1):7.1f}")
            print(f"{label:>10} {decisions:9.0f} {statistics.median(row['bytes'] for row in rows):7.0f} " + " ".join(cells))
        for op in ("loads", "dumps"):  # per-decision cost at 16,000 against 1,000, per round
            growth = [(rnd["16000"][op][0] / rnd["16000"]["decisions"]) / (rnd["1000"][op][0] / rnd["1000"]["decisions"])
                      for rnd in per[name]]
            print(f"{op}: per-decision CPU cost at 16,000 / at 1,000 = {statistics.median(growth):.2f} "
                  f"(rounds {min(growth):.2f}-{max(growth):.2f})")
    if against:
        print("\nthis / against, CPU time, median of the per-round ratios (same seed in each round):")
        for label in labels:
            ratios = []
            for op in OPS:
                rs = [a[label][op][0] / b[label][op][0] for a, b in zip(per["this"], per["against"])]
                ratios.append(f"{op} {statistics.median(rs):6.3f} ({min(rs):.3f}-{max(rs):.3f})")
            print(f"{label:>10}  " + "  ".join(ratios))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--loop", nargs=3, metavar=("OP", "GAME", "N"), help="dumps|loads, game, count")
    parser.add_argument("--depths", action="store_true", help="the cost against the history's length")
    parser.add_argument("--against", metavar="DIR", help="with --depths: another build's python/ dir, side by side")
    parser.add_argument("--budget", type=int, default=2_000_000, help="with --depths: decisions' worth of calls")
    parser.add_argument("--depth-round", type=int, metavar="SEED", help=argparse.SUPPRESS)  # one round, JSON out
    args = parser.parse_args()
    if args.depth_round is not None:
        print(json.dumps(depth_round(args.depth_round, args.budget)))
        return
    if args.depths:
        depth_report(args.rounds, args.budget, args.against)
        return
    if args.loop:
        op, game, n = args.loop
        if op not in ("dumps", "loads"):
            parser.error(f"--loop takes dumps or loads, got {op!r}")
        loop(op, game, int(n), args.steps)
        return
    best: dict[str, list] = {}
    for measured in rounds(args.rounds, args.steps, args.calls):
        for label, (dumps, loads, size) in measured.items():
            old = best.get(label)
            best[label] = [min(dumps, old[0]) if old else dumps, min(loads, old[1]) if old else loads, size]
    print(f"best of {args.rounds} rounds, {args.calls} calls each, states {args.steps} steps in, CPU µs a call")
    print(f"{'state':28} {'dumps':>8} {'loads':>8} {'bytes':>7}")
    for label, (dumps, loads, size) in best.items():
        print(f"{label:28} {dumps:8.2f} {loads:8.2f} {size:7d}")


if __name__ == "__main__":
    main()
