"""BatchEnv under callgrind: instructions per env-step, and calls per env-step of named C++
functions (how often an env-step generates its legal actions, observes, keys a state).

    python benchmarks/callgrind_batch.py GAME ENVS STEPS [FUNCTION ...]
    python benchmarks/callgrind_batch.py dim_sum_jam 64 20 Engine::legal_actions has_play

It also prints the env-step's floor: what the step costs outside the game and the outputs the
game fills, i.e. the instructions not under a call of the game's own functions (every function
of namespace dimsum::GAME: apply, legal_actions, observe, new_state, returns) nor of BatchEnv's
write_current (the obs row, the mask and its bits). What is left is the Python call, the binding,
sample_actions (a random legal action drawn from the mask's bits), the legality check, and the
step's own bookkeeping (rewards, flags, the scan for ended games): a step of a game that does
nothing. "x floor" is the whole env-step over it. A game's code inlined into BatchEnv's own
functions (no call) counts as floor: the figure is a floor for the step as built.

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


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    game, envs, steps, functions = argv[0], int(argv[1]), int(argv[2]), argv[3:]
    per_step, floor, calls = per_env_step(game, envs, steps, functions)
    print(f"{game}, {envs} envs x {steps} steps: {per_step:.1f} instructions per env-step; "
          f"floor {floor:.1f}, {per_step / floor:.2f}x floor")
    for f in functions:
        print(f"  {f}: {calls[f]:.3f} calls per env-step")
    return 0


if __name__ == "__main__":
    sys.exit(main())
