"""The figure generators of what a call from Python costs (registered into
benchmarks.figure_generators.GENERATORS): the policy's inference, the per-move API's calls, and
the README's speed sentence."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import List

from .figure_generators import register, spread, table, title
from .figure_provenance import ROOT, Measuring


@register("policy_inference", rounds=3)
def policy_inference_table(rounds: int) -> str:
    """`python benchmarks/policy_inference.py --rounds N --states 2000` (its time_policy, in this
    process; torch on one thread where it is installed, else its columns read "no torch"): per
    shipped policy, the network batched in C++ against torch on the same weights and rows (torch's
    input matrix built beforehand and not timed, and built in numpy inside its time), a move in
    C++ against the FLOP floor (one row's dense FLOPs at torch's matrix rate), the policy bot's
    act against the heuristic bot's; best round's µs, ratios in every round (their range)."""
    import dimsum
    from dimsum.baselines.shipped import shipped

    from .policy_inference import time_policy, torch_or_none

    torch = torch_or_none()
    args = argparse.Namespace(states=2000, rounds=rounds, seed=0)
    rows = []
    with Measuring() as m:
        for stem in shipped():
            name, players = stem.rsplit("-", 1)
            r = time_policy(dimsum.make(name, players=int(players.rstrip("p"))), args, torch, echo=False)
            best, ratios = r["best_us"], r["ratios"]

            def cpu(what: str) -> str:
                return f"{best[what]['cpu']:.2f}" if what in best else "no torch"

            def ratio(what: str) -> str:
                return spread(ratios[what], ".2f", "x") if what in ratios else "no torch"

            rows.append([f"{title(r['game'])} {r['players']}p ({r['network']})",
                         cpu("network, batched: C++ (PolicyNet.logits)"), cpu("network, batched: torch, same weights"),
                         ratio("torch / C++, batched, per row"), ratio("torch with its input / C++, batched, per row"),
                         cpu("a move in C++ (policy_move)"),
                         ratio("C++ move / floor"), cpu("policy bot act()"), cpu("heuristic bot act()"),
                         ratio("policy bot act() / heuristic bot act()")])
    return (table(["shipped policy (network)", "batched C++, µs a row", "batched torch, µs a row",
                   "torch / C++ batched, torch's input not timed (goal >= 1x)",
                   "the same, torch's input built in numpy and timed", "a move in C++, µs",
                   "move / FLOP floor (goal <= 3x)", "policy bot `act`, µs", "heuristic bot `act`, µs",
                   "policy / heuristic `act`"], "lrrrrrrrrr", rows)
            + "\n\n" + m.line("policy_inference", rounds, "2,000 decision nodes a round, CPU time, best round's µs"))


README_GAMES = ("yum_cha", "nice_buns", "dim_sum_jam")
README_ENVS = 1024


@register("readme_speed", rounds=5)
def readme_speed(rounds: int) -> str:
    """`python -m dimsum bench`'s per_move_api and batch_env workloads (dimsum.bench.workloads, at
    50,000 steps a round and at 1,024 envs x 20 steps on one thread), for the README's three games:
    CPU microseconds a step from Python, and BatchEnv's env-steps per CPU-second."""
    import dimsum
    from dimsum.bench import timing, workloads

    per_step: List[float] = []
    batch: List[float] = []
    with Measuring() as m:
        for name in README_GAMES:
            game = dimsum.make(name, **workloads.bench_options(name))
            steps = timing.measure(name, "step", "", workloads.python_steps(game, 50_000), rounds, seed=1)
            per_step.append(statistics.median(steps.seconds_per_op("cpu")) * 1e6)
            env = timing.measure(name, "env-step", "", workloads.batch_steps(game, README_ENVS, 20), rounds, seed=1)
            batch.append(statistics.median(env.rates("cpu")) / 1e6)
    return (textwrap.fill(f"On this project's 2-core x86_64 machine: a step through the per-move API takes "
            f"{min(per_step):.2f}-{max(per_step):.2f} µs of CPU from Python (random legal moves; the median of each "
            f"game's rounds, Yum Cha, Nice Buns and Dim Sum Jam), and `BatchEnv` runs {min(batch):.1f}-{max(batch):.1f} "
            f"million env-steps per CPU-second on one thread at {README_ENVS:,} envs, observations and masks written "
            "([docs/PERFORMANCE.md](docs/PERFORMANCE.md) has every figure against its peers).", 100,
                          break_on_hyphens=False)
            + "\n\n" + m.line("readme_speed", rounds))


PER_MOVE_CALLS = ("state_from_bytes", "clone", "to_bytes", "chance_outcomes")
PER_MOVE_GAMES = ("python_api_random_game", "python_api_random_game_explicit_chance")


@register("per_move_api", rounds=5)
def per_move_api_table(rounds: int) -> str:
    """`python -m pytest benchmarks/test_bench_api.py -k "..." --benchmark-timer time.process_time
    --benchmark-min-rounds N` (the benchmarks behind `python -m benchmarks.report`'s per-call rows),
    one pytest process: CPU ns per call of the state's round-trips and chance_outcomes (at the
    opening chance node), and ns per step of a random game from Python, sampled and explicit chance."""
    from .report import ns_per_unit

    expr = " or ".join(f"test_{n}" for n in PER_MOVE_CALLS + PER_MOVE_GAMES)
    with Measuring() as m, tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench.json"
        done = subprocess.run([sys.executable, "-m", "pytest", str(ROOT / "benchmarks" / "test_bench_api.py"), "-q",
                               "-p", "no:cacheprovider", "-k", expr, "--benchmark-timer", "time.process_time",
                               f"--benchmark-min-rounds={rounds}", f"--benchmark-json={out}"],
                              cwd=ROOT, env=dict(os.environ), capture_output=True, text=True)
        if not out.exists():
            raise RuntimeError(f"pytest wrote no benchmark data:\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
        measured = json.loads(out.read_text())["benchmarks"]
    # a benchmark that fails (its own assertion) has no figure: the block says which, not a blank
    failed = [line.split()[1].removeprefix("benchmarks/test_bench_api.py::")
              for line in done.stdout.splitlines() if line.startswith("FAILED ")]
    ns: dict = {}
    for b in measured:  # "test_clone[yum_cha]" -> ("clone", "yum_cha")
        what, game = b["name"].removeprefix("test_").split("[", 1)
        ns.setdefault(game.rstrip("]"), {})[what] = ns_per_unit(b)
    columns = PER_MOVE_GAMES + PER_MOVE_CALLS
    rows = [[title(game)] + [f"{cells[c]:,.0f}" if c in cells else "" for c in columns]
            for game, cells in sorted(ns.items())]
    return ("CPU ns, the median of pytest-benchmark's rounds: a step of a random game driven from Python "
            "(`legal_actions`, `random.choice`, `apply`; explicit chance draws each chance node's outcome with "
            "`random.choices` over `chance_outcomes()`, a step of its own), and a call.\n\n"
            + table(["game", "a step, sampled chance", "a step, explicit chance", "`state_from_bytes`", "`clone`",
                     "`to_bytes`", "`chance_outcomes()` at the opening"], "lrrrrrr", rows)
            + (f"\n\nFailed, so not measured: {', '.join(f'`{f}`' for f in failed)}." if failed else "")
            + "\n\n" + m.line("per_move_api", rounds, "pytest-benchmark's rounds at least that"))


@register("pickle_depths", rounds=5)
def pickle_depths_table(rounds: int) -> str:
    """`python -m benchmarks.pickle_speed --depths --rounds N` (its depth rounds, each in its own
    process on a fresh seed): Yum Cha states 40, 1,000 and 16,000 decisions in and a finished
    default game; `pickle.loads`, `pickle.dumps` and `copy.copy` (of the loaded state) in CPU µs a
    call, medians over the rounds, and the per-decision cost of `loads` at 16,000 against 1,000
    decisions in every round (the goal: within 1.5x)."""
    import random

    from .pickle_speed import DEPTHS, FINISHED, _run_build

    import dimsum

    build = str(Path(dimsum.__file__).resolve().parent.parent)  # the dimsum this process imports
    per_round = []
    with Measuring() as m:
        for _ in range(rounds):
            per_round.append(_run_build(build, random.randrange(2**32), 2_000_000))
    rows = []
    for label in [str(d) for d in DEPTHS] + [FINISHED]:
        cells = [r[label] for r in per_round]

        def cpu(op: str) -> str:
            return f"{statistics.median(c[op][0] for c in cells):.2f}"

        decisions = statistics.median(c["decisions"] for c in cells)
        name = "a finished default game" if label == FINISHED else f"{int(label):,} decisions in"
        rows.append([name, f"{decisions:,.0f}", f"{statistics.median(c['bytes'] for c in cells):,.0f}",
                     cpu("loads"), cpu("dumps"), cpu("copy")])
    growth = [(r["16000"]["loads"][0] / r["16000"]["decisions"]) / (r["1000"]["loads"][0] / r["1000"]["decisions"])
              for r in per_round]
    return (table(["Yum Cha state", "decisions", "pickled bytes", "`pickle.loads`, µs", "`pickle.dumps`, µs",
                   "`copy.copy`, µs"], "lrrrrr", rows)
            + f"\n\n`loads` per decision at 16,000 decisions / at 1,000 (goal <= 1.5x): {spread(growth, '.2f', 'x')}."
            + "\n\n" + m.line("pickle_depths", rounds, "CPU time, medians over the rounds, a fresh seed each"))


@register("pickle_per_call", rounds=5)
def pickle_per_call_table(rounds: int) -> str:
    """`python -m benchmarks.pickle_speed --rounds N --calls 1000` (its rounds): every game's state
    40 steps in, in both chance modes, beside its OpenSpiel peer's (pig, gin_rummy, hanabi; with the
    peers extra), fresh states every round; `pickle.dumps` and `pickle.loads` in CPU µs a call,
    medians and ranges over the rounds."""
    from .pickle_speed import rounds as pickle_rounds

    with Measuring() as m:
        per_round = pickle_rounds(rounds, 40, 1000)
    rows = []
    for label in per_round[0]:
        peer = label.startswith("  OpenSpiel ")
        name = f"OpenSpiel's {label.split()[-1]}" if peer else f"{title(label.split()[0])} {label.split()[1]}"
        rows.append([name, spread([r[label][0] for r in per_round]), spread([r[label][1] for r in per_round]),
                     f"{statistics.median(r[label][2] for r in per_round):,.0f}"])
    return (table(["state, 40 steps in (chance mode)", "`pickle.dumps`, CPU µs", "`pickle.loads`, CPU µs",
                   "pickled bytes"], "lrrr", rows)
            + "\n\n" + m.line("pickle_per_call", rounds, "1,000 calls a round, medians and ranges over the rounds"))
