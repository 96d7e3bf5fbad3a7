"""BatchEnv against a fixed floor, and BatchEnv's cost per env-step as the env count grows.

    PYTHONPATH=python python -m benchmarks.batch_floor [--games ...] [--envs 1024] [--rounds 5]
    PYTHONPATH=python python -m benchmarks.batch_floor --callgrind        # and instructions
    PYTHONPATH=python python -m benchmarks.batch_floor --curve dim_sum_jam --rounds 3

The floor (batch_floor.cpp) is a toy env stepped by a plain C++ loop that writes BatchEnv's
outputs for a game's layout (its observation row width, its number of actions, its players): an
action read, a counter moved, the player, rewards and flags written, the row and the mask copied
whole from a template. It includes nothing of dimsum, so it is the same whatever BatchEnv, the
games or the binding do: "x floor" falls only when BatchEnv gets cheaper.

BatchEnv's side is measured as its users call it: ``env.step(env.sample_actions(k))`` from Python,
one thread. The floor has neither the Python call nor a policy (its actions are made before its
clock starts), so the ratio charges our binding and sample_actions to us: the strict direction.
CPU time (``time.process_time`` for BatchEnv, the floor's thread CPU clock) with wall time beside
it; both sides alternate within each round, on fresh seeds each round; a figure is the median of
the per-round ratios with their range. Instructions (``--callgrind``) are exact: BatchEnv's from
callgrind_batch.py (a run of N steps less a run of none), the floor's counted inside its step
function alone (callgrind --toggle-collect), N steps less none.

``--curve GAME``: CPU time per env-step at 256, 4,096 and 65,536 envs (observations and masks
on, one thread), each size over the same steps of its games (reset, 3 warm-up steps, then 30
timed ones, repeated until every size has stepped 65,536 x 30 env-steps), so that every size
covers the same game phases and no size's timing includes the first touch of its arrays (reset
writes every row, and is outside the clock). Ratios to 256 envs within each round; beside them
the fixed floor at the same sizes (its first step, which touches every page, outside its clock):
a row written whole grows with the env count too, once the rows leave the caches.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("yum_cha", "nice_buns", "dim_sum_jam", "pig")
# setup.py's flags for the extensions (g++/clang++), so that the floor is built as BatchEnv is
FLAGS = ["-std=c++20", "-O3", "-fvisibility=hidden", "-ffp-contract=off", "-g0"]
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def build(directory: Path) -> Optional[Path]:
    """Compiles batch_floor.cpp into `directory`; its path, or None without a C++ compiler."""
    from .cxx import find_compiler

    compiler = find_compiler()
    if compiler is None:
        return None
    executable = directory / ("batch_floor.exe" if sys.platform == "win32" else "batch_floor")
    subprocess.run([*compiler, *FLAGS, str(ROOT / "benchmarks" / "batch_floor.cpp"), "-o", str(executable)],
                   check=True)
    return executable


def layout(game: str) -> Tuple[int, int, int]:
    """(observation size, number of actions, players) of the benchmarks' configuration of `game`."""
    import dimsum

    from .workloads import CONFIGS

    g = dimsum.make(game, **CONFIGS[game])
    return g.observation_shape[0], g.num_actions, g.players


def floor_cpu(executable: Path, shape: Tuple[int, int, int], envs: int, steps: int, seed: int) -> Tuple[float, float]:
    """(CPU s, wall s) per env-step of the floor for `shape` (layout()), `steps` steps of `envs`."""
    out = subprocess.run([str(executable), *map(str, shape), str(envs), str(steps), str(seed)], check=True,
                         capture_output=True, text=True).stdout
    run = json.loads(out)
    return run["cpu"] / run["env_steps"], run["wall"] / run["env_steps"]


def floor_instructions(executable: Path, shape: Tuple[int, int, int], envs: int, steps: int) -> float:
    """Instructions per env-step of the floor: its step function's, `steps` steps less none."""

    def count(n: int) -> int:
        proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                               "--toggle-collect=*step*", str(executable), *map(str, shape), str(envs), str(n), "1"],
                              capture_output=True, text=True, check=True)
        refs = _REFS.search(proc.stderr)
        if not refs:
            raise RuntimeError(f"could not read callgrind's total:\n{proc.stderr[-2000:]}")
        return int(refs.group(1).replace(",", ""))

    return (count(steps) - count(0)) / (envs * steps)


def batch_cpu(game: str, envs: int, steps: int, seed: int, warmup: int = 3, repeats: int = 1) -> Tuple[float, float]:
    """(CPU s, wall s) per env-step of ``env.step(env.sample_actions(k))`` on a one-thread BatchEnv
    of `game` (the benchmarks' configuration), `repeats` times: reset (from a seed of its own) and
    `warmup` steps outside the clock, then `steps` timed steps."""
    import dimsum

    from .workloads import CONFIGS

    env = dimsum.BatchEnv(dimsum.make(game, **CONFIGS[game]), envs, seed=seed, threads=1)
    cpu = wall = 0.0
    k = seed * 1_000_003
    for r in range(repeats):
        env.reset(seed=seed * 7919 + r)
        for _ in range(warmup):
            k += 1
            env.step(env.sample_actions(k))
        c0, w0 = time.process_time(), time.perf_counter()
        for _ in range(steps):
            k += 1
            env.step(env.sample_actions(k))
        cpu += time.process_time() - c0
        wall += time.perf_counter() - w0
    n = envs * steps * repeats
    return cpu / n, wall / n


def side_by_side(executable: Path, games: List[str], envs: int, rounds: int, batch_steps: int = 100,
                 floor_steps: int = 1000) -> Dict[str, Dict[str, List[float]]]:
    """Per game, per round: BatchEnv's and the floor's CPU and wall ns per env-step, and their
    ratios, alternating within each round on fresh seeds."""
    shapes = {g: layout(g) for g in games}
    result: Dict[str, Dict[str, List[float]]] = {
        g: {k: [] for k in ("batch_cpu", "batch_wall", "floor_cpu", "floor_wall", "x_cpu", "x_wall")} for g in games}
    for r in range(rounds):
        for g in games:
            seed = 1000 * (r + 1) + games.index(g)
            bc, bw = batch_cpu(g, envs, batch_steps, seed)
            fc, fw = floor_cpu(executable, shapes[g], envs, floor_steps, seed)
            row = result[g]
            for k, v in (("batch_cpu", bc), ("batch_wall", bw), ("floor_cpu", fc), ("floor_wall", fw)):
                row[k].append(v * 1e9)
            row["x_cpu"].append(bc / fc)
            row["x_wall"].append(bw / fw)
    return result


def curve(game: str, sizes: List[int], rounds: int, steps: int = 30,
          executable: Optional[Path] = None) -> Dict[int, Dict[str, List[float]]]:
    """Per size, per round: CPU and wall ns per env-step and the CPU ratio to the first size; every
    size steps max(sizes) x `steps` env-steps a round (batch_cpu's repeats). With `executable`
    (build()), the fixed floor of the game's layout at the same size beside it, as many env-steps."""
    most = max(sizes)
    shape = layout(game)
    keys = ("cpu", "wall", "x_first", "floor_cpu", "floor_x_first", "x_floor")
    result: Dict[int, Dict[str, List[float]]] = {n: {k: [] for k in keys} for n in sizes}
    for r in range(rounds):
        first = floor_first = None
        for n in sizes:
            seed = 100 * (r + 1) + sizes.index(n)
            repeats = max(1, most // n)
            cpu, wall = batch_cpu(game, n, steps, seed=seed, repeats=repeats)
            first = cpu if first is None else first
            result[n]["cpu"].append(cpu * 1e9)
            result[n]["wall"].append(wall * 1e9)
            result[n]["x_first"].append(cpu / first)
            if executable is not None:
                floor, _ = floor_cpu(executable, shape, n, steps * repeats, seed)
                floor_first = floor if floor_first is None else floor_first
                result[n]["floor_cpu"].append(floor * 1e9)
                result[n]["floor_x_first"].append(floor / floor_first)
                result[n]["x_floor"].append(cpu / floor)
    return result


def _fmt(values: List[float], digits: int = 2) -> str:
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=GAMES)
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--callgrind", action="store_true", help="also instructions per env-step, both sides")
    parser.add_argument("--curve", default=None, choices=GAMES, help="the env-count curve of this game instead")
    parser.add_argument("--sizes", type=int, nargs="*", default=[256, 4096, 65536])
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        executable = build(Path(tmp))
        if executable is None:
            print("no C++ compiler: the floor cannot be built", file=sys.stderr)
            return 2
        if args.curve:
            res = curve(args.curve, args.sizes, args.rounds, executable=executable)
            print(f"{args.curve}, one thread, CPU ns per env-step, median (range) of {args.rounds} rounds; "
                  f"the fixed floor of its layout {layout(args.curve)} at the same sizes")
            print("| envs | CPU ns / env-step | wall ns | CPU / first size's | floor CPU ns | floor / its first size's "
                  "| x floor, CPU |")
            print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
            for n, row in res.items():
                print(f"| {n:,} | {_fmt(row['cpu'], 1)} | {_fmt(row['wall'], 1)} | {_fmt(row['x_first'])} "
                      f"| {_fmt(row['floor_cpu'], 1)} | {_fmt(row['floor_x_first'])} | {_fmt(row['x_floor'])} |")
            return 0
        res = side_by_side(executable, args.games, args.envs, args.rounds)
        print(f"{args.envs} envs, one thread; BatchEnv from Python (step(sample_actions(k))), the floor in C++; "
              f"median (range) of {args.rounds} rounds")
        print("| game (obs, actions, players) | BatchEnv CPU ns | floor CPU ns | x floor, CPU | x floor, wall |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for g, row in res.items():
            print(f"| {g} {layout(g)} | {_fmt(row['batch_cpu'], 1)} | {_fmt(row['floor_cpu'], 1)} "
                  f"| {_fmt(row['x_cpu'])} | {_fmt(row['x_wall'])} |")
        if args.callgrind:
            from . import callgrind_batch

            print("\n| game | BatchEnv instructions / env-step | its own overhead (old floor) | fixed floor | x fixed floor |")
            print("| --- | ---: | ---: | ---: | ---: |")
            for g in args.games:
                per_step, overhead, _ = callgrind_batch.per_env_step(g, args.envs, 5)
                fl = floor_instructions(executable, layout(g), args.envs, 5)
                print(f"| {g} | {per_step:,.1f} | {overhead:,.1f} | {fl:,.1f} | {per_step / fl:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
