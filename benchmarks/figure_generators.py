"""The registry of figure generators: NAME -> the function that measures (or reads) a figure and
returns the markdown of its block (``<!-- figures:NAME -->`` in docs/PERFORMANCE.md or README.md).

A generator wraps the benchmark module that owns the figure (its docstring names the command),
calling that module's own functions, so that the block and the module's printed table are the
same measurement. A generator that only reads committed files is ``deterministic``: ``--check``
regenerates it and compares. Adding one: a function of ``rounds`` under ``@register``, its
markdown ending in its provenance line (``Measuring.line``), and a marker pair in a document.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

from .figure_provenance import ROOT, Measuring


@dataclass(frozen=True)
class Generator:
    name: str
    make: Callable[[Optional[int]], str]  # rounds (None: the generator's default) -> markdown
    rounds: Optional[int]                 # the default rounds; None: rounds do not apply
    deterministic: bool                   # read from committed files only: --check compares it

    @property
    def doc(self) -> str:
        return " ".join((self.make.__doc__ or "").split())


GENERATORS: Dict[str, Generator] = {}


def register(name: str, rounds: Optional[int] = None, deterministic: bool = False):
    def add(make: Callable[[int], str]) -> Callable[[int], str]:
        if name in GENERATORS:
            raise ValueError(f"figure generator {name!r} registered twice")
        if not make.__doc__:
            raise ValueError(f"figure generator {name!r} must say in a docstring which command it wraps")
        GENERATORS[name] = Generator(name, make, rounds, deterministic)
        return make
    return add


def title(game: str) -> str:
    return game.replace("_", " ").title()


def possessive(game: str) -> str:
    name = title(game)
    return name + ("'" if name.endswith("s") else "'s")


def spread(values: List[float], fmt: str = ".2f", unit: str = "") -> str:
    """"median (min-max)" of per-round values; one round has no range and says so."""
    med = format(statistics.median(values), fmt) + unit
    if len(values) == 1:
        return f"{med} (one round)"
    return f"{med} ({format(min(values), fmt)}-{format(max(values), fmt)})"


def table(header: List[str], align: str, rows: List[List[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join({"l": "---", "r": "---:", "c": ":---:"}[a]
                                                                  for a in align) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


# -- the generators --------------------------------------------------------------------------------------

@register("goals", rounds=5)
def goals_table(rounds: int) -> str:
    """`python -m benchmarks.goals --rounds N`: every headline goal (benchmarks.goals.run, in this
    process), its median and range over the rounds against its target, and per goal the other
    processes' CPU while it ran and the load average at its start."""
    from . import goals

    with Measuring() as m:
        runs = goals.run(list(goals.GOALS), rounds)
    rows = []
    for g in runs:
        for f in g.figures:
            rng = ("exact" if f.exact else f"{min(f.values):.2f}-{max(f.values):.2f}" if len(f.values) > 1
                   else "one round")
            rows.append([g.name, f.label, f"{f.median:.2f}{f.unit}", rng,
                         f"{'>=' if f.higher_is_better else '<='} {f.target:g}{f.unit}",
                         "yes" if f.met else "**no**", f"{g.others_cores:.2f}", f"{g.load_average:.1f}"])
    return ("Ratios are peer / dimsum (above 1, dimsum is faster) unless the target says otherwise; \"others' "
            "CPU\" is the other processes' CPU while the goal ran, in cores; \"load\" the load average at its start.\n\n"
            + table(["goal", "figure", "median", "range over rounds", "target", "met", "others' CPU", "load"],
                    "llrlrcrr", rows)
            + "\n\n" + m.line("goals", rounds))


BASELINE = ROOT / "benchmarks" / "perf_baseline"


@register("perf_baseline", deterministic=True)
def perf_baseline_table(rounds: Optional[int]) -> str:
    """The committed benchmarks/perf_baseline/<game>.json as `python benchmarks/perf_guard.py
    --update` records them: instructions per step of the guard's fixed seeded workloads. Reads
    the files only, so --check verifies the block."""
    rows, machines = [], set()
    for path in sorted(BASELINE.glob("*.json")):
        entry = json.loads(path.read_text())
        counts = entry["instructions_per_step"]
        machines.add((entry["machine"]["machine"], entry["machine"]["python"]))
        # a game may have only the --quick entries (perf_guard --quick --update --game NAME)
        rows.append([title(path.stem)] + [f"{counts[mode][kind]:,.1f}" if kind in counts.get(mode, {}) else "not recorded"
                                          for kind in ("cpp_playout", "python_step") for mode in ("quick", "full")])
    where = "; ".join(f"{machine}, Python {python}" for machine, python in sorted(machines))
    return (table(["game", "C++ playout, `--quick`", "C++ playout, full", "per-move API from Python, `--quick`",
                   "per-move API, full"], "lrrrr", rows)
            + f"\n\n_From `benchmarks/perf_baseline/<game>.json` ({where}), generated by "
              "`python -m benchmarks.figures --only perf_baseline`._")


@register("mcts_per_action", rounds=5)
def mcts_table(rounds: int) -> str:
    """`python -m benchmarks.mcts_per_action --rounds N` (its measure_rounds, in this process):
    dimsum's IS-MCTS on Nice Buns and Pig, each game's rollouts alone, OpenSpiel's pig MCTSBot,
    5,000 simulations a search, 2 and 4 players; CPU per simulated action, median and range."""
    from . import mcts_per_action as mcts

    with Measuring() as m, tempfile.TemporaryDirectory() as tmp:
        floor = mcts.build_rollout_floor(Path(tmp))
        measured = {players: mcts.measure_rounds(rounds, players, floor) for players in (2, 4)}
    rows = []
    for players, per_round in measured.items():
        peer = [row["openspiel_pig"][2] for row in per_round]
        for game in ("nice_buns", "pig"):
            rows.append([str(players), f"dimsum {title(game)}", f"{statistics.median(r[game][4] for r in per_round):.1f}",
                         spread([r[game][2] * 1e9 for r in per_round], ".1f"),
                         spread([p / r[game][2] for p, r in zip(peer, per_round)], ".2f", "x")])
            if floor is not None:
                key = f"floor:{game}"
                rows.append([str(players), f"{possessive(game)} rollouts alone",
                             f"{statistics.median(r[key][2] for r in per_round):.1f} a game",
                             spread([r[key][0] * 1e9 for r in per_round], ".1f"),
                             spread([p / r[key][0] for p, r in zip(peer, per_round)], ".2f", "x")])
        rows.append([str(players), "OpenSpiel pig `MCTSBot`",
                     f"{statistics.median(r['openspiel_pig'][4] for r in per_round):.1f}",
                     spread([p * 1e9 for p in peer], ".1f"), ""])
    return (table(["players", "search", "actions a simulation", "ns per action, CPU (range)",
                   "OpenSpiel / this per action, CPU (range)"], "rlrrr", rows)
            + "\n\n" + m.line("mcts_per_action", rounds, "medians and ranges over the rounds"))


@register("threads", rounds=5)
def threads_table(rounds: int) -> str:
    """`python -m benchmarks.thread_scaling --game nice_buns --threads 2 --rounds N`: the same
    100,000 random Nice Buns games on 1 and 2 threads, games per CPU-second of the process and
    the wall-time speed-up, with the other processes' CPU during each run."""
    from . import thread_scaling

    with Measuring() as m:
        eff, speed, others1, others2 = thread_scaling.measure("nice_buns", threads=2, rounds=rounds, games=100_000)
    rows = [["games per CPU-second, 2 threads / 1 (the parallel efficiency)", spread(eff, ".3f")],
            ["wall-time speed-up, 2 threads / 1", spread(speed, ".2f", "x")],
            ["the other processes' CPU during the 1-thread runs, cores", spread(others1, ".2f")],
            ["the other processes' CPU during the 2-thread runs, cores", spread(others2, ".2f")]]
    return table(["Nice Buns, 100,000 random games a run", "median (range over rounds)"], "lr", rows) \
        + "\n\n" + m.line("threads", rounds)


@register("memory_per_env")
def memory_table(rounds: Optional[int]) -> str:
    """`python benchmarks/memory_per_env.py GAME --json` for every game, each in its own process
    (memory one game frees would hide the next one's): resident memory growth per env over 32,768
    envs made and stepped 30 times."""
    rows = []
    with Measuring() as m:
        from .workloads import CONFIGS

        for game in sorted(CONFIGS):
            done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "memory_per_env.py"), game, "--json"],
                                  capture_output=True, text=True, check=True)
            r = json.loads(done.stdout)
            rows.append([title(game), str(r["players"]), f"{r['observation_size']:,}", f"{r['num_actions']:,}",
                         f"{r['bytes_per_env']:,.0f}"])
    return table(["game", "players", "observation floats", "actions", "bytes per env"], "lrrrr", rows) \
        + "\n\n" + m.line("memory_per_env", None, "one run a game")


def native_callgrind_table(name: str, peer: str, ours_game: str, players: Tuple[int, ...], peer_games: int,
                           count_games: int) -> str:
    """Instructions per decision, apply and game of our C++ playouts (300 games) and of OpenSpiel's
    `peer` in evaluate_bots (`peer_games` games), each less a run of none; the peer's decisions and
    applies per game counted over `count_games` Python games. Exact: no rounds."""
    import pyspiel

    from . import native_side_by_side as side

    with Measuring() as m:
        counts = {p: side.peer_counts_per_game(side.peer_game(pyspiel, peer, p), count_games) for p in players}
        measured = side.callgrind_table(peer, ours_game, players, 300, peer_games, counts)
    rows = []
    for r in measured:
        ours_d, ours_g = r["ours_per_decision"], r["ours_per_game"]
        rows.append([str(r["players"]), f"{ours_d:.0f}", f"{ours_g:,.0f}",
                     f"{r['peer_per_decision']:,.0f} ({r['peer_loop_per_decision']:,.0f})",
                     f"{r['peer_loop_per_apply']:,.0f}",
                     f"{r['peer_per_decision'] / ours_d:.2f}x ({r['peer_loop_per_decision'] / ours_d:.2f}x)",
                     f"{r['peer_loop_per_apply'] / ours_d:.2f}x",
                     f"{r['peer_per_game'] / ours_g:.2f}x ({r['peer_loop_per_game'] / ours_g:.2f}x)"])
    ours = title(ours_game)
    return table(["players", f"{ours} a decision (= apply)", "a game", f"{peer} a decision (loop only)",
                  f"{peer} loop, an apply", f"{peer} / {ours} per decision (loop only)", "per apply, loop only",
                  "per game (loop only)"], "rrrrrrrr", rows) \
        + "\n\n" + m.line(name, None, "instruction counts (callgrind), which the load does not change")


@register("native_pig_callgrind")
def native_pig_table(rounds: Optional[int]) -> str:
    """`python -m benchmarks.native_side_by_side --peer pig --game nice_buns --callgrind` (its
    callgrind_table, in this process): Nice Buns' C++ playouts against OpenSpiel's pig in
    evaluate_bots (1,000 games), 2 and 4 players; pig's decisions per game over 4,000 Python games."""
    return native_callgrind_table("native_pig_callgrind", "pig", "nice_buns", (2, 4), 1000, 4000)


@register("native_hanabi_callgrind")
def native_hanabi_table(rounds: Optional[int]) -> str:
    """`python -m benchmarks.native_side_by_side --peer hanabi --callgrind --peer-count-games 2000`
    (its callgrind_table, in this process): Dim Sum Jam's C++ playouts against OpenSpiel's hanabi
    in evaluate_bots (300 games), 3 and 4 players; hanabi's decisions per game over 2,000 Python
    games."""
    return native_callgrind_table("native_hanabi_callgrind", "hanabi", "dim_sum_jam", (3, 4), 300, 2000)


from . import figure_generators_api  # noqa: E402,F401  (registers the per-call figures)
from . import figure_generators_batch  # noqa: E402,F401  (registers BatchEnv's)
from . import figure_generators_search  # noqa: E402,F401  (registers IS-MCTS's scaling)
from . import figure_generators_callgrind  # noqa: E402,F401  (registers the instruction counts)
from . import figure_generators_training  # noqa: E402,F401  (registers training with SB3)
from . import figure_generators_peers  # noqa: E402,F401  (registers the Python loops against OpenSpiel)
