"""The golden program's Python twin: the same seeded games through the Python API give the digests
committed in tests/golden_cpp/expected.txt (made on x86_64; the C++ program, golden.cpp, checks them
on aarch64, s390x, Windows and clang + libc++ in .ci/golden).

Each step's keys digest covers the player to act, the legal actions, the action chosen, the state's
bytes as to_bytes writes them (after its header) and the Zobrist key: so every wheel, which runs
this file first in its smoke test ([tool.cibuildwheel] test-command), proves on the machine it was
built for that a seed gives the same game, the same bytes and the same keys as everywhere else
(docs/ARCHITECTURE.md, "Byte order").
"""

from __future__ import annotations

import json
import pickle
import struct
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import dimsum
from dimsum.reference.rng import splitmix64

GOLDEN = Path(__file__).resolve().parent / "golden_cpp"
MAX_STEPS = 120  # golden.cpp's kMaxSteps
HEADER = 24      # to_bytes' header (common/state_bytes.hpp)


def _configs() -> List[Tuple[str, str, int, Dict, List[int]]]:
    rows = []
    for line in (GOLDEN / "configs.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        label, game, seed, options, n, *values = line.split()
        assert len(values) == int(n), label
        rows.append((label, game, int(seed), json.loads(options), [int(v) for v in values]))
    return rows


def _expected() -> Dict[Tuple[str, str], int]:
    out = {}
    for line in (GOLDEN / "expected.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            label, step, keys, _all = line.split()
            out[(label, step)] = int(keys, 16)
    return out


CONFIGS = _configs()
EXPECTED = _expected()


def fnv1a64(data: bytes, h: int = 0xCBF29CE484222325) -> int:
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def keys_digest(state, legal: List[int], action: int) -> int:
    """golden.cpp's keys_digest, from the Python API."""
    data = struct.pack("<ii", state.current_player, len(legal)) + struct.pack(f"<{len(legal)}h", *legal)
    data += struct.pack("<i", action) + state.to_bytes()[HEADER:] + struct.pack("<Q", state.hash)
    return fnv1a64(data)


def trace(game, seed: int):
    """(step, keys digest, state) along golden.cpp's game: legal[splitmix64(seed ^ step) % n]."""
    state = game.new_state(seed)
    for step in range(MAX_STEPS + 1):
        legal = state.legal_actions()
        over = not legal or step == MAX_STEPS
        action = -1 if over else legal[splitmix64(seed ^ step) % len(legal)]
        yield step, keys_digest(state, legal, action), state
        if over:
            return
        state.apply(action)


@pytest.mark.parametrize("label, name, seed, options, values", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_seeded_games_give_the_committed_keys_and_bytes(label, name, seed, options, values):
    game = dimsum.make(name, **options)
    assert list(game.config_values) == values, f"{label}: configs.txt is stale (tests/golden_cpp/make_configs.py)"
    steps = 0
    for step, digest, _ in trace(game, seed):
        expected = EXPECTED.get((label, str(step)))
        assert digest == expected, (f"configuration {label} ({name}, seed {seed}): first differing step {step}: "
                                    f"keys digest {digest:016x}, expected {expected}")
        steps += 1
    assert steps == sum(1 for (lab, step) in EXPECTED if lab == label and step.isdigit()), label


def test_a_digest_mismatch_is_seen():
    """The comparison above can fail: one flipped byte of the state changes the step's digest."""
    label, name, seed, options, _ = CONFIGS[0]
    _, digest, state = next(trace(dimsum.make(name, **options), seed))
    flipped = bytearray(state.to_bytes())
    flipped[HEADER + 40] ^= 1  # inside the key (after the 32-byte generator)
    assert fnv1a64(bytes(flipped[HEADER:])) != fnv1a64(state.to_bytes()[HEADER:])
    assert digest == EXPECTED[(label, "0")]


def _written_on_x86_64():
    """states.bin: the states golden.cpp wrote on x86_64 (every 10th step of each configuration),
    as records of the label's length (1 byte), the label, the step (4 bytes, little-endian) and
    the state's bytes as to_bytes writes them after its header."""
    data = (GOLDEN / "states.bin").read_bytes()
    sizes = {label: dimsum.make(name, **options).state_size for label, name, _, options, _ in CONFIGS}
    at = 0
    while at < len(data):
        label = data[at + 1:at + 1 + data[at]].decode()
        at += 1 + len(label)
        (step,) = struct.unpack_from("<I", data, at)
        yield label, step, data[at + 4:at + 4 + sizes[label]]
        at += 4 + sizes[label]


def test_states_written_on_x86_64_load_here_as_the_same_positions():
    """Bytes from another machine load on this one (ARCHITECTURE 5a): each state x86_64 wrote is
    accepted by state_from_bytes here, and gives the keys digest of its step."""
    games = {label: (dimsum.make(name, **options), seed) for label, name, seed, options, _ in CONFIGS}
    loaded = 0
    for label, step, body in _written_on_x86_64():
        game, seed = games[label]
        state = game.state_from_bytes(game.new_state(0).to_bytes()[:HEADER] + body)
        legal = state.legal_actions()
        action = -1 if not legal or step == MAX_STEPS else legal[splitmix64(seed ^ step) % len(legal)]
        assert keys_digest(state, legal, action) == EXPECTED[(label, str(step))], (label, step)
        assert state.to_bytes()[HEADER:] == body
        loaded += 1
    assert loaded == sum(1 for (_, step) in EXPECTED if step.isdigit() and int(step) % 10 == 0)


@pytest.mark.parametrize("name", dimsum.games())
def test_the_header_is_little_endian_on_every_host(name):
    """to_bytes' header: "DSUM", format 1, game id, state version, state size, the config's
    fingerprint, each little-endian whatever the host (common/state_bytes.hpp)."""
    game = dimsum.make(name)
    data = game.new_state(5).to_bytes()
    magic, fmt, _game_id, version, size, _fingerprint = struct.unpack("<4sHHIIQ", data[:HEADER])
    assert (magic, fmt, version, size) == (b"DSUM", 1, game.version[0], game.state_size)
    assert len(data) == HEADER + game.state_size


@pytest.mark.parametrize("label, name, seed, options, values", CONFIGS[:4:2], ids=[c[0] for c in CONFIGS[:4:2]])
def test_state_bytes_and_pickles_keep_their_bytes(label, name, seed, options, values):
    """A state from bytes (or a pickle) writes back the very bytes it was read from."""
    game = dimsum.make(name, **options)
    for step, _, state in trace(game, seed):
        if step % 10 == 0:
            data = state.to_bytes()
            assert game.state_from_bytes(data).to_bytes() == data
            assert pickle.loads(pickle.dumps(state)).to_bytes() == data
