"""What a move of the policy bot costs (docs/BASELINES.md, "Cost"): every shipped policy (MLPs with
tanh; Nice Buns 2p is 200-64-64-101, Dim Sum Jam's read the largest observation), on decision nodes
of random games, one thread:

- network only: ``PolicyNet.logits`` on a batch of recorded observations (the C++ loop over
  rows, no Python per row): the forward pass itself;
- a bot move: ``bot.act(state)`` (the state's bytes to C++, checked and validated, observed, the
  network, the masked argmax), against the heuristic bot's ``act`` on the same states.

Each figure is given by CPU time (``time.process_time``) and by the wall clock, the best of
``--rounds`` rounds with fresh states each round: the machine is shared, the CPU column is the one
to compare. The issue's target (issue 24) is <= 20 us a move on one core.

    python benchmarks/policy_inference.py                       # every shipped policy, a minute or so
    python benchmarks/policy_inference.py --rounds 5 --policies nice_buns-2p

Not a test: the numbers depend on the machine and on what else it runs.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable, List, Tuple

import numpy as np

import dimsum
import dimsum.bots
from dimsum.baselines.shipped import shipped


def decision_states(game: Any, n: int, seed: int) -> List[Any]:
    rng = np.random.default_rng(seed)
    states: List[Any] = []
    g = 0
    while len(states) < n:
        s = game.new_state(seed * 100_000 + g)
        g += 1
        while not s.is_terminal and len(states) < n:
            states.append(s.clone())
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    return states


def timed(work: Callable[[], Any], count: int) -> Tuple[float, float]:
    """Microseconds per item of ``work`` (which does ``count`` items), by CPU time and by the wall clock."""
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    return (time.process_time() - cpu) / count * 1e6, (time.perf_counter() - wall) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description="The policy bot's cost per move")
    parser.add_argument("--states", type=int, default=5000, help="decision nodes per round (default 5000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each with fresh states (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policies", nargs="*", default=None, choices=shipped(), metavar="GAME-Np",
                        help=f"shipped policies to time (default: all, {', '.join(shipped())})")
    args = parser.parse_args()
    for stem in args.policies or shipped():
        name, players = stem.rsplit("-", 1)
        time_policy(dimsum.make(name, players=int(players.rstrip("p"))), args)


def time_policy(game: Any, args: argparse.Namespace) -> None:
    """Prints the three rows for the shipped policy of ``game``."""
    policy = dimsum.bots.make("policy", game, weights="shipped")
    heuristic = dimsum.bots.make("heuristic", game)
    rows: dict = {"network only (PolicyNet.logits, batched)": [], "policy bot act()": [], "heuristic bot act()": []}
    for r in range(args.rounds):
        states = decision_states(game, args.states, args.seed + r)
        obs = np.stack([s.observation(s.current_player) for s in states])
        masks = np.stack([s.legal_mask() for s in states])
        rows["network only (PolicyNet.logits, batched)"].append(timed(lambda: policy._net.logits(obs, masks), len(states)))
        rows["policy bot act()"].append(timed(lambda: [policy.act(s) for s in states], len(states)))
        rows["heuristic bot act()"].append(timed(lambda: [heuristic.act(s) for s in states], len(states)))
    print(f"\n{game.name} {game.players} players, shipped policy ({policy._net.input_size} inputs), {args.states} "
          f"decision nodes x "
          f"{args.rounds} rounds (best round)")
    print(f"{'what':45s} {'us/move CPU':>12s} {'us/move wall':>13s}")
    for what, results in rows.items():
        cpu = min(c for c, _ in results)
        wall = min(w for _, w in results)
        print(f"{what:45s} {cpu:12.2f} {wall:13.2f}")


if __name__ == "__main__":
    main()
