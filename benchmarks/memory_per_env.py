"""Resident memory a BatchEnv takes per env: the growth of this process's RSS when a BatchEnv of
32,768 envs is made and stepped 30 times (so that every buffer it keeps has been written),
divided by the envs. One game per process (run it once per game): memory freed by one env is
reused by the next, which would hide the second game's cost.

    python benchmarks/memory_per_env.py yum_cha          # Linux (reads /proc/self/statm)
    python benchmarks/memory_per_env.py yum_cha --json   # the same as one JSON object (benchmarks/figures.py)
"""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dimsum  # noqa: E402
from benchmarks.workloads import CONFIGS  # noqa: E402

ENVS = 1 << 15


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    as_json = "--json" in argv
    argv = [a for a in argv if a != "--json"]
    if len(argv) != 1 or argv[0] not in CONFIGS:
        print(f"usage: memory_per_env.py GAME [--json] (GAME one of {', '.join(CONFIGS)})", file=sys.stderr)
        return 2
    game = dimsum.make(argv[0], **CONFIGS[argv[0]])
    warm = dimsum.BatchEnv(game, 64, seed=0, threads=1)  # code paths and the allocator's own start-up
    for k in range(50):
        warm.step(warm.sample_actions(k))
    del warm
    gc.collect()
    before = rss()
    env = dimsum.BatchEnv(game, ENVS, seed=0, threads=1)
    for k in range(30):
        env.step(env.sample_actions(k))
    grown = rss() - before
    if as_json:
        print(json.dumps({"game": argv[0], "players": game.players, "observation_size": env.observation_size,
                          "num_actions": env.num_actions, "envs": ENVS, "bytes_per_env": grown / ENVS}))
        return 0
    print(f"{argv[0]}: {grown / ENVS:,.0f} bytes per env ({game.players} players, observation "
          f"{env.observation_size} floats, {env.num_actions} actions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
