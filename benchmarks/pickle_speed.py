"""``pickle.dumps`` / ``pickle.loads`` of a state: dimsum's games beside their closest OpenSpiel game.

    PYTHONPATH=python python -m benchmarks.pickle_speed [--steps 40] [--calls 2000] [--rounds 5]

Each round takes fresh states (a new random game per round, ``--steps`` moves in, chance drawn by
its probabilities in explicit mode, sampled otherwise) and times ``--calls`` dumps and loads of
each in CPU time (time.process_time, so the other processes on a shared machine count less).
Pairs are timed side by side in the same round and the best round of each is kept. The peers:
pig for Pig and Nice Buns, gin_rummy for Yum Cha, hanabi for Dim Sum Jam (issue 26, item 6).

For callgrind (instructions: the same whatever the load), ``--loop OP GAME N`` only runs N dumps
or loads of one explicit-mode state (GAME a dimsum game or ``openspiel:NAME``); run it at N and at
0 and divide the difference by N:

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python -m benchmarks.pickle_speed --loop dumps dim_sum_jam 20000

Take N = 20000: the start-up alone differs by up to 1.5 million instructions from one run to the
next (allocation addresses), which is 750 instructions a call at N = 2000 and under 80 at 20000.
"""

from __future__ import annotations

import argparse
import pickle
import random
import time

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--loop", nargs=3, metavar=("OP", "GAME", "N"), help="dumps|loads, game, count")
    args = parser.parse_args()
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
