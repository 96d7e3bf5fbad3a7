"""BatchEnv under callgrind: instructions per env-step, and calls per env-step of named C++
functions (how often an env-step generates its legal actions, observes, keys a state).

    PYTHONPATH=python python -m benchmarks.callgrind_batch GAME ENVS STEPS [FUNCTION ...]
    PYTHONPATH=python python -m benchmarks.callgrind_batch dim_sum_jam 64 20 Engine::legal_actions has_play

"x fixed floor" is the env-step over the FIXED floor (benchmarks/batch_floor.cpp): a toy env in a
plain C++ loop that writes the same outputs for the game's layout (row width, actions, players)
whole, including nothing of dimsum, so the ratio falls only when BatchEnv gets cheaper. The floor
has no Python call and no policy; this side has both (step(sample_actions(k)) from Python), so
the ratio charges our binding to us. This is the figure of the goal (benchmarks/goals.py).

For information it also prints BatchEnv's own overhead (what the goal once divided by): the
instructions not under a call of the game's own functions (every function of namespace
dimsum::GAME: apply, legal_actions, observe, new_state, returns) nor of BatchEnv's write_current
(the obs row, the mask and its bits), that is the Python call, the binding, sample_actions, the
legality check and the step's bookkeeping. It depends on BatchEnv's code (a slower binding made
that ratio better), so it is a split of where an env-step goes, not a goal.

One thread, `step(sample_actions(k))` from Python on the benchmarks' configuration of GAME, after
three warm-up steps; a run with the same set-up and no measured steps is subtracted, as in
perf_guard.py (both run callgrind through dimsum.bench.instructions). A FUNCTION matches every C++
symbol that contains it. Counts are instructions, the same on every run whatever else the machine
does (docs/PERFORMANCE.md, "The engine: instructions a step").
"""

from __future__ import annotations

import os
import re
import sys
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
    """(total instructions, {function: calls}, instructions under the game's work) of one run."""
    from dimsum.bench.instructions import callgrind_run, quiet_env

    env = quiet_env({"PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])})
    total, _, output = callgrind_run(["-c", SCRIPT, game, str(envs), str(steps)], env, keep_output=True)
    # callgrind names a function once, "fn=(id) name" or "cfn=(id) name", then "(id)" alone;
    # a "calls=" line is followed by the line of that call's inclusive cost
    names, calls, callee, caller = {}, dict.fromkeys(functions, 0), None, ""
    work, pending = 0, False
    for line in output.splitlines():
        if pending:  # the inclusive cost of a call from outside the work into it
            work += int(line.split()[-1])
            pending = False
            continue
        m = re.match(r"(c?)fn=\((\d+)\)(?: (.*))?", line)
        if m:
            if m.group(3):
                names[m.group(2)] = m.group(3)
            if m.group(1):
                callee = names.get(m.group(2), "")
            else:
                caller, callee = names.get(m.group(2), ""), None
            continue
        m = re.match(r"calls=(\d+)", line)
        if m and callee is not None:
            for f in functions:
                if f in callee:
                    calls[f] += int(m.group(1))
            pending = is_work(game, callee) and not is_work(game, caller)
            callee = None
    return total, calls, work


def is_work(game: str, function: str) -> bool:
    """Is `function` the game's own code or the writing of its outputs (the module docstring).
    Template arguments and parameter lists are left out first: BatchEnv<dimsum::GAME::Engine>'s
    own functions name the game only there."""
    if "::write_current(" in function:
        return True
    bare, before = function, None
    while bare != before:  # innermost <...> and (...) first, until none is left
        before, bare = bare, re.sub(r"<[^<>]*>|\([^()]*\)", "", bare)
    return f"dimsum::{game}::" in bare


def per_env_step(game: str, envs: int, steps: int, functions=()) -> tuple:
    """(instructions per env-step, the floor per env-step, {function: calls per env-step}): a run
    of `steps` steps minus a run of none, as the module docstring says."""
    base, base_calls, base_work = callgrind(game, envs, 0, list(functions))
    total, total_calls, work = callgrind(game, envs, steps, list(functions))
    n = envs * steps
    calls = {f: (total_calls[f] - base_calls[f]) / n for f in functions}
    return (total - base) / n, ((total - work) - (base - base_work)) / n, calls


def fixed_floor(game: str, envs: int, steps: int) -> float:
    """Instructions per env-step of the fixed floor (batch_floor.cpp) for `game`'s layout in the
    benchmarks' configuration, built with the extensions' flags in a scratch directory."""
    import tempfile

    if __package__:
        from . import batch_floor
    else:  # run as a script (python benchmarks/callgrind_batch.py)
        sys.path.insert(0, str(ROOT))
        from benchmarks import batch_floor

    with tempfile.TemporaryDirectory() as tmp:
        executable = batch_floor.build(Path(tmp))
        if executable is None:
            raise RuntimeError("no C++ compiler: the fixed floor cannot be built (benchmarks/cxx.py)")
        return batch_floor.floor_instructions(executable, batch_floor.layout(game), envs, steps)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    game, envs, steps, functions = argv[0], int(argv[1]), int(argv[2]), argv[3:]
    per_step, overhead, calls = per_env_step(game, envs, steps, functions)
    floor = fixed_floor(game, envs, steps)
    print(f"{game}, {envs} envs x {steps} steps: {per_step:.1f} instructions per env-step; "
          f"fixed floor {floor:.1f}, {per_step / floor:.2f}x fixed floor "
          f"(BatchEnv's own overhead {overhead:.1f}, {per_step / overhead:.2f}x it)")
    for f in functions:
        print(f"  {f}: {calls[f]:.3f} calls per env-step")
    return 0


if __name__ == "__main__":
    sys.exit(main())
