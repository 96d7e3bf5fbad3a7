"""IS-MCTS simulations per second, ours beside OpenSpiel's C++ bots in the same run.

- Yum Cha (ours, ``ismcts:rollout=random,bias=0``, the plain algorithm) against OpenSpiel's
  ``ISMCTSBot`` with a ``RandomRolloutEvaluator`` on gin_rummy (a C++ game, draw and discard like
  Yum Cha). A rollout plays to the end of the game: four rounds of Yum Cha, which random players
  only end at the turn cap (300 turns a round: about 2,400 actions), against one hand of gin rummy
  (about 150). Yum Cha with ``rounds=1`` (about 600 actions) is the closer match to gin rummy's
  single hand, so it is measured too;
- Nice Buns (ours, the same bot) against OpenSpiel's ``MCTSBot`` on pig (dice).

Both sides roll out uniformly at random to the end of the game, one thread, and every round
deals fresh positions from new seeds (replaying one game would let the branch predictor learn
it). Each round times one search of each side, alternately, so both see the same machine, by the
process's CPU time (the figure: the other processes' time slices are not charged) and the wall
clock beside it. The ratio is ours / the peer's simulations per CPU second, its median and range
over the rounds' ratios. Run ``python -m benchmarks.bots_vs_openspiel [rounds]`` to print the
figures; ``python -m benchmarks.figures --only ismcts_vs_openspiel`` writes them into
docs/PERFORMANCE.md; benchmarks/test_bench_bots.py runs the same.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Dict, List, Tuple

import dimsum
from dimsum import bots

# per search: enough for a stable time, few enough that a round takes a second or two
SIMULATIONS = {"yum_cha": 1000, "yum_cha:rounds=1": 2000, "gin_rummy": 100, "nice_buns": 5000, "pig": 5000}
OPTIONS = {"yum_cha:rounds=1": {"rounds": 1}}


def _openspiel_state(game, rng: random.Random):
    """A fresh position: the deal (chance nodes) resolved from `rng`."""
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    return state


def timed_rates(search, n: int) -> Tuple[float, float]:
    """(per CPU second, per wall second) of `n` simulations that `search()` runs."""
    cpu, wall = time.process_time(), time.perf_counter()
    search()
    return n / (time.process_time() - cpu), n / (time.perf_counter() - wall)


def openspiel_rate(pyspiel, name: str, seed: int) -> Tuple[float, float]:
    """Simulations per CPU second and per wall second of one OpenSpiel search (ISMCTSBot on
    gin_rummy, MCTSBot on pig)."""
    game = pyspiel.load_game(name)
    state = _openspiel_state(game, random.Random(seed))
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    n = SIMULATIONS[name]
    if name == "gin_rummy":
        bot = pyspiel.ISMCTSBot(seed, evaluator, 0.7, n, -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                                False, False)
    else:
        bot = pyspiel.MCTSBot(game, evaluator, 0.7, n, 1 << 30, False, seed, False)
    return timed_rates(lambda: bot.step(state), n)


def our_rate(label: str, seed: int) -> Tuple[float, float]:
    """Simulations per CPU second and per wall second of one IS-MCTS search of ours (random
    rollouts, one thread); `label` is a game name, or a name and options ("yum_cha:rounds=1")."""
    game = dimsum.make(label.partition(":")[0], **OPTIONS.get(label, {}))
    state = game.new_state(seed=seed)
    n = SIMULATIONS[label]
    bot = bots.make("ismcts", game, seed=seed, simulations=n, rollout="random", bias=0,
                     threads=1)
    rates = timed_rates(lambda: bot.act(state), n)
    assert bot.last_search[0] == n
    return rates


PAIRS = (("yum_cha", "gin_rummy"), ("yum_cha:rounds=1", "gin_rummy"), ("nice_buns", "pig"))


def side_by_side(rounds: int = 3, first_seed: int = 1) -> Dict[str, Dict[str, object]]:
    """Per pair: each side's simulations per CPU second in each round ("ours_rounds",
    "peer_rounds") and their medians ("ours", "peer"), the medians per wall second ("ours_wall",
    "peer_wall"), the ratio ours / peer of CPU rates in each round ("ratios") and its median
    ("ratio")."""
    import pyspiel

    rates: Dict[str, List[Tuple[float, float]]] = {name: [] for pair in PAIRS for name in pair}
    for r in range(rounds):
        seed = first_seed + 7919 * r  # a fresh deal every round
        for peer in ("gin_rummy", "pig"):
            rates[peer].append(openspiel_rate(pyspiel, peer, seed))
        for ours, _ in PAIRS:
            rates[ours].append(our_rate(ours, seed))
    result: Dict[str, Dict[str, object]] = {}
    for ours, peer in PAIRS:
        ratios = [a[0] / b[0] for a, b in zip(rates[ours], rates[peer])]
        result[f"{ours} / {peer}"] = {
            "ours_rounds": [c for c, _ in rates[ours]], "peer_rounds": [c for c, _ in rates[peer]],
            "ours": statistics.median(c for c, _ in rates[ours]), "peer": statistics.median(c for c, _ in rates[peer]),
            "ours_wall": statistics.median(w for _, w in rates[ours]),
            "peer_wall": statistics.median(w for _, w in rates[peer]),
            "ratios": ratios, "ratio": statistics.median(ratios)}
    return result


def main(argv: List[str]) -> int:
    rounds = int(argv[0]) if argv else 5
    for pair, figures in side_by_side(rounds).items():
        ours, peer = pair.split(" / ")
        print(f"{ours} IS-MCTS {figures['ours']:,.0f} simulations per CPU second (wall {figures['ours_wall']:,.0f}) "
              f"vs OpenSpiel {peer} {figures['peer']:,.0f} (wall {figures['peer_wall']:,.0f}): "
              f"{figures['ratio']:.1f}x ({min(figures['ratios']):.1f}-{max(figures['ratios']):.1f}; "
              f"medians of {rounds} rounds, one thread)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
