"""The figure generator of each game against its nearest OpenSpiel peer, both driven by the same
Python loop (registered into benchmarks.figure_generators.GENERATORS): what a bot author's loop
costs a decision on either side. Needs the peers extra (open-spiel)."""

from __future__ import annotations

import random
import time
from typing import List, Tuple

from .figure_generators import register, spread, table, title
from .figure_provenance import Measuring

# (our game, its options, OpenSpiel's game, its parameters, whether the loop reads the observation)
PAIRS = [("yum_cha", {"players": 2}, "gin_rummy", {}, True),
         ("nice_buns", {"players": 2}, "pig", {"players": 2}, False),
         ("dim_sum_jam", {"players": 4}, "hanabi", {"players": 4}, True)]
SECONDS = 0.5  # CPU seconds of games a side a round, at least


def _ours(game, rng: random.Random, observe: bool) -> Tuple[float, int]:
    """Whole random games (workloads.python_random_game, fresh seeds) until SECONDS of CPU: the
    CPU seconds and the decisions (every step is one: chance is sampled inside `apply`)."""
    from .workloads import python_random_game

    decisions, t0 = 0, time.process_time()
    while time.process_time() - t0 < SECONDS:
        decisions += python_random_game(game, rng.getrandbits(63), observe)
    return time.process_time() - t0, decisions


def _peer(game, rng: random.Random, observe: bool) -> Tuple[float, int]:
    """OpenSpiel's loop (workloads.openspiel_random_step: chance outcomes drawn from the loop too)
    until SECONDS of CPU: the CPU seconds and the players' decisions."""
    from .workloads import openspiel_random_step

    decisions, t0 = 0, time.process_time()
    while time.process_time() - t0 < SECONDS:
        state = game.new_initial_state()
        while not state.is_terminal():
            decisions += openspiel_random_step(state, rng, observe)
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

    rng = random.Random()  # fresh seeds every run
    rows: List[List[str]] = []
    with Measuring() as m:
        for ours_name, options, peer_name, params, observe in PAIRS:
            ours, peer = dimsum.make(ours_name, **options), pyspiel.load_game(peer_name, params)
            ours_ns, peer_ns = [], []
            for _ in range(rounds):
                seconds, decisions = _ours(ours, rng, observe)
                ours_ns.append(1e9 * seconds / decisions)
                seconds, decisions = _peer(peer, random.Random(rng.getrandbits(63)), observe)
                peer_ns.append(1e9 * seconds / decisions)
            players = options["players"]
            rows.append([f"{title(ours_name)} ({players}p) / {peer_name} ({params.get('players', 2)}p)",
                         "yes" if observe else "no", spread(ours_ns, ",.0f"), spread(peer_ns, ",.0f"),
                         spread([p / o for p, o in zip(peer_ns, ours_ns)], unit="x")])
    return (table(["dimsum / OpenSpiel", "observation read", "dimsum CPU ns a decision",
                   "OpenSpiel CPU ns a decision", "OpenSpiel / dimsum"], "lcrrr", rows)
            + "\n\n" + m.line("python_loop_vs_openspiel", rounds, "medians and ranges over the rounds"))
