"""The C++ policy network's arithmetic (src/dimsum_core/bots/policy_net.cpp) is a fixed sequence of
IEEE-754 single-precision operations, each rounded on its own: so the same bits on every platform
we ship. The activation is tanh as a rational function (no libm, whose last bits differ between C
libraries), and no compiler may fuse a multiply and an add into one rounding. Checked here by
computing the same operations in numpy, whose float32 operations are exactly that; and the input
that make_input writes and lists sparsely (block by block, the mask from the legal actions) against
a float64 evaluation, at every position of a block and in the tail."""

import numpy as np
import pytest

from dimsum import _batch

# the operations of tanh_rational in policy_net.cpp, in numpy float32 (one rounding each)
_P = [-2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11, 5.12229709037114e-08,
      1.48572235717979e-05, 6.37261928875436e-04, 4.89352455891786e-03]
_Q = [1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03, 4.89352518554385e-03]


def tanh_float32_operations(x):
    f = np.float32
    clamp = f(7.90531110763549805)
    c = np.where(x < -clamp, -clamp, np.where(x > clamp, clamp, x)).astype(f)
    c2 = c * c
    p = np.full_like(c, f(_P[0]))
    for a in _P[1:]:
        p = p * c2 + f(a)
    p = p * c
    q = np.full_like(c, f(_Q[0]))
    for b in _Q[1:]:
        q = q * c2 + f(b)
    with np.errstate(invalid="ignore"):
        t = p / q
    return np.where(np.abs(x) < f(0.0004), x, t).astype(f)


def through_tanh(values, width=64):
    """tanh of each value as the C++ network computes it: an identity layer with tanh, then an
    identity layer without activation (a sum of one non-zero product and zeros is that product)."""
    x = values.astype(np.float32).reshape(-1, width)
    eye = np.eye(width, dtype=np.float32)
    zero = np.zeros(width, dtype=np.float32)
    net = _batch.PolicyNet(["observation"], width, width, [(eye, zero, "tanh"), (eye, zero, "none")])
    return net.logits(x, np.ones((len(x), width), dtype=np.uint8)).reshape(-1)


def sweep():
    rng = np.random.default_rng(7)
    values = np.concatenate([
        np.linspace(-10, 10, 64 * 40),
        rng.standard_normal(64 * 40) * 3,
        np.exp(rng.uniform(np.log(1e-6), np.log(50), 64 * 20)) * rng.choice([-1, 1], 64 * 20),
        [0.0, 0.0004, -0.0004, 0.00039999, 7.9053111, -7.9053111, 7.9053, 8.0, 1e30, -1e30, 88.0, -88.0,
         np.nextafter(np.float32(0.0004), np.float32(1)), 1e-20, -1e-20, 3.0, -3.0] + [0.5] * 47,
    ]).astype(np.float32)
    assert len(values) % 64 == 0
    return values


def test_tanh_is_the_same_float32_operations_bit_for_bit():
    # Fails with libm's tanhf (the network before) and wherever a compiler fuses a multiply-add.
    values = sweep()
    got = through_tanh(values)
    expected = tanh_float32_operations(values)
    differ = np.flatnonzero(got.view(np.uint32) != expected.view(np.uint32))
    assert differ.size == 0, f"{differ.size} values differ, e.g. tanh({values[differ[0]]!r}) = {got[differ[0]]!r}, " \
                             f"the float32 operations give {expected[differ[0]]!r}"


def test_tanh_is_the_same_bits_in_the_last_values_of_a_layer():
    # A layer's activations are computed a register at a time (4, 8 or 16 values), the last ones
    # padded: every count of last values, alone and in a batch, gives the same bits as the rest.
    values = sweep()
    for width in (1, 3, 5, 7, 9, 13, 15, 17, 23, 31, 33, 37):
        for rows in (1, 2, 3, 5):
            part = values[np.linspace(0, len(values) - 1, width * rows).astype(int)]  # across the sweep
            got = through_tanh(part, width)
            assert got.view(np.uint32).tolist() == tanh_float32_operations(part).view(np.uint32).tolist(), \
                f"width {width}, {rows} rows"


def test_tanh_is_within_half_a_micro_of_tanh_odd_and_bounded():
    values = sweep()
    got = through_tanh(values)
    assert np.abs(got.astype(np.float64) - np.tanh(values.astype(np.float64))).max() < 5e-7
    assert np.array_equal(through_tanh(-values), -got)
    assert np.abs(got).max() <= 1.0


def sparse_net(normalized, observation_size=203, num_actions=21, seed=5):
    rng = np.random.default_rng(seed)
    inputs = observation_size + num_actions
    w0 = rng.standard_normal((16, inputs)).astype(np.float32)
    b0 = rng.standard_normal(16).astype(np.float32)
    w1 = (rng.standard_normal((num_actions, 16)) * 2).astype(np.float32)
    b1 = rng.standard_normal(num_actions).astype(np.float32)
    layers = [(w0, b0, "tanh"), (w1, b1, "none")]
    norm = {}
    if normalized:
        norm = {"obs_offset": rng.uniform(0.1, 0.5, observation_size).astype(np.float32),
                "obs_scale": rng.uniform(0.5, 2.0, observation_size).astype(np.float32), "obs_clip": 3.0}
    net = _batch.PolicyNet(["action_mask", "observation"], num_actions, observation_size, layers, **norm)
    return net, layers, norm


def reference(layers, norm, observations, masks):
    obs = observations.astype(np.float64)
    if norm:
        obs = np.clip((obs - norm["obs_offset"]) * norm["obs_scale"], -norm["obs_clip"], norm["obs_clip"])
    x = np.concatenate([masks.astype(np.float64), obs], axis=1)
    for w, b, activation in layers:
        x = x @ w.astype(np.float64).T + b
        x = np.tanh(x) if activation == "tanh" else x
    return x


@pytest.mark.parametrize("normalized", [False, True])
def test_a_sparse_input_is_listed_at_every_position_of_a_block_and_in_the_tail(normalized):
    # 203 observation values: 25 blocks of 8 and a tail of 3. One row per position holds a single
    # non-zero value there (and a few legal actions): a value the scan missed would drop its term.
    net, layers, norm = sparse_net(normalized)
    size = net.observation_size
    observations = np.zeros((size + 1, size), dtype=np.float32)
    observations[np.arange(size), np.arange(size)] = np.linspace(0.5, 3.0, size)
    masks = np.zeros((size + 1, net.num_actions), dtype=np.uint8)
    masks[np.arange(size + 1), np.arange(size + 1) % net.num_actions] = 1
    masks[::3, -1] = 1
    got = net.logits(observations, masks)
    np.testing.assert_allclose(got, reference(layers, norm, observations, masks), atol=2e-5, rtol=1e-5)
    for r in (0, 7, 8, 199, 200, 202, size):  # alone (sparse) as among the others: the same bits
        alone = net.logits(observations[r:r + 1], masks[r:r + 1])[0]
        assert alone.view(np.uint32).tolist() == got[r].view(np.uint32).tolist(), f"row {r}"
