"""The figure generators of BatchEnv against its fixed floor (registered into
benchmarks.figure_generators.GENERATORS): per game at 1,024 envs, and Dim Sum Jam's cost by env
count. Both wrap benchmarks/batch_floor.py, which builds the floor (benchmarks/batch_floor.cpp)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import List

from .figure_generators import register, spread, table, title
from .figure_provenance import Measuring

ENVS = 1024
CURVE_GAME = "dim_sum_jam"
CURVE_SIZES = [256, 4096, 65536]


def _median_range(values: List[float], digits: int) -> str:
    return spread(values, f".{digits}f")


@register("batch_floor", rounds=5)
def batch_floor_table(rounds: int) -> str:
    """`python -m benchmarks.batch_floor --rounds N --callgrind` (its side_by_side and
    floor_instructions, in this process): per game at 1,024 envs on one thread, BatchEnv's
    `step(sample_actions(k))` from Python against the fixed floor (a toy env in a plain C++ loop
    writing the same row width and mask whole), CPU ns per env-step alternating within each round
    on fresh seeds, and instructions per env-step of both (callgrind, exact)."""
    from . import batch_floor, callgrind_batch

    rows = []
    with Measuring() as m, tempfile.TemporaryDirectory() as tmp:
        executable = batch_floor.build(Path(tmp))
        if executable is None:
            raise RuntimeError("no C++ compiler: the fixed floor cannot be built")
        games = list(batch_floor.GAMES)
        measured = batch_floor.side_by_side(executable, games, ENVS, rounds)
        for game in games:
            obs, actions, players = batch_floor.layout(game)
            ours, _, _ = callgrind_batch.per_env_step(game, ENVS, 5)
            floor = batch_floor.floor_instructions(executable, (obs, actions, players), ENVS, 5)
            row = measured[game]
            rows.append([f"{title(game)} ({obs:,} floats, {actions} actions, {players}p)",
                         _median_range(row["batch_cpu"], 1), _median_range(row["floor_cpu"], 1),
                         spread(row["x_cpu"], ".2f", "x"), f"{ours:,.0f} / {floor:,.0f}", f"{ours / floor:.2f}x"])
    return (table(["game (row, mask, players)", "BatchEnv CPU ns an env-step", "floor CPU ns", "x floor, CPU",
                   "instructions an env-step, BatchEnv / floor", "x floor, instructions (goal <= 8x)"],
                  "lrrrrr", rows)
            + "\n\n" + m.line("batch_floor", rounds, f"{ENVS:,} envs, one thread, medians and ranges over the rounds"))


@register("batch_curve", rounds=5)
def batch_curve_table(rounds: int) -> str:
    """`python -m benchmarks.batch_floor --curve dim_sum_jam --rounds N` (its curve, in this
    process): Dim Sum Jam's CPU ns per env-step at 256, 4,096 and 65,536 envs on one thread, every
    size stepping as many env-steps (the same game phases; warm-up steps outside the clock), against
    the first size in the same round; the fixed floor of its layout at the same sizes beside it."""
    from . import batch_floor

    rows = []
    with Measuring() as m, tempfile.TemporaryDirectory() as tmp:
        executable = batch_floor.build(Path(tmp))
        if executable is None:
            raise RuntimeError("no C++ compiler: the fixed floor cannot be built")
        measured = batch_floor.curve(CURVE_GAME, CURVE_SIZES, rounds, executable=executable)
        for envs, row in measured.items():
            rows.append([f"{envs:,}", _median_range(row["cpu"], 1), spread(row["x_first"], ".2f", "x"),
                         _median_range(row["floor_cpu"], 1), spread(row["floor_x_first"], ".2f", "x"),
                         spread(row["x_floor"], ".2f", "x")])
    return (table(["envs", f"{title(CURVE_GAME)} CPU ns an env-step", "/ 256 envs' (goal: flat)", "floor CPU ns",
                   "floor / its 256 envs'", "x floor"], "rrrrrr", rows)
            + "\n\n" + m.line("batch_curve", rounds, "one thread, medians and ranges over the rounds"))
