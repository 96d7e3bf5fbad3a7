"""Every headline performance goal measured in one run: its figure, the range over rounds and
the load it was measured under, against its target.

    PYTHONPATH=python python -m benchmarks.goals [--rounds 5] [--only NAME ...] [--json out.json]

Each goal is measured by the benchmark module that owns it (named in the table), on fresh seeds
every round, both sides alternating within a round; a goal's figure is the median of its
per-round ratios and the range is their minimum and maximum. Ratios are of CPU time
(``time.thread_time`` or ``time.process_time``: on a shared machine wall time also charges the
other processes' time slices), or of callgrind instruction counts where the goal is stated in
instructions (those are exact: one "round"). Beside each goal: the other processes' CPU while it
ran, in cores (from /proc/stat, this process's own CPU taken out), and the 1-minute load average
at its start, so that a figure measured under load says so.

docs/PERFORMANCE.md ("The figures against each peer and the floor") publishes this script's output.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Callable, Dict, List, Optional

from .thread_scaling import busy_ticks


@dataclass
class Figure:
    """One measured figure of a goal: per-round values (a ratio or a time), higher or lower is better."""

    label: str
    values: List[float]
    target: float
    higher_is_better: bool = True
    unit: str = "x"
    exact: bool = False  # an instruction count: the same on every run, no range to give

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    @property
    def met(self) -> bool:
        return self.median >= self.target if self.higher_is_better else self.median <= self.target


@dataclass
class GoalRun:
    name: str
    source: str  # the benchmark module that measures it, and how
    figures: List[Figure] = field(default_factory=list)
    others_cores: float = 0.0
    load_average: float = 0.0
    seconds: float = 0.0


def _others_cores(run: Callable[[], List[Figure]]) -> tuple:
    """run()'s figures, and the other processes' CPU during it, in cores."""
    hz = os.sysconf("SC_CLK_TCK")
    busy0, _ = busy_ticks()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    figures = run()
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    busy1, _ = busy_ticks()
    return figures, max(0.0, (busy1 - busy0) / hz - cpu) / max(wall, 1e-9), wall


# -- the goals ---------------------------------------------------------------------------------------

def pig_per_apply(rounds: int, ours_game: str, target: float) -> List[Figure]:
    """OpenSpiel's pig loop (evaluate_bots, per-game set-up taken out) per apply over ours per
    apply, each round's ratio (benchmarks/pig_side_by_side.py)."""
    import pyspiel

    from . import pig_side_by_side as side

    players = (2, 4)
    counts = {p: side.pig_counts_per_game(side.pig_game(pyspiel, p), 2000) for p in players}
    measured = side.timed_rounds(games=200, rounds=rounds, players=players, ours_game=ours_game)
    figures = []
    for p in players:
        m = measured[p]
        ratios = [((pig - setup) / counts[p][1]) / (ours / decisions)
                  for pig, setup, ours, decisions in zip(m["pig"], m["pig_setup"], m["ours"], m["decisions"])]
        figures.append(Figure(f"{p} players, pig / {ours_game} per apply (CPU)", ratios, target))
    return figures


def pickle_figures(rounds: int) -> List[Figure]:
    """pickle.dumps: OpenSpiel's peer time over ours per round (>= 1: at least its speed), and
    Dim Sum Jam's pickle.loads in microseconds (benchmarks/pickle_speed.py)."""
    from . import pickle_speed

    per_round = pickle_speed.rounds(rounds, steps=40, calls=2000)
    figures = []
    for name, peer in pickle_speed.PEERS.items():
        ratios = [r[f"  OpenSpiel {peer}"][0] / max(r[f"{name} ({mode})"][0] for mode in pickle_speed.MODES)
                  for r in per_round]
        figures.append(Figure(f"{name}: OpenSpiel {peer} / ours, pickle.dumps (CPU, slower mode)", ratios, 1.0))
    loads = [max(r[f"dim_sum_jam ({mode})"][1] for mode in pickle_speed.MODES) for r in per_round]
    figures.append(Figure("dim_sum_jam pickle.loads, us (CPU, slower mode)", loads, 5.0, higher_is_better=False,
                          unit=" us"))
    return figures


def mcts_figures(rounds: int) -> List[Figure]:
    """OpenSpiel's pig MCTSBot per simulated action over dimsum's IS-MCTS per simulated action, on
    Nice Buns and on Pig, 2 and 4 players, each round's searches side by side on fresh seeds
    (benchmarks/mcts_per_action.measure_rounds: the rounds of its table). With a C++
    compiler, also over each game's rollouts alone in the same rounds: the most any search over
    the game could reach (a search costs at least its rollouts per simulated action)."""
    import tempfile
    from pathlib import Path

    from . import mcts_per_action as mcts

    figures = []
    with tempfile.TemporaryDirectory() as tmp:
        floor = mcts.build_rollout_floor(Path(tmp))
        for players in (2, 4):
            per_round = mcts.measure_rounds(rounds, players, floor)
            # CPU per simulated action (a side's third figure), per decision (a floor's first)
            peer = [row["openspiel_pig"][2] for row in per_round]
            for side in ("nice_buns", "pig"):
                ratios = [p / row[side][2] for p, row in zip(peer, per_round)]
                figures.append(Figure(f"{players} players, OpenSpiel pig MCTSBot / {mcts.LABELS[side]}, "
                                      "per simulated action (CPU)", ratios, 3.0))
            for game in mcts.FLOOR_GAMES if floor else ():
                ratios = [p / row[f"floor:{game}"][0] for p, row in zip(peer, per_round)]
                figures.append(Figure(f"{players} players, OpenSpiel pig MCTSBot / {mcts.FLOOR_LABELS[game]}: "
                                      "the most a search could reach (CPU)", ratios, 3.0))
    return figures


def hanabi_figures(rounds: int) -> List[Figure]:
    """OpenSpiel's hanabi per decision over Dim Sum Jam per decision, each in its native C++ loop
    (benchmarks/native_side_by_side.py --peer hanabi: its per-round ratios). Set-up is charged
    alike, as in the Pig rows: the peer's per-game Python calls (making its bots and a state,
    timed apart in the same round) are taken out of its time; ours keeps its deal, made in C++."""
    import pyspiel

    from . import native_side_by_side as side

    spec = side.PEERS["hanabi"]
    counts = {p: side.peer_counts_per_game(side.peer_game(pyspiel, "hanabi", p), 2000) for p in spec.players}
    measured = side.timed_rounds("hanabi", "dim_sum_jam", spec.players, spec.peer_games, rounds, spec.ours_factor)
    figures = []
    for p in spec.players:
        m = measured[p]
        ratios = [((peer - setup) / counts[p][0]) / (ours / decisions)
                  for peer, setup, ours, decisions in zip(m["peer"], m["peer_setup"], m["ours"], m["decisions"])]
        figures.append(Figure(f"{p} players, hanabi / dim_sum_jam per decision (CPU, set-up out)", ratios, 30.0))
    return figures


def batch_floor_figures(rounds: int) -> List[Figure]:
    """BatchEnv's env-step at 1,024 envs over the fixed floor (benchmarks/batch_floor.cpp: a toy
    env in a plain C++ loop writing the same outputs whole, nothing of dimsum in it), every game of
    benchmarks/batch_floor.py: in instructions (callgrind_batch.py, exact, one run whatever
    `rounds`) and in CPU time (batch_floor.side_by_side, `rounds` rounds, fresh seeds). BatchEnv's
    side is step(sample_actions(k)) from Python: the binding is charged to us, the floor has none."""
    import tempfile
    from pathlib import Path

    from . import batch_floor, callgrind_batch

    with tempfile.TemporaryDirectory() as tmp:
        executable = batch_floor.build(Path(tmp))
        if executable is None:
            raise RuntimeError("no C++ compiler: the fixed floor cannot be built (benchmarks/cxx.py)")
        games = list(batch_floor.GAMES)
        figures = []
        for game in games:
            per_step, _, _ = callgrind_batch.per_env_step(game, 1024, 5)
            floor = batch_floor.floor_instructions(executable, batch_floor.layout(game), 1024, 5)
            figures.append(Figure(f"{game}: instructions per env-step / fixed floor ({per_step:,.0f} / {floor:,.0f})",
                                  [per_step / floor], 8.0, higher_is_better=False, exact=True))
        cpu = batch_floor.side_by_side(executable, games, 1024, rounds)
        for game in games:
            row = cpu[game]
            figures.append(Figure(f"{game}: CPU per env-step / fixed floor's ({statistics.median(row['batch_cpu']):,.0f} "
                                  f"/ {statistics.median(row['floor_cpu']):,.0f} ns)", row["x_cpu"], 8.0,
                                  higher_is_better=False))
    return figures


def thread_figures(rounds: int) -> List[Figure]:
    """Games per CPU-second at 2 threads over 1 (benchmarks/thread_scaling.py): the parallel
    efficiency, which holds whatever the other cores do. Target: threading costs at most 10%."""
    from . import thread_scaling

    eff, _, _, _ = thread_scaling.measure("nice_buns", threads=2, rounds=rounds, games=50_000)
    return [Figure("nice_buns, games per CPU-second, 2 threads / 1", eff, 0.9)]


GOALS: Dict[str, tuple] = {
    "pig_vs_openspiel": ("1. Pig >= 5x OpenSpiel's pig per apply",
                         "pig_side_by_side.timed_rounds(ours_game='pig')",
                         lambda r: pig_per_apply(r, "pig", 5.0)),
    "nice_buns_vs_pig": ("2. Nice Buns >= 2x OpenSpiel's pig per apply",
                         "pig_side_by_side.timed_rounds(ours_game='nice_buns')",
                         lambda r: pig_per_apply(r, "nice_buns", 2.0)),
    "mcts_per_action": ("3. IS-MCTS >= 3x OpenSpiel's pig MCTSBot per simulated action",
                        "mcts_per_action.search", mcts_figures),
    "dim_sum_jam_vs_hanabi": ("4. Dim Sum Jam >= 30x OpenSpiel's hanabi per decision",
                              "native_side_by_side.timed_rounds(peer='hanabi')", hanabi_figures),
    "batch_floor": ("5. BatchEnv at 1,024 envs <= 8x the fixed floor (a toy env's loop writing the same outputs)",
                    "callgrind_batch.per_env_step, batch_floor.side_by_side", batch_floor_figures),
    "pickle": ("6. pickle.dumps at least OpenSpiel's speed; Dim Sum Jam pickle.loads < 5 us",
               "pickle_speed.rounds", pickle_figures),
    "threads": ("7. thread scaling per CPU-second on a shared machine", "thread_scaling.measure", thread_figures),
}


def run(names: List[str], rounds: int) -> List[GoalRun]:
    runs = []
    for name in names:
        title, source, measure = GOALS[name]
        load = os.getloadavg()[0]
        figures, others, seconds = _others_cores(lambda: measure(rounds))
        runs.append(GoalRun(title, source, figures, others, load, seconds))
        print(f"measured {name} in {seconds:.0f} s", file=sys.stderr)
    return runs


def table(runs: List[GoalRun], rounds: int) -> str:
    lines = [f"{rounds} rounds a goal; figure = median of the rounds; others' CPU = the other processes' "
             "CPU while the goal ran, in cores (2 on this machine)", "",
             "| goal | figure | median | range over rounds | target | met | others' CPU | load avg |",
             "| --- | --- | ---: | --- | ---: | :---: | ---: | ---: |"]
    for g in runs:
        for f in g.figures:
            rng = ("exact" if f.exact else f"{min(f.values):.2f}-{max(f.values):.2f}" if len(f.values) > 1
                   else "one round")
            op = ">=" if f.higher_is_better else "<="
            lines.append(f"| {g.name} | {f.label} | {f.median:.2f}{f.unit} | {rng} | {op} {f.target:g}{f.unit} "
                         f"| {'yes' if f.met else 'no'} | {g.others_cores:.2f} | {g.load_average:.1f} |")
    return "\n".join(lines) + "\n"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", nargs="*", choices=sorted(GOALS), help="these goals only (default: all)")
    parser.add_argument("--json", default=None, help="also write every round's values here")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    runs = run(args.only or list(GOALS), args.rounds)
    print(table(runs, args.rounds))
    if args.json:
        with open(args.json, "w") as f:
            json.dump([asdict(g) for g in runs], f, indent=1)
    return 0 if all(f.met for g in runs for f in g.figures) else 1


if __name__ == "__main__":
    sys.exit(main())
