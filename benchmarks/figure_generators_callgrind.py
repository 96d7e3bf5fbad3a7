"""The figure generators of instruction counts under callgrind (registered into
benchmarks.figure_generators.GENERATORS): the policy network's (benchmarks/policy_callgrind.py) and
IS-MCTS's against OpenSpiel's MCTSBot (benchmarks/mcts_per_action.py --callgrind). A count is the
same on every run whatever the machine does, so these take no rounds; they need valgrind and a
build with its symbol table (in the checkout: an installed build is stripped)."""

from __future__ import annotations

from .figure_generators import register, table
from .figure_provenance import Measuring

POLICIES = [("Nice Buns 2p", "nice_buns-2p"), ("Dim Sum Jam 4p", "dim_sum_jam-4p"), ("Yum Cha 4p", "yum_cha-4p")]
POLICY_STATES = 2000


@register("policy_callgrind")
def policy_callgrind_table(rounds: None) -> str:
    """`python benchmarks/policy_callgrind.py --policies nice_buns-2p dim_sum_jam-4p yum_cha-4p`
    (its instructions, in this process): instructions a move in C++ (`policy_move`: observe, input,
    network for the legal actions, argmax) and a batched row (`PolicyNet.logits`), only the code
    under that C++ function counted, on 2,000 decision nodes of random games (seed 0)."""
    from .policy_callgrind import instructions

    rows = []
    with Measuring() as m:
        for label, policy in POLICIES:
            move = instructions(policy, "move", POLICY_STATES) / POLICY_STATES
            row = instructions(policy, "row", POLICY_STATES) / POLICY_STATES
            rows.append([label, f"{move:,.0f}", f"{row:,.0f}"])
    return (table(["shipped policy", "a move in C++ (`policy_move`), instructions",
                   "a batched row (`PolicyNet.logits`), instructions"], "lrr", rows)
            + "\n\n" + m.line("policy_callgrind", None, f"{POLICY_STATES:,} decision nodes, exact counts"))


@register("mcts_callgrind")
def mcts_callgrind_table(rounds: None) -> str:
    """`python -m benchmarks.mcts_per_action --callgrind` (its callgrind_table, in this process):
    one search of each kind, seed 1, 5,000 simulations, 2 and 4 players, only the code inside the
    search counted (dimsum's binding function, OpenSpiel's `MCTSBot::MCTSearch`): instructions a
    simulation and a simulated action, and OpenSpiel's over ours."""
    from .mcts_per_action import callgrind_table

    with Measuring() as m:
        markdown = callgrind_table([2, 4])
    return markdown + "\n\n" + m.line("mcts_callgrind", None, "seed 1, exact counts")
