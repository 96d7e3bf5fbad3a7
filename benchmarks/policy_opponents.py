"""Learner steps per second of a learner-seat BatchEnv whose other seats are the shipped policy
network (``opponent="policy"``, docs/BASELINES.md, "Policy opponents"), beside the same env with
the "random" and "heuristic" C++ opponents, one thread (``threads=1``), 1024 envs by default.

Each round steps every env ``--steps`` times with random legal learner actions
(``sample_actions``, drawn in C++, included in the time), timed by CPU time (``time.process_time``) and by the wall
clock; the best round of ``--rounds`` is shown, each round from a fresh seed. The machine is
shared: the CPU column is the one to compare. The issue's target (issue 24) is >= 50 k learner
steps/s at 1024 envs on one core.

    python benchmarks/policy_opponents.py                 # nice_buns 2 and 4 players, ~30 s
    python benchmarks/policy_opponents.py --envs 256 --steps 50

Not a test: the numbers depend on the machine and on what else it runs.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Dict, List, Tuple

import dimsum

OPPONENTS: Dict[str, Dict[str, Any]] = {
    "policy (shipped)": {"opponent": "policy", "opponent_weights": "shipped"},
    "heuristic": {"opponent": "heuristic"},
    "random": {"opponent": "random"},
}


def learner_steps_per_second(game: Any, envs: int, steps: int, seed: int, kw: Dict[str, Any]) -> Tuple[float, float]:
    """(CPU, wall) learner steps per second of `steps` steps of `envs` envs."""
    env = dimsum.BatchEnv(game, num_envs=envs, seed=seed, threads=1, learner_seat=0, **kw)
    env.reset()
    cpu, wall = time.process_time(), time.perf_counter()
    for k in range(steps):
        env.step(env.sample_actions(seed * 1000 + k))  # the draw (C++) is timed too: it is cheap
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return envs * steps / cpu, envs * steps / wall


def main() -> None:
    parser = argparse.ArgumentParser(description="Learner steps/s with a policy network as the opponents")
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=100, help="steps of every env per round (default 100)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each from a fresh seed (default 3)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    print(f"nice_buns, learner seat 0, {args.envs} envs, threads=1, {args.steps} steps x {args.rounds} rounds "
          "(best round), random legal learner actions")
    print(f"{'players':>7s}  {'opponent':18s} {'k steps/s CPU':>14s} {'k steps/s wall':>15s}")
    for players in args.players:
        game = dimsum.make("nice_buns", players=players)
        results: Dict[str, List[Tuple[float, float]]] = {name: [] for name in OPPONENTS}
        for r in range(args.rounds):
            for name, kw in OPPONENTS.items():  # side by side in each round
                results[name].append(learner_steps_per_second(game, args.envs, args.steps, 100 + r, kw))
        for name, rows in results.items():
            cpu = max(c for c, _ in rows)
            wall = max(w for _, w in rows)
            print(f"{players:>7d}  {name:18s} {cpu / 1e3:14.1f} {wall / 1e3:15.1f}")


if __name__ == "__main__":
    main()
