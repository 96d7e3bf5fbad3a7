"""The C API's stepping loop (examples/c/timing_loop.c) against dimsum.BatchEnv's, side by side.

    PYTHONPATH=python python -m benchmarks.capi_loop [--games pig yum_cha] [--envs 64] [--steps 2000]
        [--rounds 7] [--threads 1] [--learner-seat -1]

Both loops step the same engine with the same policy: every step, one uniformly random legal
action per env from the library's sampler (``dimsum_env_sample_actions`` in C,
``BatchEnv.sample_actions`` in Python, the same function), then one step; the same game, envs
count, threads and seat mode. Only the loop is timed (the env is made and reset before).

- Each round runs the C program, then BatchEnv's loop in this process, on a fresh seed (a
  replayed game lets the branch predictor learn it); the round's ratio is C / BatchEnv, so that
  both loops of a ratio ran on the same machine at nearly the same moment. Medians over rounds,
  with the range of the per-round ratios.
- CPU time (the process's clock: every thread of it; ``time.process_time`` in Python,
  CLOCK_PROCESS_CPUTIME_ID in C) is the figure, wall time beside it: on a shared machine a loop
  is preempted by other processes, which wall time charges to it.

The C API's goal: its loop steps within 10% of BatchEnv's speed (a CPU ratio <= 1.10).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "examples" / "c" / "timing_loop.c"


def build_loop(out_dir: Path) -> Path:
    """timing_loop.c compiled (-O2) against the installed C API, as a user builds it."""
    import dimsum

    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        raise SystemExit("no C compiler (cc, gcc or clang)")
    library = Path(dimsum.get_library())
    exe = out_dir / "timing_loop"
    subprocess.run([compiler, "-std=c99", "-O2", "-I", dimsum.get_include(), str(SOURCE), "-o", str(exe),
                    "-L", str(library.parent), "-ldimsum", f"-Wl,-rpath,{library.parent}"], check=True)
    return exe


def c_loop(exe: Path, game: str, envs: int, steps: int, seed: int, threads: int, seat: int) -> Dict[str, float]:
    out = subprocess.run([str(exe), game, str(envs), str(steps), str(seed), str(threads), str(seat)],
                         capture_output=True, text=True, check=True, timeout=600)
    return json.loads(out.stdout)


def batch_env_loop(game: str, envs: int, steps: int, seed: int, threads: int, seat: int) -> Dict[str, float]:
    import dimsum

    env = dimsum.BatchEnv(dimsum.make(game), envs, seed=seed, threads=threads,
                          learner_seat=None if seat < 0 else seat)
    env.reset(seed)
    sample, step = env.sample_actions, env.step
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for t in range(steps):
        step(sample(seed + t))
    return {"wall": time.perf_counter() - wall0, "cpu": time.process_time() - cpu0}


def measure(games: List[str], envs: int, steps: int, rounds: int, threads: int, seat: int) -> Dict[str, dict]:
    results: Dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        exe = build_loop(Path(tmp))
        seed = 1000
        for game in games:
            rows: Dict[str, List[float]] = {k: [] for k in ("c_cpu", "c_wall", "py_cpu", "py_wall")}
            batch_env_loop(game, envs, min(steps, 100), 1, threads, seat)  # warm: imports, first allocations
            for _ in range(rounds):
                seed += 1
                c = c_loop(exe, game, envs, steps, seed, threads, seat)
                py = batch_env_loop(game, envs, steps, seed, threads, seat)
                rows["c_cpu"].append(c["cpu"])
                rows["c_wall"].append(c["wall"])
                rows["py_cpu"].append(py["cpu"])
                rows["py_wall"].append(py["wall"])
            results[game] = rows
    return results


def report(results: Dict[str, dict], envs: int, steps: int) -> str:
    lines = [f"{'game':12} {'C us/step':>10} {'BatchEnv us/step':>17} {'CPU ratio C/BatchEnv':>28} "
             f"{'wall ratio':>22}",
             f"{'':12} {'(CPU)':>10} {'(CPU)':>17} {'median [min, max]':>28} {'median [min, max]':>22}"]
    for game, r in results.items():
        cpu_ratio = [c / p for c, p in zip(r["c_cpu"], r["py_cpu"])]
        wall_ratio = [c / p for c, p in zip(r["c_wall"], r["py_wall"])]
        per_step = 1e6 / steps
        lines.append(f"{game:12} {statistics.median(r['c_cpu']) * per_step:10.1f} "
                     f"{statistics.median(r['py_cpu']) * per_step:17.1f} "
                     f"{statistics.median(cpu_ratio):12.3f} [{min(cpu_ratio):.3f}, {max(cpu_ratio):.3f}] "
                     f"{statistics.median(wall_ratio):8.3f} [{min(wall_ratio):.3f}, {max(wall_ratio):.3f}]")
    lines.append(f"(a step = {envs} envs stepped once; {steps} steps a loop)")
    return "\n".join(lines)


def main(argv: List[str] = sys.argv[1:]) -> None:
    import dimsum

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", default=list(dimsum.games()))
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--learner-seat", type=int, default=-1, help="-1: every seat acts through step")
    parser.add_argument("--json", help="also write the raw rounds here")
    args = parser.parse_args(argv)
    results = measure(args.games, args.envs, args.steps, args.rounds, args.threads, args.learner_seat)
    print(report(results, args.envs, args.steps))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
