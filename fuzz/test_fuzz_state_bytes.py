"""state_from_bytes of arbitrary bytes and of mutated valid bytes: a ValueError/TypeError, or a
state that passes check(), whose to_dict() round-trips through state_from_dict, and from
which every action and every resample leads to valid states (fuzzlib.check_accepted)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzlib import ALLOWED, GAMES, RUNS, Finding, budget, check_accepted, configs, make, positions, seeded, \
    tolerate_known


def load(game, data):
    """The state, or None if refused (with an allowed exception only)."""
    try:
        return game.state_from_bytes(data)
    except ALLOWED:
        return None


def verify(game, state):
    if state is None:
        return
    try:
        check_accepted(state)
    except Finding as failure:
        tolerate_known(game, state.fields(), failure)


@pytest.mark.parametrize("name", GAMES)
@seeded
@budget(60)
@given(data=st.data())
def test_arbitrary_bytes(name, data):
    """Any bytes: of any length, or of the right length behind a valid header (so that the
    validator, not the header check, reads them)."""
    RUNS["state_bytes: arbitrary"] += 1
    game = make(name, data.draw(st.sampled_from(configs(name)), label="options"))
    header_len = len(game.new_state(0).to_bytes()) - game.state_size
    header = game.new_state(0).to_bytes()[:header_len]
    blob = data.draw(st.one_of(
        st.binary(max_size=2 * (header_len + game.state_size)),
        st.binary(min_size=game.state_size, max_size=game.state_size).map(lambda body: header + body),
        st.sampled_from([header + bytes(game.state_size), header + b"\xff" * game.state_size]),
    ), label="bytes")
    as_type = data.draw(st.sampled_from([bytes, bytearray, memoryview]), label="type")
    verify(game, load(game, as_type(blob)))


# byte mutations of a valid encoding
def mutate(data, blob: bytes, header_len: int) -> bytes:
    b = bytearray(blob)
    for _ in range(data.draw(st.integers(1, 6), label="mutations")):
        kind = data.draw(st.sampled_from(["flip", "set", "special", "swap", "body_only"]), label="kind")
        lo = header_len if kind == "body_only" else 0
        i = data.draw(st.integers(lo, len(b) - 1), label="at")
        if kind in ("flip", "body_only"):
            b[i] ^= 1 << data.draw(st.integers(0, 7), label="bit")
        elif kind == "set":
            b[i] = data.draw(st.integers(0, 255), label="byte")
        elif kind == "special":
            b[i] = data.draw(st.sampled_from([0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF]), label="byte")
        else:
            j = data.draw(st.integers(0, len(b) - 1), label="with")
            b[i], b[j] = b[j], b[i]
    if data.draw(st.integers(0, 15), label="resize") == 0:  # now and then: truncated or extended
        cut = data.draw(st.integers(0, len(b) + 8), label="length")
        b = b[:cut] if cut <= len(b) else b + bytes(cut - len(b))
    return bytes(b)


@pytest.mark.parametrize("name", GAMES)
@seeded
@budget(80)
@given(data=st.data())
def test_mutated_valid_bytes(name, data):
    RUNS["state_bytes: mutated valid"] += 1
    game, state = data.draw(positions(name), label="position")
    blob = state.to_bytes()
    mutated = mutate(data, blob, len(blob) - game.state_size)
    verify(game, load(game, mutated))
