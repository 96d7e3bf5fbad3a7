"""IS-MCTS cost per simulation as the tree grows: one search of 10^3 to 10^6 simulations, one
thread, from a game's opening, each size in its own process (so its peak memory is its own).

    PYTHONPATH=python python -m benchmarks.ismcts_scaling [--rounds 1] [--sizes 1000 10000 100000 1000000]

Each round deals one position (fresh every round) and searches it at every size, so that the
rollouts' length is the same across sizes; a size below MIN_TOTAL simulations is searched several
times with fresh bot seeds, the figures being the total's. Per game and size: CPU time per
simulation (``time.process_time``, every thread of the process) beside wall time, the ratio to the
smallest size's CPU figure in the same run, the memory per simulation (the process's peak resident
set after the searches less its peak before them, ``ru_maxrss``, divided by one search's
simulations: the tree and whatever else the search kept; small sizes read about 0, below what the
process had already) and the mean descent length (tree actions a simulation). The figures are
the medians over the rounds.

The bots are ``dimsum.bots.IsmctsBot`` with its defaults (heuristic rollouts, progressive bias),
as users run it, where the rollouts dominate (Nice Buns 2 players about 50 us a simulation); with
``--plain``, random rollouts and bias 0 (the plain algorithm, as benchmarks/mcts_per_action.py),
where the tree is a larger share (Nice Buns about 3 us a simulation). Games: Nice Buns 2 players
and Yum Cha 4 players, one round (``rounds=1``: a rollout is hundreds of actions, so a million
simulations take about half a minute).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIN_TOTAL = 100_000  # simulations timed per size and round (smaller sizes: several searches)
GAMES = {"nice_buns 2p": ("nice_buns", {"players": 2}), "yum_cha 4p": ("yum_cha", {"players": 4, "rounds": 1})}


def one_search(game_key: str, simulations: int, seed: int, plain: bool) -> dict:
    """In this process: searches of `simulations` each, from fresh positions, until about
    MIN_TOTAL simulations have run (a small search alone is too short to time): their CPU and wall
    time and the peak-memory growth of the largest."""
    import resource
    import time

    import dimsum
    from dimsum import bots

    name, options = GAMES[game_key]
    game = dimsum.make(name, **options)
    repeats = max(1, MIN_TOTAL // simulations)
    state = game.new_state(seed)  # every size searches the round's position: the same rollouts' length
    options = {"rollout": "random", "bias": 0} if plain else {}
    bots.make("ismcts", game, seed=seed, simulations=100, threads=1, **options).act(game.new_state(seed - 1))  # warm
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cpu = wall = 0.0
    sims = tree_steps = 0
    for k in range(repeats):  # a fresh bot seed each search
        bot = bots.make("ismcts", game, seed=seed * 1_000_003 + k, simulations=simulations, threads=1, **options)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        bot.act(state)
        cpu, wall = cpu + time.process_time() - cpu0, wall + time.perf_counter() - wall0
        sims += bot.last_search[0]
        tree_steps += bot.last_tree_steps
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"cpu": cpu, "wall": wall, "simulations": sims, "rss_kib": after - before, "tree_steps": tree_steps,
            "largest": simulations}


def run_child(game_key: str, simulations: int, seed: int, plain: bool) -> dict:
    # numpy's OpenBLAS starts a thread of its own that spins beside the search and is counted in
    # process_time (at 10^3 simulations CPU read 1.25x wall with it): one thread, none spare
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python") + os.pathsep + os.environ.get("PYTHONPATH", ""),
               OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    command = [sys.executable, "-m", "benchmarks.ismcts_scaling", "--child", game_key, str(simulations), str(seed)]
    out = subprocess.run(command + (["--plain"] if plain else []), cwd=ROOT, env=env, check=True, capture_output=True,
                         text=True, timeout=3600)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000, 1_000_000])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--plain", action="store_true", help="random rollouts and bias 0 (the tree's share larger)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one_search(args.child[0], int(args.child[1]), int(args.child[2]), args.plain)))
        return
    print(f"{'game':14} {'simulations':>11} {'CPU us/sim':>11} {'wall us/sim':>11} {'x 1st':>6} "
          f"{'B/sim':>6} {'descent':>8}")
    for key in args.games:
        rows = {n: [] for n in args.sizes}
        for r in range(args.rounds):
            for n in args.sizes:  # fresh seeds each round and size
                rows[n].append(run_child(key, n, args.seed + 7919 * r, args.plain))
        base = None
        for n in args.sizes:
            cpu = statistics.median(x["cpu"] / x["simulations"] for x in rows[n]) * 1e6
            wall = statistics.median(x["wall"] / x["simulations"] for x in rows[n]) * 1e6
            mem = statistics.median(x["rss_kib"] * 1024 / x["largest"] for x in rows[n])
            depth = statistics.median(x["tree_steps"] / x["simulations"] for x in rows[n])
            base = base or cpu
            print(f"{key:14} {n:>11,} {cpu:>11.3f} {wall:>11.3f} {cpu / base:>5.2f}x {mem:>6.1f} {depth:>8.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
