"""The figure generator of each game against its nearest OpenSpiel peer, both driven by the same
Python loop (registered into benchmarks.figure_generators.GENERATORS): what a bot author's loop
costs a decision on either side. Needs the peers extra (open-spiel)."""

from __future__ import annotations

import random
import time
from typing import Callable, List, Tuple

from .figure_generators import register, spread, table, title
from .figure_provenance import Measuring

# (our game, its options, OpenSpiel's game, its parameters, whether the loop reads the observation)
PAIRS = [("yum_cha", {"players": 2}, "gin_rummy", {}, True),
         ("nice_buns", {"players": 2}, "pig", {"players": 2}, False),
         ("dim_sum_jam", {"players": 4}, "hanabi", {"players": 4}, True)]
SECONDS = 0.5  # CPU seconds of games a side a round, at least


def _decisions_for(seconds: float, play_game: Callable[[], int]) -> Tuple[float, int]:
    """Whole games of `play_game` (each returning its players' decisions) until `seconds` of CPU:
    the CPU seconds taken and the decisions."""
    decisions, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        decisions += play_game()
    return time.process_time() - t0, decisions


@register("python_loop_vs_openspiel", rounds=5)
def python_loop_table(rounds: int) -> str:
    """`python -m benchmarks.figures --only python_loop_vs_openspiel --rounds N` (no script of its
    own: the loops are benchmarks/workloads.py's, which the pytest-benchmark suites run too). Each
    game against its OpenSpiel peer, both driven by a Python loop of legal actions, a uniformly
    random choice and apply (the acting player's observation read first where the row
    says so), alternating within each round on fresh seeds: CPU ns a player's decision, and the
    peer's over ours."""
    import pyspiel

    import dimsum

    from .workloads import openspiel_random_game, python_random_game

    rng = random.Random()  # fresh seeds every run
    rows: List[List[str]] = []
    with Measuring() as m:
        for ours_name, options, peer_name, params, observe in PAIRS:
            ours, peer = dimsum.make(ours_name, **options), pyspiel.load_game(peer_name, params)
            ours_ns, peer_ns = [], []
            for _ in range(rounds):
                # ours: every step is a decision (chance is sampled inside `apply`); the peer's
                # loop draws chance outcomes too, which are not decisions
                seconds, decisions = _decisions_for(
                    SECONDS, lambda: python_random_game(ours, rng.getrandbits(63), observe))
                ours_ns.append(1e9 * seconds / decisions)
                peer_rng = random.Random(rng.getrandbits(63))
                seconds, decisions = _decisions_for(
                    SECONDS, lambda: openspiel_random_game(peer, peer_rng, observe)[1])
                peer_ns.append(1e9 * seconds / decisions)
            players = options["players"]
            rows.append([f"{title(ours_name)} ({players}p) / {peer_name} ({params.get('players', 2)}p)",
                         "yes" if observe else "no", spread(ours_ns, ",.0f"), spread(peer_ns, ",.0f"),
                         spread([p / o for p, o in zip(peer_ns, ours_ns)], unit="x")])
    return (table(["dimsum / OpenSpiel", "observation read", "dimsum CPU ns a decision",
                   "OpenSpiel CPU ns a decision", "OpenSpiel / dimsum"], "lcrrr", rows)
            + "\n\n" + m.line("python_loop_vs_openspiel", rounds, "medians and ranges over the rounds"))
