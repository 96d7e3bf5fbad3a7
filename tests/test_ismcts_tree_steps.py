"""IS-MCTS after its per-simulation cost was cut (issue 26, item 3): the same searches as before,
and the count of simulated actions the per-action benchmark reads (benchmarks/mcts_per_action.py).
"""

import dimsum
import pytest
from dimsum import bots

# Searches recorded before the cut (a select walking the legal list twice with a child-of map and
# std::log per child, keyed applies): the cut must give them bit for bit. 300 simulations take
# the root's availability counts past the log table's first 64 entries.
RECORDED = [
    ("nice_buns", 2, 5, {"rollout": "random", "bias": 0}, 1, 9463,
     [(0, 2, "0x0.0p+0"), (1, 232, "0x1.e9ee58469ee58p-2"), (2, 29, "0x1.ee58469ee5847p-2"),
      (3, 37, "0x1.9f22983759f23p-2")]),
    ("nice_buns", 2, 5, {}, 3, 7358,
     [(0, 25, "0x1.1eb851eb851ecp-2"), (1, 45, "0x1.999999999999ap-2"), (2, 113, "0x1.1d738a31d738ap-1"),
      (3, 117, "0x1.36b36b36b36b3p-1")]),
    ("pig", 3, 6, {"rollout": "random", "bias": 0}, 0, 47082, [(0, 296, "0x1.759f22983759fp-2"), (1, 4, "0x0.0p+0")]),
    ("pig", 3, 6, {}, 0, 28740, [(0, 297, "0x1.7eb50295fad41p-2"), (1, 3, "0x0.0p+0")]),
]


@pytest.mark.parametrize("name,players,seed,options,action,rollout_steps,root", RECORDED)
def test_searches_are_as_recorded(name, players, seed, options, action, rollout_steps, root):
    game = dimsum.make(name, players=players)
    bot = bots.make("ismcts", game, seed=seed, simulations=300, threads=1, **options)
    assert bot.act(game.new_state(seed)) == action
    simulations, steps, stats = bot.last_search
    assert (simulations, steps) == (300, rollout_steps)
    assert stats == [(a, visits, float.fromhex(mean)) for a, visits, mean in root]


def test_tree_steps_count_the_descents_actions():
    game = dimsum.make("nice_buns", players=2)
    state = game.new_state(3)
    n = len(state.legal_actions())
    assert n >= 2
    for simulations, expected in ((1, 1), (n, n), (n + 1, n + 2)):
        # each of the first n simulations expands an untried root action (one action in the tree);
        # the next descends to a root child and expands below it (two)
        bot = bots.make("ismcts", game, seed=3, simulations=simulations, rollout="random", bias=0, threads=1)
        bot.act(state)
        assert bot.last_tree_steps == expected


def test_tree_steps_sum_over_threads_and_repeat():
    game = dimsum.make("pig", players=2)
    state = game.new_state(4)
    runs = []
    for _ in range(2):
        bot = bots.make("ismcts", game, seed=4, simulations=400, rollout="random", bias=0, threads=2)
        bot.act(state)
        runs.append((bot.last_search, bot.last_tree_steps))
    assert runs[0] == runs[1]
    # every simulation applies at least its root action in the tree
    assert runs[0][1] >= 400
    assert bots.make("ismcts", game).last_tree_steps is None  # no search yet
