"""A layer's last outputs, past its kernels' full registers (the tails: masked AVX-512 or AVX
registers, or the portable loop), give the same bits in every kernel width, in a row alone and in
a tile of rows, dense or sparse, and are the layer's sums (src/dimsum_core/bots/policy_net.cpp).
The shipped policies' goldens (test_policy_golden.py) see only their own widths (101, 171, 66,
448 actions, 64 hidden); here every size class of a tail is seen: 1 to 127 outputs."""

import hashlib
import os
import subprocess
import sys

import numpy as np
import pytest

from dimsum import _batch
from test_policy_arithmetic import reference  # the float64 evaluation of a network
from test_policy_golden import WIDTHS as KERNEL_WIDTHS  # base, avx, avx2, avx512

# outputs of the first layer and of the last (the actions): one short of, at and one past every
# register boundary of 8, 16, 32 and 64 lanes, and a few between
OUTPUTS = [1, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 79, 80, 97, 113, 127]
OBSERVATION = 150  # 150 + the actions: above the 128 inputs past which a first layer's zeros are listed
ROWS = 9  # two tiles of four rows and one alone


def network(hidden, actions, seed):
    rng = np.random.default_rng(seed)
    layers = [(rng.standard_normal((hidden, OBSERVATION + actions)).astype(np.float32),
               rng.standard_normal(hidden).astype(np.float32), "tanh"),
              (rng.standard_normal((actions, hidden)).astype(np.float32),
               rng.standard_normal(actions).astype(np.float32), "none")]
    return _batch.PolicyNet(["action_mask", "observation"], actions, OBSERVATION, layers), layers


def rows(actions, density, seed):
    rng = np.random.default_rng(seed)
    observations = rng.uniform(0.5, 2.0, (ROWS, OBSERVATION)).astype(np.float32)
    observations[rng.random((ROWS, OBSERVATION)) >= density] = 0.0
    masks = (rng.random((ROWS, actions)) < density).astype(np.uint8)
    return observations, masks


def cases():
    for k, hidden in enumerate(OUTPUTS):
        actions = OUTPUTS[(k + 7) % len(OUTPUTS)]
        for density in (0.1, 1.0):  # the sparse kernels, the dense ones
            yield hidden, actions, density, 1000 * k + int(density * 10)


def logits_digest():
    """Every case's batched logits, and each row's alone, as one digest per case."""
    out = {}
    for hidden, actions, density, seed in cases():
        net, _ = network(hidden, actions, seed)
        observations, masks = rows(actions, density, seed)
        batched = net.logits(observations, masks)
        alone = np.stack([net.logits(observations[r:r + 1], masks[r:r + 1])[0] for r in range(ROWS)])
        assert batched.view(np.uint32).tolist() == alone.view(np.uint32).tolist(), (hidden, actions, density)
        out[(hidden, actions, density)] = hashlib.sha256(batched.astype("<f4").tobytes()).hexdigest()
    return out


@pytest.mark.parametrize("hidden, actions, density, seed", list(cases()))
def test_a_tail_is_the_layers_sums(hidden, actions, density, seed):
    net, layers = network(hidden, actions, seed)
    observations, masks = rows(actions, density, seed)
    expected = reference(layers, {}, observations, masks)
    np.testing.assert_allclose(net.logits(observations, masks), expected, atol=1e-4, rtol=1e-4)


def test_every_kernel_width_gives_the_same_bits_alone_and_in_tiles():
    # DIMSUM_POLICY_ISA is read once a process: each width in a process of its own, against the
    # portable one ("base"); a width the CPU lacks runs its widest below it.
    digests = {}
    for cap in KERNEL_WIDTHS:
        done = subprocess.run([sys.executable, __file__], env=dict(os.environ, DIMSUM_POLICY_ISA=cap),
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        kernels, digest = done.stdout.split()
        digests[kernels] = digest
    assert "base" in digests
    assert len(set(digests.values())) == 1, digests


if __name__ == "__main__":
    print(_batch.policy_kernels(), hashlib.sha256(repr(sorted(logits_digest().items())).encode()).hexdigest())
