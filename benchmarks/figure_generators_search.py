"""The figure generator of IS-MCTS's cost as its tree grows (registered into
benchmarks.figure_generators.GENERATORS), wrapping benchmarks/ismcts_scaling.py."""

from __future__ import annotations

import statistics
from typing import Dict, List

from .figure_generators import register, spread, table
from .figure_provenance import Measuring

SMALL, LARGE = 1_000, 1_000_000
SEARCHES = [("Nice Buns 2p, random rollouts, bias 0", "nice_buns 2p", True),
            ("Yum Cha 4p `rounds=1`, random rollouts, bias 0", "yum_cha 4p", True),
            ("Nice Buns 2p, the bot's defaults", "nice_buns 2p", False),
            ("Yum Cha 4p `rounds=1`, the bot's defaults", "yum_cha 4p", False)]


@register("ismcts_scaling", rounds=3)
def ismcts_scaling_table(rounds: int) -> str:
    """`python -m benchmarks.ismcts_scaling --sizes 1000 1000000 --rounds N` with and without
    `--plain` (its run_child: each search in its own process, one thread): CPU µs a simulation at
    10^3 and 10^6 simulations from the same dealt opening (a fresh one each round), their ratio in
    each round (the goal: 10^6 within 1.2x of 10^3), memory a simulation at 10^6 (peak resident
    growth over the simulations) and tree actions a descent. Minutes: a Yum Cha search of the
    bot's defaults at 10^6 takes about 200 s a round."""
    from .ismcts_scaling import run_child

    rows = []
    with Measuring() as m:
        for label, key, plain in SEARCHES:
            runs: Dict[int, List[dict]] = {SMALL: [], LARGE: []}
            ratios = []
            for r in range(rounds):
                seed = 1000 + 7919 * r  # a fresh position each round, the same at both sizes
                small, large = run_child(key, SMALL, seed, plain), run_child(key, LARGE, seed, plain)
                runs[SMALL].append(small)
                runs[LARGE].append(large)
                ratios.append((large["cpu"] / large["simulations"]) / (small["cpu"] / small["simulations"]))

            def per_sim(size: int, field: str, scale: float = 1.0) -> float:
                return statistics.median(x[field] * scale / x["simulations"] for x in runs[size])

            memory = statistics.median(x["rss_kib"] * 1024 / x["largest"] for x in runs[LARGE])
            rows.append([label, f"{per_sim(SMALL, 'cpu', 1e6):.2f} / {per_sim(LARGE, 'cpu', 1e6):.2f}",
                         spread(ratios, ".2f", "x"), f"{memory:.0f} B",
                         f"{per_sim(SMALL, 'tree_steps'):.1f} / {per_sim(LARGE, 'tree_steps'):.1f}"])
    return (table(["search", "CPU µs a simulation at 10^3 / 10^6", "10^6 / 10^3 (goal <= 1.2x)",
                   "memory a simulation at 10^6", "tree actions a descent at 10^3 / 10^6"], "lrrrr", rows)
            + "\n\n" + m.line("ismcts_scaling", rounds, "one thread, medians; the ratio's range over the rounds"))
