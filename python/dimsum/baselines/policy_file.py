"""The policy file (``.dspolicy``, docs/BASELINES.md): a small MLP policy for one game and
configuration, read and written here without torch, and refused with a clear error when it is
corrupt or made for another game, configuration or observation layout.

Layout, little-endian::

    b"DSPOLICY"                  8 bytes, the magic
    uint32 format version        FORMAT_VERSION
    uint32 header length         n
    header                       n bytes of UTF-8 JSON (below)
    payload                      the float32 arrays the header lists, in its order, C order
    sha256                       32 bytes: the digest of everything before it

The header says what the network is for and what it is: ``game``, ``options`` (the game's
options, ``chance`` left out: it does not change what a seat sees or may do), ``game_version``,
``num_actions``, ``observation`` (its size and slice layout), ``inputs`` (the parts of the
network's input, concatenated in this order: ``"action_mask"``, the legal actions as 0/1, and
``"observation"``, the acting seat's observation), ``normalization`` (null, or
``{"offset", "scale", "clip"}`` naming arrays: the observation becomes
``clip((obs - offset) * scale, -clip, clip)`` before it enters), ``layers`` (dense layers in
order, each ``{"weight", "bias", "activation"}``: weight ``(out, in)`` as torch stores it;
activation ``"tanh"``, ``"relu"`` or ``"none"``, the last layer giving one logit per action),
``arrays`` (``[name, shape]`` in payload order) and ``source`` (free text: how it was made).
"""

from __future__ import annotations

import hashlib
import json
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .._files import parse_json, read_regular

MAGIC = b"DSPOLICY"
FORMAT_VERSION = 1
INPUTS = ("action_mask", "observation")
ACTIVATIONS = ("tanh", "relu", "none")
# Options that change neither what a seat sees nor what it may do: a policy plays under any of them.
# "reward" (Yum Cha's win_share or score, docs/rules/yum_cha.md) changes only returns(): a policy
# trained on the dense point totals plays the default game (tests/test_baselines_training.py).
NEUTRAL_OPTIONS = ("chance", "reward")
_PREFIX = struct.Struct("<8sII")
_DIGEST = 32
MAX_BYTES = 64 << 20  # far above any policy this format is for; a bigger file is not one


class PolicyFileError(ValueError):
    """A policy file that is corrupt, of another format version, or made for another game."""


@dataclass
class Layer:
    weight: np.ndarray  # float32 (out, in)
    bias: np.ndarray  # float32 (out,)
    activation: str


@dataclass
class Policy:
    """A loaded policy file: what it is for (``game``, ``options``, ...) and its arrays."""

    game: str
    options: Dict[str, Any]
    game_version: Tuple[int, int]
    num_actions: int
    observation_size: int
    observation_layout: List[Tuple[str, int, int]]
    inputs: Tuple[str, ...]
    layers: List[Layer]
    normalization: Optional[Dict[str, Any]] = None  # {"offset": array, "scale": array, "clip": float}
    source: str = ""
    extra: Dict[str, Any] = field(default_factory=dict)

    @property
    def input_size(self) -> int:
        return sum(self.num_actions if part == "action_mask" else self.observation_size for part in self.inputs)

    def check_game(self, game: Any) -> None:
        """PolicyFileError unless this policy was made for ``game`` (a Game from dimsum.make):
        the same game, options (NEUTRAL_OPTIONS aside), rules version, actions and observation layout."""
        what = f"this policy was made for {self.game} {describe(self.options)}"
        if game.name != self.game:
            raise PolicyFileError(f"{what}, not for {game.name}")
        theirs, mine = comparable_options(game.options), comparable_options(self.options)  # a file may name a neutral one
        differ = sorted(k for k in set(theirs) | set(mine) if theirs.get(k) != mine.get(k))
        if differ:
            detail = ", ".join(f"{k}: policy {mine.get(k)!r}, game {theirs.get(k)!r}" for k in differ)
            raise PolicyFileError(f"{what}; the game's options differ ({detail}): make the game with the "
                                  f"policy's options, or train a policy for these")
        if tuple(game.version) != self.game_version:
            raise PolicyFileError(f"{what} at rules version {self.game_version}; this build's {game.name} is at "
                                  f"{tuple(game.version)}: retrain or re-export it")
        if game.num_actions != self.num_actions or layout_of(game) != self.observation_layout:
            raise PolicyFileError(f"{what} with {self.num_actions} actions and observation layout "
                                  f"{self.observation_layout}; this build's has {game.num_actions} actions and "
                                  f"{layout_of(game)}: retrain or re-export it")


def comparable_options(options: Dict[str, Any]) -> Dict[str, Any]:
    """The options a policy must match: all but NEUTRAL_OPTIONS, as JSON would give them back."""
    return json.loads(json.dumps({k: v for k, v in options.items() if k not in NEUTRAL_OPTIONS}, sort_keys=True))


def describe(options: Dict[str, Any]) -> str:
    return "(" + ", ".join(f"{k}={v!r}" for k, v in sorted(options.items())) + ")"


def layout_of(game: Any) -> List[Tuple[str, int, int]]:
    return [(s.name, int(s.start), int(s.stop)) for s in game.observation_layout]


def untrained(game: Any, hidden: Sequence[int] = (64, 64), seed: int = 0) -> Policy:
    """A policy for ``game`` with small random weights (a uniformly random player, near enough):
    what a game without a trained policy can play, and what a test of the machinery needs."""
    rng = np.random.default_rng(seed)
    size = int(np.prod(game.observation_shape))
    widths = [game.num_actions + size, *hidden, game.num_actions]
    layers = [Layer((rng.standard_normal((o, i)) / np.sqrt(i)).astype(np.float32), np.zeros(o, np.float32),
                    "tanh" if k < len(widths) - 2 else "none")
              for k, (i, o) in enumerate(zip(widths[:-1], widths[1:]))]
    return Policy(game=game.name, options=comparable_options(game.options), game_version=tuple(game.version),
                  num_actions=game.num_actions, observation_size=size, observation_layout=layout_of(game),
                  inputs=INPUTS, layers=layers, source=f"untrained, seed {seed}")


def write(path: Union[str, Path], policy: Policy) -> None:
    """Writes ``policy`` to ``path`` (atomically; never through a symbolic link)."""
    from .._files import write_atomically

    check(policy)
    arrays: List[Tuple[str, np.ndarray]] = []
    layers = []
    for i, layer in enumerate(policy.layers):
        arrays += [(f"layer{i}.weight", layer.weight), (f"layer{i}.bias", layer.bias)]
        layers.append({"weight": f"layer{i}.weight", "bias": f"layer{i}.bias", "activation": layer.activation})
    normalization = None
    if policy.normalization is not None:
        arrays += [("obs.offset", policy.normalization["offset"]), ("obs.scale", policy.normalization["scale"])]
        normalization = {"offset": "obs.offset", "scale": "obs.scale", "clip": float(policy.normalization["clip"])}
    header = {
        "format": "dimsum-policy", "game": policy.game, "options": policy.options,
        "game_version": list(policy.game_version), "num_actions": policy.num_actions,
        "observation": {"size": policy.observation_size, "layout": [list(s) for s in policy.observation_layout]},
        "inputs": list(policy.inputs), "normalization": normalization, "layers": layers,
        "arrays": [[name, list(a.shape)] for name, a in arrays], "source": policy.source, **policy.extra,
    }
    head = json.dumps(header, sort_keys=True, indent=1).encode("utf-8")
    body = _PREFIX.pack(MAGIC, FORMAT_VERSION, len(head)) + head + b"".join(
        np.ascontiguousarray(a, dtype="<f4").tobytes() for _, a in arrays)
    write_atomically(Path(path), body + hashlib.sha256(body).digest())


def read(path: Union[str, Path]) -> Policy:
    """The policy in ``path``; PolicyFileError if it is not a whole, consistent policy file of this
    format version, or not a regular file of at most MAX_BYTES (a FIFO or a device is refused
    without being read: it never blocks), OSError if it cannot be opened."""
    try:
        data = read_regular(path, "the policy file", MAX_BYTES)
    except ValueError as e:  # not a regular file, or too large (an OSError passes as it is)
        raise PolicyFileError(str(e)) from None
    return parse(data, str(path))


def parse(data: bytes, name: str = "<bytes>") -> Policy:
    """The policy in ``data`` (a policy file's bytes); PolicyFileError naming what is wrong."""
    def fail(why: str) -> PolicyFileError:
        return PolicyFileError(f"{name} is not a usable dimsum policy file: {why}")

    if len(data) > MAX_BYTES:
        raise fail(f"it is larger than {MAX_BYTES} bytes")
    if len(data) < _PREFIX.size + _DIGEST or data[:8] != MAGIC:
        raise fail(f"it does not start with {MAGIC!r} (write one with dimsum.baselines.export_sb3)")
    _, version, head_len = _PREFIX.unpack_from(data)
    if version != FORMAT_VERSION:
        raise fail(f"it is format version {version}; this dimsum reads version {FORMAT_VERSION}")
    body, digest = data[:-_DIGEST], data[-_DIGEST:]
    if hashlib.sha256(body).digest() != digest:
        raise fail("its sha256 checksum does not match its contents (the file is damaged or truncated)")
    try:
        # bounded nesting: a header from elsewhere nested thousands deep is a ValueError, never a RecursionError
        header = parse_json(body[_PREFIX.size:_PREFIX.size + head_len], "its header")
        if not isinstance(header, dict):
            raise TypeError(f"the header is a JSON {type(header).__name__}, not an object")
        arrays = _arrays(header["arrays"], body[_PREFIX.size + head_len:])
        layers = [Layer(arrays[l["weight"]], arrays[l["bias"]], l["activation"]) for l in header["layers"]]
        norm = header["normalization"]
        normalization = None if norm is None else {
            "offset": arrays[norm["offset"]], "scale": arrays[norm["scale"]], "clip": float(norm["clip"])}
        known = {"format", "game", "options", "game_version", "num_actions", "observation", "inputs",
                 "normalization", "layers", "arrays", "source"}
        policy = Policy(
            game=str(header["game"]), options=dict(header["options"]),
            game_version=(int(header["game_version"][0]), int(header["game_version"][1])),
            num_actions=int(header["num_actions"]), observation_size=int(header["observation"]["size"]),
            observation_layout=[(str(n), int(a), int(b)) for n, a, b in header["observation"]["layout"]],
            inputs=tuple(header["inputs"]), layers=layers, normalization=normalization,
            source=str(header.get("source", "")), extra={k: v for k, v in header.items() if k not in known})
    except PolicyFileError as e:  # an array that does not fit: said with the file's name
        raise fail(str(e)) from None
    except (KeyError, TypeError, ValueError, IndexError, OverflowError) as e:  # parse_json's ValueError included
        raise fail(f"its header is malformed ({type(e).__name__}: {e})") from None
    try:
        check(policy)
    except PolicyFileError as e:
        raise fail(str(e)) from None
    return policy


def _arrays(listing: Sequence[Any], payload: bytes) -> Dict[str, np.ndarray]:
    arrays: Dict[str, np.ndarray] = {}
    offset = 0
    for name, shape in listing:
        # the dimensions as Python ints (no int64 overflow in their product), each a count
        if not isinstance(shape, list) or not all(isinstance(d, int) and not isinstance(d, bool) for d in shape):
            raise PolicyFileError(f"array {name!r}: its shape {str(shape)[:80]} is not a list of whole numbers")
        count = 1
        for d in shape:
            count *= d
        if any(d < 0 for d in shape) or offset + 4 * count > len(payload):
            raise PolicyFileError(f"array {name!r} of shape {shape} runs past the end of the payload")
        arrays[str(name)] = np.frombuffer(payload, "<f4", count, offset).reshape(shape).astype(np.float32)
        offset += 4 * count
    if offset != len(payload):
        raise PolicyFileError(f"the payload has {len(payload) - offset} bytes that no array claims")
    return arrays


def check(policy: Policy) -> None:
    """PolicyFileError unless the network's shapes chain from its input to one logit per action."""
    if not policy.inputs or any(part not in INPUTS for part in policy.inputs) or len(set(policy.inputs)) != len(policy.inputs):
        raise PolicyFileError(f"inputs {list(policy.inputs)}: each of {list(INPUTS)} at most once, at least one")
    if policy.observation_layout and policy.observation_layout[-1][2] != policy.observation_size:
        raise PolicyFileError(f"the observation layout ends at {policy.observation_layout[-1][2]}, "
                              f"not at its size {policy.observation_size}")
    if not policy.layers:
        raise PolicyFileError("the network has no layer")
    width = policy.input_size
    for i, layer in enumerate(policy.layers):
        if layer.activation not in ACTIVATIONS:
            raise PolicyFileError(f"layer {i}: activation {layer.activation!r}; one of {list(ACTIVATIONS)}")
        if layer.weight.ndim != 2 or layer.weight.shape[1] != width or layer.bias.shape != (layer.weight.shape[0],):
            raise PolicyFileError(f"layer {i}: weight {layer.weight.shape} and bias {layer.bias.shape} do not take "
                                  f"{width} inputs (weight must be (out, {width}), bias (out,))")
        if not (np.isfinite(layer.weight).all() and np.isfinite(layer.bias).all()):
            raise PolicyFileError(f"layer {i} has a value that is not finite")
        width = layer.weight.shape[0]
    if width != policy.num_actions or policy.layers[-1].activation != "none":
        raise PolicyFileError(f"the last layer must give {policy.num_actions} logits (one per action) with "
                              f"activation 'none'; it gives {width} with {policy.layers[-1].activation!r}")
    norm = policy.normalization
    if norm is not None:
        for key in ("offset", "scale"):
            a = norm[key]
            if a.shape != (policy.observation_size,) or not np.isfinite(a).all():
                raise PolicyFileError(f"normalization {key} must be {policy.observation_size} finite values, "
                                      f"got shape {a.shape}")
        if not (np.isfinite(norm["clip"]) and norm["clip"] > 0):
            raise PolicyFileError(f"normalization clip must be a positive number, got {norm['clip']}")


# The largest magnitude any sum of the network may reach, by check_bounded's bound: far above what
# a trained network computes (its logits are tens), and a factor 10^8 below float32's largest
# (3.4e38), so that the C++ network, which sums in float32 and in another grouping (its first
# layer's bias holds the input at zero: policy_net.hpp, obs_at_zero), can never overflow.
MAX_ACTIVATION = 1e30


def check_bounded(policy: Policy, low: Any, high: Any, name: str = "the policy") -> None:
    """PolicyFileError (a ValueError) naming ``name`` and the layer, unless no input the game can
    give makes a sum of the network larger than MAX_ACTIVATION in magnitude: ``low``/``high``, the
    game's observation bounds (``game.observation_bounds``), the legal mask in [0, 1].

    Interval arithmetic in float64 on magnitudes: with |x_i| <= m_i, every partial sum of layer k's
    output o is at most |b_o| + sum_i |W_oi| m_i; tanh bounds its output by 1, relu and none by
    the sum's bound. (The C++ network's centred first layer sums at most three times that.) A network that passes computes only finite logits on every observation
    within the bounds, so its priors are a distribution; one that fails (a weight of 1e30, a
    diverged training run) would overflow to +-inf and NaN on some of them, and is refused here,
    at load, rather than fall back to uniform priors in the middle of a search."""
    low, high = np.asarray(low, np.float64), np.asarray(high, np.float64)
    if low.shape != (policy.observation_size,) or high.shape != (policy.observation_size,):
        raise PolicyFileError(f"{name}: the game's observation bounds have shape {low.shape}, not "
                              f"({policy.observation_size},)")
    # the observation's magnitude, over [low, high] and 0: the C++ network feeds x less the input
    # of an all-zero observation and adds that one's sums to the first bias, both bounded by these
    ends = (low, high, np.zeros_like(low))
    norm = policy.normalization
    if norm is not None:  # clip((x - offset) * scale, -clip, clip) is monotonic in x: its ends bound it
        offset, scale = norm["offset"].astype(np.float64), norm["scale"].astype(np.float64)
        ends = tuple(np.clip((end - offset) * scale, -float(norm["clip"]), float(norm["clip"])) for end in ends)
    obs = np.max(np.abs(np.stack(ends)), axis=0)
    with np.errstate(over="ignore", invalid="ignore"):
        m = np.concatenate([np.ones(policy.num_actions) if part == "action_mask" else obs for part in policy.inputs])
        for i, layer in enumerate(policy.layers):
            w = np.abs(layer.weight.astype(np.float64))
            sums = w @ m + np.abs(layer.bias.astype(np.float64))
            worst = float(np.max(sums)) if sums.size else 0.0
            if not worst <= MAX_ACTIVATION:  # NaN too
                raise PolicyFileError(
                    f"{name}: layer {i} ({layer.activation}) can reach {worst:.3g} in magnitude on an observation "
                    f"within the game's bounds, more than the {MAX_ACTIVATION:.0e} a policy may reach (float32 "
                    f"overflows to infinity at 3.4e38: a diverged training run?); refused, as a search or a move "
                    f"would have no probabilities to go by")
            m = np.minimum(sums, 1.0) if layer.activation == "tanh" else sums
