"""The figure generators against OpenSpiel (registered into benchmarks.figure_generators.GENERATORS):
each game against its nearest peer, both driven by the same Python loop (what a bot author's loop
costs a decision on either side), and IS-MCTS searches against OpenSpiel's C++ bots. Need the
peers extra (open-spiel)."""

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


# (our search's label in benchmarks/bots_vs_openspiel.py, what it is; the peer's label, what it is)
SEARCH_PAIRS = [
    ("yum_cha", "Yum Cha, 4 players, 4 rounds, 1,000 simulations",
     "gin_rummy", "gin_rummy, `ISMCTSBot` + `RandomRolloutEvaluator`, 100 simulations"),
    ("yum_cha:rounds=1", "Yum Cha, 4 players, `rounds=1`, 2,000 simulations",
     "gin_rummy", "the same"),
    ("nice_buns", "Nice Buns, 4 players, 5,000 simulations",
     "pig", "pig, `MCTSBot` + `RandomRolloutEvaluator`, 5,000 simulations"),
]


@register("ismcts_vs_openspiel", rounds=5)
def ismcts_vs_openspiel_table(rounds: int) -> str:
    """`python -m benchmarks.bots_vs_openspiel N` (its side_by_side): one search of each side a
    round, alternately, a fresh deal every round, one thread, random rollouts to the end of the
    game and no bias on our side: simulations per CPU second (wall beside it, medians), and ours
    over the peer's in each round."""
    from .bots_vs_openspiel import side_by_side

    with Measuring() as m:
        figures = side_by_side(rounds)
    rows = []
    for ours, ours_what, peer, peer_what in SEARCH_PAIRS:
        f = figures[f"{ours} / {peer}"]
        rows.append([ours_what, peer_what, f"{spread(f['ours_rounds'], ',.0f')} (wall {f['ours_wall']:,.0f})",
                     f"{spread(f['peer_rounds'], ',.0f')} (wall {f['peer_wall']:,.0f})",
                     spread(f["ratios"], ".1f", "x")])
    return (table(["ours", "OpenSpiel (C++ bots)", "ours, simulations per CPU second", "theirs",
                   "ours / theirs, per CPU second"], "llrrr", rows)
            + "\n\n" + m.line("ismcts_vs_openspiel", rounds, "medians and ranges over the rounds"))
