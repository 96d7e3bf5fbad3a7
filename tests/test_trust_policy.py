"""A policy file from elsewhere (docs/BOTS.md, "Policy files from elsewhere"; docs/SECURITY.md):
what a hostile or broken one tries, and what it gets.

- Weights of 1e30 pass every format check (they are finite), but the logits overflow to +-inf and
  the priors of a guided search would be NaN: the loader refuses such a network, naming the
  file and the layer, for the policy bot and every guide alike; and a network that reaches the C++
  search anyway (straight through the binding) gets uniform priors and a legal move, never a
  write out of bounds.
- A FIFO, a device or a directory as the policy path: refused without being read (never blocks).
- A header nested thousands deep, or of the wrong JSON type, or with numbers past float range:
  a PolicyFileError, never a RecursionError or an OverflowError.
"""

import hashlib
import json
import os
import struct
import sys
import tempfile

import numpy as np
import pytest

import dimsum
import dimsum.bots
import processes
from dimsum import _batch
from dimsum.baselines import PolicyFileError, policy_file
from dimsum.baselines.policy_file import Layer, untrained

# the children import the dimsum this test imports
CHILD_ENV = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(dimsum.__file__))))
GAMES = dimsum.games()
# every way a policy network enters play: the policy bot, and ismcts guided or rolled out by it
USES = {
    "policy bot": dict(kind="policy"),
    "guide=policy": dict(kind="ismcts", guide="policy", simulations=40),
    "guide=policy_ucb": dict(kind="ismcts", guide="policy_ucb", simulations=40),
    "guide=policy_heuristic": dict(kind="ismcts", guide="policy_heuristic", simulations=40),
    "rollout=policy": dict(kind="ismcts", rollout="policy", simulations=20),
}
GUIDES = ["guide=policy", "guide=policy_ucb", "guide=policy_heuristic"]


def make_bot(game, weights, use):
    params = dict(USES[use])
    return dimsum.bots.make(params.pop("kind"), game, weights=str(weights), **params)


def overflowing(game, scale=1e30):
    """What a diverging training run writes: finite weights of magnitude `scale`, no saturating
    activation, so that two layers of them overflow float32 (1e30 * 1e30)."""
    policy = untrained(game, hidden=(16,), seed=0)
    for layer in policy.layers:
        layer.weight[:] = np.where(layer.weight >= 0, scale, -scale).astype(np.float32)
        layer.activation = "none"
    return policy


def native(policy):
    norm = policy.normalization or {}
    return _batch.PolicyNet(list(policy.inputs), policy.num_actions, policy.observation_size,
                            [(l.weight, l.bias, l.activation) for l in policy.layers],
                            norm.get("offset"), norm.get("scale"), norm.get("clip", 0.0))


def decision_states(game, count=3, seed=0):
    """A few decision nodes of a seeded random game (the deal, and later)."""
    rng = np.random.default_rng(seed)
    s, states = game.new_state(seed), []
    while not s.is_terminal and len(states) < count:
        states.append(s.clone())
        for _ in range(5):
            if s.is_terminal:
                break
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    return states


# --- networks that overflow -------------------------------------------------------------------

@pytest.mark.parametrize("use", list(USES))
@pytest.mark.parametrize("name", GAMES)
def test_an_overflowing_policy_file_is_refused_at_load_naming_the_file_and_the_layer(name, use, tmp_path):
    game = dimsum.make(name, players=2)
    path = tmp_path / "diverged.dspolicy"
    policy_file.write(path, overflowing(game))
    policy_file.read(path).check_game(game)  # every format check passes: the values are finite
    with pytest.raises(PolicyFileError, match=r"diverged\.dspolicy: layer \d .*more than the 1e\+30") as e:
        make_bot(game, path, use)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("name", GAMES)
def test_the_bound_is_per_layer_and_only_as_strict_as_it_must_be(name, tmp_path):
    """Large weights that cannot overflow on the game's observations play (tanh saturates: the last
    layer sees at most 1 per input); the same weights before a layer without activation do not."""
    game = dimsum.make(name, players=2)
    policy = untrained(game, hidden=(8,), seed=1)
    policy.layers[0].weight *= 1e6  # huge pre-activations, but tanh makes them +-1
    path = tmp_path / "big.dspolicy"
    policy_file.write(path, policy)
    for use in ("policy bot", "guide=policy"):
        s = game.new_state(3)
        assert s.is_legal(make_bot(game, path, use).act(s))
    policy.layers[1].weight *= 1e31  # now the logits can reach about 8 * 0.3 * 1e31: past the bound
    policy_file.write(path, policy)
    with pytest.raises(PolicyFileError, match="big.dspolicy: layer 1 "):
        make_bot(game, path, "guide=policy")


@pytest.mark.parametrize("guide", ["policy", "policy_ucb", "policy_heuristic"])
@pytest.mark.parametrize("name", GAMES)
def test_a_search_handed_an_overflowing_network_plays_a_legal_move(name, guide, tmp_path):
    """The network skips the loader (as anything calling the binding can): its logits are +-inf and
    NaN, the priors fall back to uniform, and every search returns a legal action. On the code
    before the fix: action -1 expanded, a heap-buffer-overflow in the tree, "double free or
    corruption"."""
    game = dimsum.make(name, players=2)
    path = tmp_path / "sane.dspolicy"
    policy_file.write(path, untrained(game, hidden=(8,)))
    bot = dimsum.bots.make("ismcts", game, simulations=60, guide=guide, weights=str(path))
    hostile = native(overflowing(game))
    probe = np.zeros((1, hostile.observation_size), np.float32), np.ones((1, game.num_actions), np.uint8)
    assert not np.isfinite(hostile.logits(*probe)).all()  # the attack is real
    bot._net = hostile
    for s in decision_states(game):
        assert s.is_legal(bot.act(s))


@pytest.mark.parametrize("name", GAMES)
def test_the_policy_bot_and_policy_rollouts_handed_an_overflowing_network_play_legal_moves(name, tmp_path):
    game = dimsum.make(name, players=2)
    path = tmp_path / "sane.dspolicy"
    policy_file.write(path, untrained(game, hidden=(8,)))
    bots = [dimsum.bots.make("policy", game, weights=str(path)),
            dimsum.bots.make("policy", game, weights=str(path), greedy=False),
            dimsum.bots.make("ismcts", game, simulations=20, rollout="policy", weights=str(path))]
    hostile = native(overflowing(game))
    for bot in bots:
        bot._net = hostile
        for s in decision_states(game):
            assert s.is_legal(bot.act(s))


def test_non_finite_values_never_get_into_a_network():
    game = dimsum.make("pig", players=2)
    for bad in (np.nan, np.inf, -np.inf):
        policy = untrained(game, hidden=(4,))
        policy.layers[1].bias[2] = bad
        with pytest.raises(PolicyFileError, match="layer 1 has a value that is not finite"):
            policy_file.check(policy)
        with pytest.raises(ValueError, match="layer 1 bias has a value that is not finite"):
            native(policy)


# --- paths that are not regular files -----------------------------------------------------------

# Each attack in a child process with a timeout: on the code before the fix, opening a FIFO blocks
# until a writer comes, forever.
ATTACK = """
import sys, dimsum, dimsum.bots
from dimsum.baselines import policy_file
path, how = sys.argv[1], sys.argv[2]
game = dimsum.make("nice_buns", players=2)
try:
    if how == "read":
        policy_file.read(path)
    elif how == "policy":
        dimsum.bots.make("policy", game, weights=path)
    else:
        dimsum.bots.make("ismcts", game, guide="policy", weights=path)
except ValueError as e:
    print(type(e).__name__, e)
"""


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "policy.fifo"
    os.mkfifo(path)
    return path


def refused_in_time(path, how):
    done = processes.run([sys.executable, "-c", ATTACK, str(path), how], capture_output=True, text=True, timeout=60,
                         env=CHILD_ENV)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("how", ["read", "policy", "ismcts"])
def test_a_fifo_as_a_policy_path_is_refused_without_blocking(fifo, how):
    assert "PolicyFileError" in refused_in_time(fifo, how) and "not a regular file" in refused_in_time(fifo, how)


@pytest.mark.parametrize("target", ["/dev/zero", "directory", "too large"])
def test_a_device_a_directory_or_a_huge_file_is_refused(tmp_path, target):
    if target == "directory":
        target = tmp_path
    elif target == "too large":
        target = tmp_path / "huge.dspolicy"
        with open(target, "wb") as f:
            f.truncate(policy_file.MAX_BYTES + 1)  # sparse: no disk used
    elif not os.path.exists(target):
        pytest.skip("no /dev/zero here")
    out = refused_in_time(target, "read")
    assert "PolicyFileError" in out and ("regular file" in out or "more than the" in out), out


def test_train_resume_from_a_fifo_is_a_usage_error_not_a_hang(fifo, tmp_path):
    done = processes.run([sys.executable, "-m", "dimsum.baselines.train", "pig", "--resume", str(fifo),
                          "--out", str(tmp_path / "run")], capture_output=True, text=True, timeout=60,
                         env=CHILD_ENV)
    assert done.returncode == 2 and "not a regular file" in done.stderr, done.stderr


# --- headers from elsewhere ---------------------------------------------------------------------

def with_header(header_text, payload=b""):
    """A policy file's bytes with this header text, its checksum right (so the header is parsed)."""
    head = header_text.encode("utf-8")
    body = struct.pack("<8sII", policy_file.MAGIC, policy_file.FORMAT_VERSION, len(head)) + head + payload
    return body + hashlib.sha256(body).digest()


def real_header(game):
    """The header text and payload of a real policy file for `game`, to be tampered with."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "p.dspolicy")
        policy_file.write(path, untrained(game, hidden=(4,)))
        with open(path, "rb") as f:
            raw = f.read()
    _, _, n = struct.unpack_from("<8sII", raw)
    return raw[16:16 + n].decode("utf-8"), raw[16 + n:-32]


@pytest.mark.parametrize("depth", [65, 1000, 100_000])
def test_a_deeply_nested_header_is_a_policy_file_error(depth, tmp_path):
    game = dimsum.make("pig", players=2)
    header, payload = real_header(game)
    nested = header[:-1].rstrip() + ', "x": ' + "[" * depth + "]" * depth + "}"
    path = tmp_path / "deep.dspolicy"
    path.write_bytes(with_header(nested, payload))
    with pytest.raises(PolicyFileError, match=f"deep.dspolicy .*nests {depth + 1} levels deep"):  # + the header's
        policy_file.read(path)
    with pytest.raises(PolicyFileError, match="nests"):
        dimsum.bots.make("policy", game, weights=str(path))


@pytest.mark.parametrize("tamper", [
    lambda h: "[1, 2, 3]",                                                       # not an object
    lambda h: "null",
    lambda h: h.replace('"game_version": [', '"game_version": [1e400, '),         # inf as a version
    lambda h: h.replace('"num_actions": ', '"num_actions": 1e400, "_": '),       # inf as a count
    lambda h: h.replace('"arrays": [', '"arrays": [["huge", [1e400]], '),        # inf as a shape
    lambda h: h.replace('"arrays": [', '"arrays": [["huge", [4294967296, 4294967296, 4294967296]], '),
    lambda h: h.replace('"arrays": [', '"arrays": [["neg", [-1]], '),
    lambda h: h.replace('"layers": [', '"layers": [7, '),
    lambda h: h + "x" * 100,
], ids=["list", "null", "inf-version", "inf-count", "inf-shape", "overflowing-shape", "negative-shape",
        "layer-not-object", "trailing-junk"])
def test_a_tampered_header_is_a_policy_file_error(tamper, tmp_path):
    game = dimsum.make("pig", players=2)
    header, payload = real_header(game)
    assert json.loads(header)  # the untampered one parses
    path = tmp_path / "tampered.dspolicy"
    path.write_bytes(with_header(tamper(header), payload))
    with pytest.raises(PolicyFileError, match="tampered.dspolicy is not a usable dimsum policy file"):
        policy_file.read(path)
