"""BatchEnv under callgrind: instructions per env-step, and calls per env-step of named C++
functions (how often an env-step generates its legal actions, observes, keys a state).

    python benchmarks/callgrind_batch.py GAME ENVS STEPS [FUNCTION ...]
    python benchmarks/callgrind_batch.py dim_sum_jam 64 20 Engine::legal_actions has_play

One thread, `step(sample_actions(k))` from Python on the benchmarks' configuration of GAME, after
three warm-up steps; a run with the same set-up and no measured steps is subtracted, as in
perf_guard.py. A FUNCTION matches every C++ symbol that contains it. Counts are instructions, the
same on every run whatever else the machine does (docs/PERFORMANCE.md, "Third pass").
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import gc, sys
import dimsum
from benchmarks.workloads import CONFIGS
name, envs, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
env = dimsum.BatchEnv(dimsum.make(name, **CONFIGS[name]), envs, seed=0, threads=1)
env.reset()
for k in range(3):
    env.step(env.sample_actions(10**6 + k))
gc.collect()
gc.freeze()
for k in range(steps):
    env.step(env.sample_actions(k))
"""


def callgrind(game: str, envs: int, steps: int, functions: list) -> tuple:
    """(total instructions, {function: calls}) of one run."""
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c",
                               SCRIPT, game, str(envs), str(steps)], capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            raise RuntimeError(f"valgrind failed:\n{proc.stderr[-2000:]}")
        total = int(re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr).group(1).replace(",", ""))
        # callgrind names a function once, "fn=(id) name" or "cfn=(id) name", then "(id)" alone
        names, calls, callee = {}, dict.fromkeys(functions, 0), None
        for line in out.read_text(errors="replace").splitlines():
            m = re.match(r"(c?)fn=\((\d+)\)(?: (.*))?", line)
            if m:
                if m.group(3):
                    names[m.group(2)] = m.group(3)
                callee = names.get(m.group(2), "") if m.group(1) else None
                continue
            m = re.match(r"calls=(\d+)", line)
            if m and callee is not None:
                for f in functions:
                    if f in callee:
                        calls[f] += int(m.group(1))
                callee = None
        return total, calls


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    game, envs, steps, functions = argv[0], int(argv[1]), int(argv[2]), argv[3:]
    base, base_calls = callgrind(game, envs, 0, functions)
    total, total_calls = callgrind(game, envs, steps, functions)
    n = envs * steps
    print(f"{game}, {envs} envs x {steps} steps: {(total - base) / n:.1f} instructions per env-step")
    for f in functions:
        print(f"  {f}: {(total_calls[f] - base_calls[f]) / n:.3f} calls per env-step")
    return 0


if __name__ == "__main__":
    sys.exit(main())
