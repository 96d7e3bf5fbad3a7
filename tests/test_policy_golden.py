"""The shipped policies' logits are the same bits on every platform (src/dimsum_core/bots/policy_net.cpp:
IEEE-754 float operations in a fixed order, tanh as a rational function rather than libm's, no fused
multiply-add), so their moves are too. Recorded here as digests: the logits of every shipped policy
on the decision nodes of seeded random games, whole (PolicyNet.logits, batched) and a move's
(the bot's greedy choice, which reads its legal actions' logits alone). A platform, compiler or
kernel that computes one bit differently fails here; a deliberate change of the arithmetic
re-records them (python tests/test_policy_golden.py prints the new digests) and says why."""

import ast
import functools
import hashlib
import os
import subprocess
import sys

import numpy as np
import pytest

import dimsum
import dimsum.bots
from dimsum import _batch
from dimsum.baselines.shipped import shipped

# policy -> (sha256 of the logits' float32 bytes, sha256 of the greedy moves as int16), 200 nodes
GOLDEN = {
    "dim_sum_jam-3p": ("65cd75f06e2066b0dc4a04c017cbfcffd2ecf98033f4c203489ff88d7337cf18",
                      "ef42471717de0a68fadf6e2d3345fe9fd20ae5a52128f23b5d69d010f8781066"),
    "dim_sum_jam-4p": ("33748c42394baf259cc0c90d82b46663edf2dfd24b2a9b366363a699573d1b94",
                      "a6e5ac17a8e417e07b4af84579ac792228d0668753b86ac5740df195d6a03db6"),
    "nice_buns-2p": ("88792d111fc71d9eb48cb9aefcb393cccf1719700e27f0f9a84fa04ed8a9813d",
                    "b1051e6d8ca4c655c0520eca30dced4c4974fdddac8ce9e1b2cfd7e29d045b7c"),
    "nice_buns-4p": ("fa5ab92d9fea90f6259c64097d1768319bf5a9032067ea619311644584ca2108",
                    "741bd75a9d80e4e9f60e8baa385b3d58d56236e591fe61d89845bd90ccd5c000"),
    "yum_cha-4p": ("9ea2c3cd916fc2a25294df13d1b4720a5ff9d148935815e888ea2afdfac132bf",
                  "5e87eee81186a8f9632c64414ce8b94c191aa2a295bfac0b8544639633551571"),
}


def decision_nodes(game, n=200, seed=2026):
    rng = np.random.default_rng(seed)
    states, g = [], 0
    while len(states) < n:
        state = game.new_state(seed + g)
        g += 1
        while not state.is_terminal and len(states) < n:
            states.append(state.clone())
            legal = state.legal_actions()
            state.apply(int(legal[rng.integers(len(legal))]))
    return states


def digests(stem):
    name, players = stem.rsplit("-", 1)
    game = dimsum.make(name, players=int(players.rstrip("p")))
    bot = dimsum.bots.make("policy", game, weights="shipped")
    states = decision_nodes(game)
    observations = np.stack([s.observation(s.current_player) for s in states]).astype(np.float32)
    masks = np.stack([s.legal_mask() for s in states])
    logits = bot._net.logits(observations, masks).astype("<f4")
    moves = np.array([bot.act(s) for s in states], dtype="<i2")
    # the greedy move is the argmax of the legal logits (the lowest action on a tie)
    assert moves.tolist() == [int(np.flatnonzero(m)[np.argmax(row[m])]) for row, m in zip(logits, masks.astype(bool))]
    return hashlib.sha256(logits.tobytes()).hexdigest(), hashlib.sha256(moves.tobytes()).hexdigest()


def test_every_shipped_policy_has_a_golden():
    assert sorted(GOLDEN) == sorted(shipped())


@pytest.mark.parametrize("stem", sorted(GOLDEN))
def test_the_shipped_policys_logits_and_moves_are_the_recorded_bits(stem):
    logits, moves = digests(stem)
    assert moves == GOLDEN[stem][1], f"{stem}: the greedy moves changed"
    assert logits == GOLDEN[stem][0], f"{stem}: the logits changed in some bit (the moves did not)"


WIDTHS = ["base", "avx", "avx2", "avx512"]


@functools.lru_cache(maxsize=None)
def widest_kernels():
    """The kernels this CPU runs with no cap (this process may itself be capped): asked once."""
    uncapped = {k: v for k, v in os.environ.items() if k != "DIMSUM_POLICY_ISA"}
    return subprocess.run([sys.executable, "-c", "from dimsum import _batch; print(_batch.policy_kernels())"],
                          env=uncapped, capture_output=True, text=True, timeout=60, check=True).stdout.strip()


@pytest.mark.parametrize("cap", WIDTHS)
def test_every_kernel_width_this_cpu_runs_gives_the_recorded_bits(cap):
    # The kernels are the CPU's widest unless DIMSUM_POLICY_ISA caps them, read once a process: so
    # each width is run in a process of its own. A width the CPU lacks runs its widest below it.
    env = dict(os.environ, DIMSUM_POLICY_ISA=cap)
    done = subprocess.run([sys.executable, __file__, "--kernels"], env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    kernels, *rows = done.stdout.splitlines()
    assert kernels == WIDTHS[min(WIDTHS.index(cap), WIDTHS.index(widest_kernels()))]
    assert ast.literal_eval("{" + "".join(rows) + "}") == GOLDEN


if __name__ == "__main__":
    if "--kernels" in sys.argv:
        print(_batch.policy_kernels())
    for stem in sorted(shipped()):
        print(f"    {stem!r}: {digests(stem)!r},", file=sys.stdout)
