"""IS-MCTS guided by the shipped policy against plain IS-MCTS at the same time per move (a
benchmark, not a test: docs/BOTS.md, "Guided by a policy", holds its figures).

Each variant plays plain ismcts (the defaults) in a seat-balanced, duplicate-dealt arena
(dimsum.arena: every line-up of the two bots over the seats, every line-up on the same deal),
both with ``seconds=`` per move. Printed per variant: games, each bot's win rate per seat with its
Wilson 95% interval and mean return, whether the intervals are apart, the wall and CPU time
of the run, the load average; and, beforehand, the simulations each bot runs in its budget on a
few fixed positions (a time budget's count depends on the machine and its load).

    nice -n 10 python benchmarks/guided_ismcts.py --players 2 --games 200 --seconds 0.01
    nice -n 10 python benchmarks/guided_ismcts.py --players 4 --games 210 --seconds 0.01 --variants prior
    nice -n 10 python benchmarks/guided_ismcts.py --game yum_cha --players 4 --games 420 --variants prior
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Dict, List

import dimsum
import dimsum.arena
import dimsum.bots

VARIANTS: Dict[str, str] = {
    "prior": "guide=policy",  # policy priors by PUCT, heuristic rollouts
    "prior_ucb": "guide=policy_ucb",  # policy priors as UCB's progressive bias, heuristic rollouts
    "prior_heuristic": "guide=policy_heuristic",  # that plus the heuristic's bias
    "rollouts": "rollout=policy",  # heuristic bias, policy rollouts
    "both": "guide=policy,rollout=policy",
}


def simulations_per_move(game, spec: str, positions: List, seconds: float) -> float:
    """The median simulations one search of ``spec`` runs in ``seconds`` over ``positions``."""
    kind, params = dimsum.bots.parse_spec(spec)
    bot = dimsum.bots.make(kind, game, seed=1, **params)
    counts = []
    for s in positions:
        bot.act(s)
        counts.append(bot.last_search[0])
    return statistics.median(counts)


def probe_positions(game, n: int = 12) -> List:
    """Decision nodes along one game the heuristic plays with itself (fixed seeds)."""
    bot = dimsum.bots.make("heuristic", game, seed=0)
    s = game.new_state(12345)
    states = []
    while not s.is_terminal:
        states.append(s.clone())
        s.apply(bot.act(s))
    step = max(1, len(states) // n)
    return states[::step][:n]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="nice_buns", help="a game with a shipped policy for --players")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=0.01, help="the time budget per move of both bots")
    ap.add_argument("--variants", default="prior,rollouts,both", help=f"comma-separated, of {', '.join(VARIANTS)}")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--weights", default="shipped",
                    help="the guided bot's policy file: 'shipped' or a path (a game without shipped weights)")
    ap.add_argument("--guided-params", default="",
                    help="more parameters of the guided bot only, as in a spec: 'bias=20,c=0.5'")
    args = ap.parse_args()
    extra = f",weights={args.weights}" + (f",{args.guided_params}" if args.guided_params else "")

    game = dimsum.make(args.game, players=args.players)
    plain = f"ismcts:seconds={args.seconds}"
    positions = probe_positions(game)
    print(f"{args.game} {args.players}p, {args.seconds * 1000:g} ms per move, load {os.getloadavg()[0]:.1f}")
    print(f"  plain: {simulations_per_move(game, plain, positions, args.seconds):.0f} simulations per move (median)")
    for name in args.variants.split(","):
        guided = f"{plain},{VARIANTS[name]}{extra}"
        print(f"  {name}: {simulations_per_move(game, guided, positions, args.seconds):.0f} simulations per move")
    for name in args.variants.split(","):
        guided = f"{plain},{VARIANTS[name]}{extra}"
        load = os.getloadavg()[0]
        wall, cpu = time.perf_counter(), time.process_time()
        results = dimsum.arena.run(game, [guided, plain], games=args.games, seed=args.seed, workers=args.workers,
                                   progress=False)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        by_name = {s.bot: s for s in results.standings()}
        g, p = (next(s for b, s in by_name.items() if b.startswith(prefix) and (("weights" in b) == is_guided))
                for prefix, is_guided in (("ismcts", True), ("ismcts", False)))
        apart = g.interval[0] > p.interval[1] or p.interval[0] > g.interval[1]
        print(f"\n[{name}] {guided} vs {plain}: {g.games} games, wall {wall:.0f} s, cpu (this process) {cpu:.0f} s, "
              f"load {load:.1f} -> {os.getloadavg()[0]:.1f}")
        for label, s in (("guided", g), ("plain", p)):
            print(f"  {label:7s} win rate {s.win_rate:.3f} [{s.interval[0]:.3f}, {s.interval[1]:.3f}]  "
                  f"mean return {s.mean_return:.2f}")
        verdict = ("guided better" if g.interval[0] > p.interval[1] else "plain better") if apart else "not apart"
        print(f"  intervals: {verdict}")


if __name__ == "__main__":
    main()
