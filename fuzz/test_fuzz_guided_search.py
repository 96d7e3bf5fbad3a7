"""Guided searches over random and extreme policy networks: huge weights (1e30, float32's
largest: the logits overflow to +-inf and the priors would be NaN), tiny ones (1e-38: subnormal
sums), zero, ordinary, mixed per layer, any activation, with and without a normalization; every
guide and policy rollouts, in every game. The network goes straight into the C++ search (as one
that slipped past the loader would): the search must answer a legal action, or refuse with a
ValueError, and never read or write out of bounds (the sanitizer job runs this target).

Two promises of the loader are checked on the same networks: NaN and infinity never get in (the
C++ network and the file format refuse them), and a network that check_bounded accepts computes
finite logits on the observations of the position, as the C++ search evaluates them.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dimsum import _batch
from dimsum.baselines.policy_file import INPUTS, Layer, Policy, PolicyFileError, check_bounded
from fuzzlib import GAMES, RUNS, budget, make, reachable, sampled_configs, seeded

FLOAT32_MAX = float(np.finfo(np.float32).max)
SCALES = [0.0, 1e-38, 1e-30, 1e-3, 1.0, 30.0, 1e3, 1e15, 1e20, 1e30, 1e38, FLOAT32_MAX]
HUGE = [1e20, 1e30, 1e38, FLOAT32_MAX]
ACTIVATIONS = ["tanh", "relu", "none"]
SEARCHES = [dict(guide="policy", rollout="heuristic"), dict(guide="policy_ucb", rollout="heuristic"),
            dict(guide="policy_heuristic", rollout="random"), dict(guide="heuristic", rollout="policy"),
            dict(guide="policy", rollout="policy")]


@st.composite
def networks(draw, game):
    """A Policy for `game` (inputs, widths, activations, per-layer scale and sign pattern drawn)."""
    size = int(np.prod(game.observation_shape))
    inputs = tuple(draw(st.sampled_from([INPUTS, INPUTS[::-1], ("observation",), ("action_mask",)]), label="inputs"))
    hidden = draw(st.lists(st.integers(1, 12), max_size=2), label="hidden")
    widths = [sum(game.num_actions if p == "action_mask" else size for p in inputs), *hidden, game.num_actions]
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    rng = np.random.default_rng(seed)
    # half the networks huge in every layer, without a saturating activation: most of those
    # overflow (the attack); the others mix any scale and activation
    huge = draw(st.booleans(), label="huge")
    scales, activations = (HUGE, ["relu", "none"]) if huge else (SCALES, ACTIVATIONS)
    layers = []
    for k, (n_in, n_out) in enumerate(zip(widths[:-1], widths[1:])):
        scale = draw(st.sampled_from(scales), label=f"scale{k}")
        pattern = draw(st.sampled_from(["normal", "positive", "negative", "constant"]), label=f"pattern{k}")
        w = {"normal": rng.standard_normal((n_out, n_in)), "positive": np.abs(rng.standard_normal((n_out, n_in))),
             "negative": -np.abs(rng.standard_normal((n_out, n_in))), "constant": np.ones((n_out, n_in))}[pattern]
        # scaled in float64, clipped to float32's range: the largest finite weights, never inf
        weight = np.clip(w * scale, -FLOAT32_MAX, FLOAT32_MAX).astype(np.float32)
        bias = np.clip(rng.standard_normal(n_out) * draw(st.sampled_from(SCALES), label=f"bias{k}"),
                       -FLOAT32_MAX, FLOAT32_MAX).astype(np.float32)
        last = k == len(widths) - 2
        layers.append(Layer(weight, bias, "none" if last else draw(st.sampled_from(activations), label=f"act{k}")))
    normalization = None
    if draw(st.booleans(), label="normalized"):
        normalization = {"offset": rng.standard_normal(size).astype(np.float32),
                         "scale": np.full(size, draw(st.sampled_from(SCALES), label="obs scale"), np.float32),
                         "clip": float(draw(st.sampled_from([1e-3, 5.0, 1e30, FLOAT32_MAX]), label="clip"))}
    return Policy(game=game.name, options={}, game_version=tuple(game.version), num_actions=game.num_actions,
                  observation_size=size, observation_layout=[], inputs=inputs, layers=layers,
                  normalization=normalization)


def native(policy):
    norm = policy.normalization or {}
    return _batch.PolicyNet(list(policy.inputs), policy.num_actions, policy.observation_size,
                            [(l.weight, l.bias, l.activation) for l in policy.layers],
                            norm.get("offset"), norm.get("scale"), norm.get("clip", 0.0))


def search(game, state, net, simulations, threads, seed, **params):
    """The C++ search's action with `net`, called as the ismcts bot calls it."""
    return _batch.ismcts_search(game.name, game.config_bytes(), game.state_size, game.version[0], state.to_bytes(),
                                simulations, 0.0, 0.3, 5.0, params["rollout"], threads, seed, 0, game.min_return,
                                game.max_return, params["guide"], net)[0]


@pytest.mark.parametrize("name", GAMES)
@seeded
@budget(12)
@given(data=st.data())
def test_guided_search_over_extreme_networks(name, data):
    RUNS["guided search: extreme networks"] += 1
    game = make(name, data.draw(st.sampled_from(sampled_configs(name)), label="options"))
    state = reachable(game, data.draw(st.integers(0, 2**31), label="deal"), data.draw(st.integers(0, 60), label="steps"))
    if state.is_terminal:
        return
    policy = data.draw(networks(game), label="network")
    net = native(policy)
    views = np.stack([np.asarray(state.observation(p), np.float32).ravel() for p in range(game.players)])
    masks = np.repeat(np.asarray(state.legal_mask(), np.uint8)[None], game.players, axis=0)
    finite = bool(np.isfinite(net.logits(views, masks)).all())
    if not finite:  # the attack: the priors would be NaN (counted, so that a run shows it was tried)
        RUNS["guided search: networks with logits of +-inf or NaN"] += 1
    for params in SEARCHES:
        simulations = data.draw(st.integers(1, 40), label="simulations")
        threads = data.draw(st.sampled_from([1, 1, 2]), label="threads")
        action = search(game, state, net, simulations, threads, data.draw(st.integers(0, 2**63), label="seed"),
                        **params)
        assert state.is_legal(action), (params, action)

    # the loader's bound: accepted means finite logits on every seat's view of this position
    low, high = game.observation_bounds
    try:
        check_bounded(policy, low, high, "fuzzed")
    except PolicyFileError as e:
        assert "fuzzed: layer" in str(e)
        return
    assert finite


@pytest.mark.parametrize("name", GAMES)
@seeded
@budget(6)
@given(data=st.data())
def test_non_finite_weights_never_get_in(name, data):
    """NaN or infinity anywhere in a network: the C++ network refuses it (ValueError), and so does
    the policy file's check."""
    RUNS["guided search: non-finite weights"] += 1
    from dimsum.baselines.policy_file import check

    game = make(name, sampled_configs(name)[0])
    policy = data.draw(networks(game), label="network")
    policy.observation_layout = [("all", 0, policy.observation_size)]
    bad = data.draw(st.sampled_from([np.nan, np.inf, -np.inf]), label="value")
    k = data.draw(st.integers(0, len(policy.layers) - 1), label="layer")
    where = data.draw(st.sampled_from(["weight", "bias"]), label="array")
    array = getattr(policy.layers[k], where)
    array.flat[data.draw(st.integers(0, array.size - 1), label="index")] = bad
    with pytest.raises(ValueError, match="not finite"):
        native(policy)
    with pytest.raises(PolicyFileError, match="not finite"):
        check(policy)
