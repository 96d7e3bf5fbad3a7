"""The bots (docs/BOTS.md): IS-MCTS simulations per second per game and rollout policy, the
heuristic's time per move from Python, and IS-MCTS beside OpenSpiel's C++ bots
(benchmarks/bots_vs_openspiel.py; skipped without pyspiel). Fresh deals every round."""

import itertools

import pytest

import dimsum
from dimsum import bots
from dimsum.testing import profile

from .bots_vs_openspiel import side_by_side



@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_ismcts_search(benchmark, name, rollout):
    game = dimsum.make(name)
    seeds = itertools.count(1)
    n = profile(name).search_simulations // (5 if rollout == "heuristic" else 1)
    benchmark.group = f"bots:{name}"

    def search():
        seed = next(seeds)
        bot = bots.make("ismcts", game, seed=seed, simulations=n, rollout=rollout, bias=0)
        bot.act(game.new_state(seed=seed))

    benchmark.pedantic(search, rounds=5, iterations=1)
    benchmark.extra_info["simulations_per_call"] = n


def test_heuristic_move_from_python(benchmark, name):
    game = dimsum.make(name)
    states = [game.new_state(seed=s) for s in range(64)]
    bot = bots.make("heuristic", game)
    benchmark.group = f"bots:{name}"
    benchmark(lambda: [bot.act(s) for s in states])
    benchmark.extra_info["moves_per_call"] = len(states)


def test_ismcts_beside_openspiel(benchmark):
    pytest.importorskip("pyspiel")
    benchmark.group = "bots:peers"
    figures = benchmark.pedantic(side_by_side, kwargs={"rounds": 3}, rounds=1, iterations=1)
    for pair, f in figures.items():
        benchmark.extra_info[f"{pair} ratio"] = round(f["ratio"], 1)
        print(f"\n{pair}: ours {f['ours']:,.0f}/s, OpenSpiel {f['peer']:,.0f}/s, {f['ratio']:.1f}x")
