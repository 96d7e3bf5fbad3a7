"""Thread scaling that holds on a shared machine: work per CPU-second at 1 and N threads, with
the other processes' CPU recorded beside it.

    PYTHONPATH=python python -m benchmarks.thread_scaling [--game nice_buns] [--threads 2] [--rounds 5]

Wall-time speedup needs idle cores, which a shared machine does not give: two-thread wall ratios
scattered 0.6-7x there. What does hold is the CPU the threaded run spends for the same work:
``dimsum.random_playouts`` on T threads plays the same games as on one (game i's seed does not
depend on the thread count), so games per CPU-second of the process (``time.process_time``, every
thread's CPU) at T threads over that at 1 thread is the parallel efficiency of the work itself
(1.0: threading costs nothing; below: the pool's hand-outs, waits and shared cache lines). The
wall-time speedup is printed beside it with the load it was measured under: the CPU the other
processes took during the run (from /proc/stat, all CPUs, less this process), in cores.
Rounds alternate 1 and T threads on fresh seeds; medians and ranges over the rounds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import List, Tuple

import dimsum

from .workloads import CONFIGS


def busy_ticks() -> Tuple[int, int]:
    """(busy, total) clock ticks of all CPUs so far (/proc/stat's first line)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


def run(game, games: int, seed: int, threads: int) -> Tuple[float, float, float]:
    """(games per CPU-second, games per wall second, other processes' cores) of one run."""
    hz = os.sysconf("SC_CLK_TCK")
    busy0, _ = busy_ticks()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    dimsum.random_playouts(game, games, seed=seed, threads=threads)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    busy1, _ = busy_ticks()
    others = max(0.0, (busy1 - busy0) / hz - cpu) / wall  # cores' worth of CPU taken by the rest
    return games / cpu, games / wall, others


def measure(name: str, threads: int, rounds: int, games: int) -> Tuple[List[float], ...]:
    """Per round: games per CPU-second at `threads` over 1 (the parallel efficiency), the wall-time
    speed-up, and the other processes' cores during the 1-thread and the `threads` run. Rounds
    alternate which runs first, each on its own seed."""
    game = dimsum.make(name, **CONFIGS[name])
    eff, speed, load1, loadt = [], [], [], []
    for r in range(rounds):
        seed = 7919 * (r + 1)
        order = (1, threads) if r % 2 == 0 else (threads, 1)
        got = {t: run(game, games, seed, t) for t in order}
        eff.append(got[threads][0] / got[1][0])
        speed.append(got[threads][1] / got[1][1])
        load1.append(got[1][2])
        loadt.append(got[threads][2])
    return eff, speed, load1, loadt


def main(argv: List[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="nice_buns")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=100000)
    args = parser.parse_args(argv)
    eff, speed, load1, loadt = measure(args.game, args.threads, args.rounds, args.games)
    print(f"{args.game}, {args.games} games a run, {args.rounds} rounds, {os.cpu_count()} CPUs")
    print(f"games per CPU-second, {args.threads} threads / 1 thread (parallel efficiency): "
          f"{statistics.median(eff):.3f} (range {min(eff):.3f}-{max(eff):.3f})")
    print(f"wall-time speedup, {args.threads} threads / 1 thread: {statistics.median(speed):.2f}x "
          f"(range {min(speed):.2f}-{max(speed):.2f})")
    print(f"other processes' CPU during the runs, in cores: 1 thread {statistics.median(load1):.2f} "
          f"(range {min(load1):.2f}-{max(load1):.2f}), {args.threads} threads {statistics.median(loadt):.2f} "
          f"(range {min(loadt):.2f}-{max(loadt):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
