"""Instruction counts with valgrind's callgrind: independent of whatever else the machine
does, so a regression of a few percent shows on a shared, noisy machine (where times do not).

A workload runs in a fresh interpreter twice, at size N and at size 0; the difference (the workload
alone, without interpreter start-up and imports) is divided by the number of game steps it took.
PYTHONHASHSEED is pinned and BLAS kept to one thread (idle BLAS threads spin, and spinning is
counted). The perf guard (benchmarks/perf_guard.py) and ``python -m dimsum bench --callgrind``
measure with this module, so their counts mean the same.

This module imports nothing of dimsum (the standard library only): the perf guard loads it by
its path to measure an installed dimsum that predates it (a base commit, bench.yml).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

# The workloads, run in a fresh interpreter: `size` games of the game `name` made with {options};
# prints the number of steps taken. The perf guard's baselines are counts of this script: change
# it and they change meaning (record new ones with perf_guard.py --update).
WORKLOAD = r"""
import random, sys, dimsum
name, kind, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
game = dimsum.make(name, **{options})
import numpy  # imported in every run, so that size 0 pays for it too
import gc
gc.collect()
gc.freeze()  # what the imports left is no longer the collector's: a collection costs what the games made
steps = 0
if kind == "cpp_playout":
    returns, lengths = dimsum.random_playouts(game, size, seed=1)
    steps = int(lengths.sum())
else:
    rng = random.Random(1)
    for seed in range(size):
        state = game.new_state(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
print("STEPS", steps)
"""

KINDS = {
    "cpp_playout": "uniformly random games played in C++ (dimsum.random_playouts)",
    "python_step": "uniformly random games driven from Python through the per-move API",
}

# games per workload run; per-step counts depend on which games a run plays, so each mode
# keeps its own baseline
SIZES: Dict[str, Dict[str, int]] = {"quick": {"cpp_playout": 4, "python_step": 1},
                                    "full": {"cpp_playout": 40, "python_step": 6}}

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def available() -> bool:
    """Is valgrind on the PATH."""
    return shutil.which("valgrind") is not None


def quiet_env(extra: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
    """The environment of a counted run: hashing pinned, one BLAS/OpenMP thread, and (Python 3.11
    on) the working folder kept off ``sys.path``: ``python -c`` would import from it first, and
    a busy folder (/tmp, files coming and going) is listed again between the two runs, which does
    not cancel out in their difference. Python 3.10 ignores PYTHONSAFEPATH: run it from a quiet
    folder (the checkout)."""
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               PYTHONSAFEPATH="1")
    env.update(extra or {})
    return env


def callgrind_run(args: List[str], env: Optional[Mapping[str, str]] = None,
                  keep_output: bool = False) -> Tuple[int, str, str]:
    """Runs ``sys.executable *args`` under callgrind: (total instructions, the run's stdout, the
    callgrind output file's text when ``keep_output``, else ""). RuntimeError when valgrind fails
    or prints no total."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, *args],
                              capture_output=True, text=True, env=dict(env or quiet_env()), check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"valgrind failed ({' '.join(args[2:])}):\n{proc.stderr[-2000:]}")
        refs = _REFS.search(proc.stderr)
        if not refs:
            raise RuntimeError(f"could not read callgrind's total ({' '.join(args[2:])})")
        return int(refs.group(1).replace(",", "")), proc.stdout, out.read_text(errors="replace") if keep_output else ""


def _script(options: Mapping[str, Any]) -> str:
    return WORKLOAD.replace("{options}", repr(dict(options)))


def callgrind_instructions(name: str, options: Mapping[str, Any], kind: str, size: int) -> Tuple[int, int]:
    """(instructions, steps) of one run of WORKLOAD under callgrind."""
    total, stdout, _ = callgrind_run(["-c", _script(options), name, kind, str(size)])
    steps = re.search(r"STEPS (\d+)", stdout)
    if not steps:
        raise RuntimeError(f"the workload {name}/{kind} printed no step count")
    return total, int(steps.group(1))


def per_step(name: str, options: Mapping[str, Any], kind: str, size: int) -> float:
    """Instructions per step of ``size`` games of ``kind`` (KINDS) of ``name`` made with ``options``:
    a run at ``size`` minus a run at 0, over the steps taken."""
    if kind not in KINDS:
        raise ValueError(f"unknown workload kind {kind!r}; the kinds are {', '.join(KINDS)}")
    # a native warm-up first, so that no measured run pays for writing .pyc files
    subprocess.run([sys.executable, "-c", _script(options), name, kind, "0"], check=True, capture_output=True,
                   env=quiet_env())
    base, _ = callgrind_instructions(name, options, kind, 0)
    total, steps = callgrind_instructions(name, options, kind, size)
    return (total - base) / max(steps, 1)
