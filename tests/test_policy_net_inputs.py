"""The C++ policy network's input paths (src/dimsum_core/bots/policy_net.{hpp,cpp}): a normalized
observation is fed relative to the input of an all-zero observation, whose contribution sits in
the first layer's bias ("Centred inputs"), and rows whose inputs are mostly zeros are summed from
their non-zero entries alone ("Sparse inputs"). Both must compute the network as trained (checked
here against a float64 evaluation in numpy; tests/test_policy_bot.py checks it against torch
where SB3 is installed), and a row's logits must not depend on the rows it is evaluated with."""

import numpy as np
import pytest

import dimsum
import dimsum.bots
from dimsum.baselines import policy_file
from dimsum.baselines.policy_file import untrained


def network(game, tmp_path, normalized, seed=3):
    policy = untrained(game, hidden=(40, 24), seed=seed)
    rng = np.random.default_rng(seed)
    for layer in policy.layers:  # logits of a few units, so that a wrong term would show
        layer.weight = (layer.weight * 4).astype(np.float32)
        layer.bias = rng.standard_normal(layer.bias.shape).astype(np.float32)
    if normalized:
        size = policy.observation_size
        policy.normalization = {"offset": rng.uniform(0.1, 0.5, size).astype(np.float32),
                                "scale": rng.uniform(0.5, 2.0, size).astype(np.float32), "clip": 3.0}
    path = tmp_path / f"net-{normalized}.dspolicy"
    policy_file.write(path, policy)
    return policy, dimsum.bots.PolicyBot(game, weights=path)._net


def reference_logits(policy, observations, masks):
    """The network in float64: normalization, then the layers, as SB3's MultiInputPolicy runs it."""
    obs = observations.astype(np.float64)
    if policy.normalization is not None:
        n = policy.normalization
        obs = np.clip((obs - n["offset"]) * n["scale"], -n["clip"], n["clip"])
    parts = {"observation": obs, "action_mask": masks.astype(np.float64)}
    x = np.concatenate([parts[name] for name in policy.inputs], axis=1)
    for layer in policy.layers:
        x = x @ layer.weight.astype(np.float64).T + layer.bias
        x = {"tanh": np.tanh, "relu": lambda v: np.maximum(v, 0), "none": lambda v: v}[layer.activation](x)
    return x


def positions(game, count=60):
    states, seed = [], 0
    while len(states) < count:
        state = game.new_state(seed)
        seed += 1
        while not state.is_terminal and len(states) < count:
            states.append(state.clone())
            state.apply(state.legal_actions()[len(states) % len(state.legal_actions())])
    observations = np.stack([s.observation(s.current_player) for s in states]).astype(np.float32)
    return observations, np.stack([s.legal_mask() for s in states])


@pytest.mark.parametrize("normalized", [False, True])
@pytest.mark.parametrize("name, players", [("dim_sum_jam", 4), ("nice_buns", 2)])
def test_the_logits_are_the_networks_as_trained(name, players, normalized, tmp_path):
    game = dimsum.make(name, players=players)
    policy, net = network(game, tmp_path, normalized)
    observations, masks = positions(game)
    got = net.logits(observations, masks)
    expected = reference_logits(policy, observations, masks)
    assert np.abs(expected).max() > 1.0
    np.testing.assert_allclose(got, expected, atol=2e-4, rtol=1e-5)


@pytest.mark.parametrize("normalized", [False, True])
def test_a_sparse_row_gives_the_same_bits_alone_and_among_dense_rows(normalized, tmp_path):
    # Dim Sum Jam's input is about a tenth non-zero: alone, a row takes the sparse kernel; in a
    # tile of rows with every input non-zero, the dense one. Each row's logits must be the same
    # bits either way (the same products, added in the same order).
    game = dimsum.make("dim_sum_jam", players=3)
    _, net = network(game, tmp_path, normalized)
    observations, masks = positions(game, 40)
    dense = np.random.default_rng(1).uniform(1.0, 2.0, (31, observations.shape[1])).astype(np.float32)
    dense_masks = np.ones((31, masks.shape[1]), dtype=masks.dtype)
    for r in range(len(observations)):
        alone = net.logits(observations[r:r + 1], masks[r:r + 1])[0]
        among = net.logits(np.concatenate([dense[:15], observations[r:r + 1], dense[15:]]),
                           np.concatenate([dense_masks[:15], masks[r:r + 1], dense_masks[15:]]))[15]
        assert alone.view(np.uint32).tolist() == among.view(np.uint32).tolist(), f"position {r}"
