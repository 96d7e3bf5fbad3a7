"""Two builds of dimsum side by side in one run: CPU time of the same C++ loop in each, paired.

    python -m benchmarks.build_ab BEFORE_PYTHONPATH AFTER_PYTHONPATH [--rounds 7] [--work playouts:nice_buns]

Each round runs the work once in a fresh interpreter per build (the order alternating from round
to round), every round on a fresh seed (a replayed game lets the branch predictor learn it); a
child reports the CPU time of its own thread around the work alone (``time.thread_time``:
imports and start-up left out, and the other processes' time slices not charged). The figure is
the ratio before / after of each round (above 1: the second build is faster), and its median and
range over the rounds; the paired ratio holds on a shared machine where the absolute times move.

Works: ``playouts:GAME`` (``dimsum.random_playouts``, one thread, GAME's benchmark configuration,
per decision), ``batch:GAME`` (``BatchEnv.step(sample_actions())`` with observations and masks
at 1,024 envs, one thread, per env-step), and for a shipped policy (``GAME-Np``, as
``benchmarks/policy_inference.py`` names them) ``move:GAME-Np`` (``bots::policy_move`` on 4,000
decision nodes of random games in one C++ loop, per move) and ``rows:GAME-Np``
(``PolicyNet.logits`` on those nodes' observations and masks, per row).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import sys, time
import dimsum
from benchmarks.workloads import CONFIGS
kind, name, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
if kind in ("move", "rows"):
    import numpy as np
    import dimsum.bots
    from dimsum import _batch
    from benchmarks.policy_inference import decision_states
    game_name, players = name.rsplit("-", 1)
    game = dimsum.make(game_name, players=int(players.rstrip("p")))
    policy = dimsum.bots.make("policy", game, weights="shipped")
    states = decision_states(game, int(sys.argv[4]), seed)
    repeat = 5
    if kind == "move":
        blobs = [s.to_bytes() for s in states]
        _, seconds = _batch._policy_moves_cpu(policy._net, *policy._game_args, blobs, repeat)  # its own CPU clock
        print(seconds, repeat * len(states))
    else:
        obs = np.stack([s.observation(s.current_player) for s in states])
        masks = np.stack([s.legal_mask() for s in states])
        policy._net.logits(obs[:64], masks[:64])  # the thread's buffers grown outside the clock
        start = time.thread_time()
        for _ in range(repeat):
            policy._net.logits(obs, masks)
        print(time.thread_time() - start, repeat * len(states))
    sys.exit(0)
game = dimsum.make(name, **CONFIGS[name])
if kind == "playouts":
    games = int(sys.argv[4])
    start = time.thread_time()
    _, lengths = dimsum.random_playouts(game, games, seed=seed)
    print(time.thread_time() - start, int(lengths.sum()))
else:
    steps = int(sys.argv[4])
    env = dimsum.BatchEnv(game, 1024, seed=seed, threads=1)
    env.reset()
    start = time.thread_time()
    for k in range(steps):
        env.step(env.sample_actions(seed + k))  # the draw reads the masks: timed with the step
    print(time.thread_time() - start, 1024 * steps)
"""

SIZES = {"playouts": 20000, "batch": 40, "move": 4000, "rows": 4000}


def one(pythonpath: str, kind: str, name: str, seed: int) -> float:
    """Seconds of CPU per unit (decision or env-step) of one child run."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([pythonpath, str(ROOT)]), OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", CHILD, kind, name, str(seed), str(SIZES[kind])], env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]) / int(out[1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--work", action="append", help="playouts:GAME, batch:GAME, move:GAME-Np or rows:GAME-Np (repeatable)")
    args = parser.parse_args(argv)
    for work in args.work or ["playouts:nice_buns"]:
        kind, name = work.split(":")
        ratios, befores, afters = [], [], []
        for r in range(args.rounds):
            seed = 1000003 * (r + 1)
            pair = [("before", args.before), ("after", args.after)]
            times = {label: one(path, kind, name, seed) for label, path in (pair if r % 2 == 0 else pair[::-1])}
            befores.append(times["before"])
            afters.append(times["after"])
            ratios.append(times["before"] / times["after"])
        print(f"{work}: before {statistics.median(befores) * 1e9:.1f} ns, after {statistics.median(afters) * 1e9:.1f} ns "
              f"per unit (CPU, medians); before / after {statistics.median(ratios):.3f}x "
              f"(range {min(ratios):.3f}-{max(ratios):.3f} over {args.rounds} rounds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
