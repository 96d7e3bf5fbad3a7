"""How long Ctrl-C takes to stop a long native call: the time from a real SIGINT to the
KeyboardInterrupt in the process, during a 20 s IS-MCTS search (``seconds=20``) with 1 and 2
threads, and during random playouts of 10^7 games.

Each repetition starts a fresh interpreter that begins the call and says so, sleeps a random
0.3-1.3 s (so that the signal lands anywhere in the poll interval), sends SIGINT and reads the
moment the child caught KeyboardInterrupt. Both ends read CLOCK_MONOTONIC (time.perf_counter on
Linux), so the difference is the latency. The native calls poll for signals every 20 ms
(src/bindings/batch/bindings.hpp, kPollEvery); the bound to meet is 0.2 s. Wall time is what a
user waits, so it is what this reports; the machine's load (os.getloadavg) is printed beside it.

    python benchmarks/ctrl_c_latency.py                # 5 repetitions of each call
    python benchmarks/ctrl_c_latency.py --repeat 10 --game pig
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from typing import List

CHILD = """
import sys, time
import dimsum
from dimsum import bots

game = dimsum.make(sys.argv[1])
kind, threads = sys.argv[2], int(sys.argv[3])
if kind == "search":
    state = game.new_state(1)
    while state.is_chance_node:
        state.apply(state.chance_outcomes()[0][0])
    bot = bots.make("ismcts", game, seconds=20, threads=threads)
    call = lambda: bot.act(state)
else:
    call = lambda: dimsum.random_playouts(game, 10**7, threads=threads)
print("started", flush=True)
try:
    call()
    print("finished", time.perf_counter(), flush=True)
except KeyboardInterrupt:
    print("interrupted", time.perf_counter(), flush=True)
"""


def one_latency(game: str, kind: str, threads: int, rng: random.Random) -> float:
    """Seconds from SIGINT to KeyboardInterrupt in a fresh child running the call."""
    proc = subprocess.Popen([sys.executable, "-c", CHILD, game, kind, str(threads)], stdout=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "started":
            raise RuntimeError("the child did not start its call")
        time.sleep(rng.uniform(0.3, 1.3))
        sent = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        what, when = proc.stdout.readline().split()
        if what != "interrupted":
            raise RuntimeError(f"the call was not interrupted: {what}")
        return float(when) - sent
    finally:
        proc.kill()
        proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="repetitions of each call (default 5)")
    parser.add_argument("--game", default="yum_cha", help="the game (default yum_cha)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the random delays (default: fresh)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"game {args.game}, {args.repeat} repetitions each; load average before: "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    print("| call | threads | min ms | median ms | max ms |")
    print("|---|---|---|---|---|")
    for kind, label in (("search", "IS-MCTS, seconds=20"), ("playouts", "random_playouts, 10^7 games")):
        for threads in (1, 2):
            latencies: List[float] = [one_latency(args.game, kind, threads, rng) for _ in range(args.repeat)]
            ms = [1000 * x for x in latencies]
            print(f"| {label} | {threads} | {min(ms):.1f} | {statistics.median(ms):.1f} | {max(ms):.1f} |",
                  flush=True)
    print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
