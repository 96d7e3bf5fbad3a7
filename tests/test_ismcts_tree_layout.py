"""IS-MCTS after its tree's layout changed (issue 41, item 3: what select scores a child by kept in
the parent's block of children, search_tree.hpp): the same searches as before, bit for bit, in
every guide mode and with more than one tree."""

import hashlib

import dimsum
import pytest
from dimsum import bots

PLAIN = {"rollout": "random", "bias": 0}
# Searches of 4,000 simulations recorded before the change (each child's visits, availability and
# reward in its own node): the chosen action, the rollout and tree actions, and a digest of the
# root's statistics (action, visits, mean as float.hex). At this size the root's block of children
# has moved (4, 8, 16 entries), nodes deeper down outgrew theirs, and the ln table has grown.
RECORDED = [
    ("nice_buns", 2, 11, PLAIN, 1, 2, 101226, 27814, "38461dafe1f8a0af"),
    ("nice_buns", 2, 11, {}, 1, 2, 88374, 26081, "f6c3ccfd0a7acc5f"),
    ("nice_buns", 2, 11, PLAIN, 2, 2, 102662, 27470, "e6594fad8d67543d"),
    ("nice_buns", 4, 12, {"guide": "policy", "weights": "shipped"}, 1, 2, 145115, 52322, "aae2c5f5b2d52aaf"),
    ("nice_buns", 4, 12, {"guide": "policy_ucb", "weights": "shipped"}, 1, 2, 167486, 29147, "8750578c5da4adae"),
    ("nice_buns", 4, 12, {"guide": "policy_heuristic", "weights": "shipped"}, 2, 2, 171347, 24214, "c149bf76fce3ec9a"),
    ("yum_cha", 4, 13, PLAIN, 1, 0, 9580111, 19889, "8fd4611a2b803be7"),
]


def digest(stats):
    return hashlib.sha256(repr([(a, v, float(m).hex()) for a, v, m in stats]).encode()).hexdigest()[:16]


@pytest.mark.parametrize("name,players,seed,options,threads,action,rollout_steps,tree_steps,root", RECORDED)
def test_searches_are_as_recorded(name, players, seed, options, threads, action, rollout_steps, tree_steps, root):
    game = dimsum.make(name, players=players)
    bot = bots.make("ismcts", game, seed=seed, simulations=4000, threads=threads, **options)
    assert bot.act(game.new_state(seed)) == action
    simulations, steps, stats = bot.last_search
    assert (simulations, steps, bot.last_tree_steps) == (4000, rollout_steps, tree_steps)
    assert digest(stats) == root
