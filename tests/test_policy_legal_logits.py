"""A move, and a policy opponent's round, read only the legal actions' logits, so the network's last
layer sums only those when that is less work (src/dimsum_core/bots/policy_net.cpp,
legal_outputs_only: the registers of outputs holding a legal action, or one scalar product at a
time in the portable kernels). Those logits are the whole layer's, bit for bit, in every kernel
width, for a row alone and in tiles of rows, whatever the number of actions and of legal ones."""

import os
import subprocess
import sys

import numpy as np
import pytest

from dimsum import _batch
from test_policy_golden import WIDTHS as KERNEL_WIDTHS  # base, avx, avx2, avx512

OBSERVATION = 40
HIDDEN = 64
ROWS = 41  # a tile of 32 rows, two groups of four and one alone
# one short of, at and past register boundaries of 8 and 16 lanes; the shipped policies' 66, 101,
# 171 and 448; and 1,100, over the 64 registers of 16 past which the layer is summed whole
ACTIONS = [1, 5, 8, 9, 16, 17, 66, 101, 171, 448, 1100]
# legal actions a row: one, three, a tenth, half, all of them
LEGAL = ["one", "three", "tenth", "half", "all"]


def network(actions, seed, last="none"):
    rng = np.random.default_rng(seed)
    layers = [(rng.standard_normal((HIDDEN, OBSERVATION + actions)).astype(np.float32),
               rng.standard_normal(HIDDEN).astype(np.float32), "tanh"),
              (rng.standard_normal((actions, HIDDEN)).astype(np.float32),
               rng.standard_normal(actions).astype(np.float32), last)]
    return _batch.PolicyNet(["action_mask", "observation"], actions, OBSERVATION, layers)


def rows(actions, legal, seed):
    rng = np.random.default_rng(seed)
    observations = rng.uniform(-2.0, 2.0, (ROWS, OBSERVATION)).astype(np.float32)
    masks = np.zeros((ROWS, actions), dtype=np.uint8)
    for r in range(ROWS):
        count = {"one": 1, "three": 3, "tenth": actions // 10, "half": actions // 2, "all": actions}[legal]
        masks[r, rng.choice(actions, size=max(1, min(actions, count)), replace=False)] = 1
    return observations, masks


def mismatches():
    """Every case whose legal logits differ from the whole layer's in some bit, or that leaves an
    action it was not asked for anything but NaN (so the check reads what was computed)."""
    bad = []
    for k, actions in enumerate(ACTIONS):
        for legal in LEGAL:
            for last in ("none", "tanh"):
                seed = 100 * k + LEGAL.index(legal) + (50 if last == "tanh" else 0)
                net = network(actions, seed, last)
                observations, masks = rows(actions, legal, seed)
                whole = net.logits(observations, masks)
                for alone in (False, True):
                    got = _batch._policy_legal_logits(net, observations, masks, alone=alone)
                    wanted = masks.astype(bool)
                    same = got[wanted].view(np.uint32).tolist() == whole[wanted].view(np.uint32).tolist()
                    if not same or not np.isnan(got[~wanted]).all():
                        bad.append((actions, legal, last, "alone" if alone else "tiles"))
    return bad


def test_the_legal_logits_are_the_whole_layers_bits():
    assert mismatches() == []


def test_legal_logits_refuse_arrays_of_the_wrong_shape():
    net = network(9, 1)
    observations, masks = rows(9, "half", 1)
    with pytest.raises(ValueError, match="legal logits take observations"):
        _batch._policy_legal_logits(net, observations[:, :-1], masks)
    with pytest.raises(ValueError, match="legal logits take observations"):
        _batch._policy_legal_logits(net, observations, masks[:-1])


@pytest.mark.parametrize("cap", KERNEL_WIDTHS)
def test_every_kernel_width_gives_the_whole_layers_bits(cap):
    # DIMSUM_POLICY_ISA is read once a process: each width in a process of its own
    done = subprocess.run([sys.executable, __file__], env=dict(os.environ, DIMSUM_POLICY_ISA=cap),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    kernels, bad = done.stdout.split(" ", 1)
    assert bad.strip() == "[]", (kernels, bad)


if __name__ == "__main__":
    print(_batch.policy_kernels(), mismatches())
