"""The structure-aware mutator: a reachable state's declared fields (``state.fields()``; their
shapes and bounds from ``game.state_fields``) with one to a few values changed WITHIN their
declared bounds, so that the mutation gets past the schema and reaches the game's validator
(``game.state_from_fields`` recomputes the key). Then THE INVARIANT:

- the fields and the readable dict of the same position get the same verdict: state_from_fields
  accepts exactly when state_from_dict (of the dict the game's codec makes of those fields)
  accepts, and then both give the same state;
- an accepted state's to_bytes() is accepted by state_from_bytes (the same state), its to_dict()
  by state_from_dict, its fields() by state_from_fields;
- every state one legal action or one resample(p, seed) (every p, a few seeds) away from an
  accepted state passes check(), and every observation of them is within its declared bounds.

A failure on a state that shows a known finding (fuzzlib.KNOWN_FINDINGS) is counted, not failed.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzlib import GAMES, MASK64, RUNS, Finding, budget, check_accepted, deep_copy, game_module, positions, \
    same, seeded, tolerate_known


def flat_get(value, shape, i):
    if not shape:
        return value
    if len(shape) == 1:
        return value[i]
    return value[i // shape[1]][i % shape[1]]


def flat_set(fields, spec, i, v):
    if not spec.shape:
        fields[spec.name] = v
    elif len(spec.shape) == 1:
        fields[spec.name][i] = v
    else:
        fields[spec.name][i // spec.shape[1]][i % spec.shape[1]] = v


def mutate(data, game, fields):
    """Changes 1-4 values of ``fields`` (a deep copy), each within its field's declared bounds,
    biased to the bounds and to the neighbours of the current value. Returns (fields, what)."""
    specs = [f for f in game.state_fields if f.size > 0]
    fields = deep_copy(fields)
    what = []
    for _ in range(data.draw(st.integers(1, 4), label="mutations")):
        spec = data.draw(st.sampled_from(specs), label="field")
        i = data.draw(st.integers(0, spec.size - 1), label="index")
        old = flat_get(fields[spec.name], spec.shape, i)
        lo, hi = (0, MASK64) if spec.word else (spec.lo, spec.hi)
        near = [v for v in (lo, hi, old - 1, old + 1, lo + 1, hi - 1, 0, -1) if lo <= v <= hi and v != old]
        choices = [st.integers(lo, hi)]
        if near:
            choices.append(st.sampled_from(near))
        if spec.word:  # a bit pattern: flip a bit or two
            choices.append(st.integers(0, 63).map(lambda b: old ^ (1 << b)))
        new = data.draw(st.one_of(*choices), label="value")
        flat_set(fields, spec, i, new)
        what.append(f"{spec.name}[{i}]: {old} -> {new}")
    return fields, what


def verdict(make_state):
    try:
        return make_state(), None
    except ValueError as e:
        return None, str(e)


@pytest.mark.parametrize("name", GAMES)
@seeded
@budget(250)
@given(data=st.data())
def test_structure_aware_mutations(name, data):
    RUNS["structure-aware: fields within bounds"] += 1
    game, state = data.draw(positions(name), label="position")
    original = state.fields()
    fields, what = mutate(data, game, original)
    try:
        check_invariant(game, fields, what)
    except Finding as failure:
        tolerate_known(game, fields, failure, lambda f: check_invariant(game, f, what + ["(known finding's fields restored)"]),
                       original)


def check_invariant(game, fields, what):
    by_fields, fields_error = verdict(lambda: game.state_from_fields(fields))
    try:
        d = game_module(game).dict_from_fields(game.spec, fields)
    except Exception as e:  # the codec cannot show these fields: only allowed for a refused position
        if by_fields is not None:
            raise Finding(f"{what}: accepted, but its dict cannot be made: {type(e).__name__}: {e}") from None
        d = None
    if d is not None:
        by_dict, dict_error = verdict(lambda: game.state_from_dict(d))
        if by_fields is not None and by_dict is None:
            raise Finding(f"{what}: state_from_fields accepts, state_from_dict refuses: {dict_error}")
        if by_fields is not None and not same(by_fields, by_dict):
            raise Finding(f"{what}: state_from_fields and state_from_dict give different states")
        if by_fields is None and by_dict is not None and by_dict.fields() == fields:
            raise Finding(f"{what}: state_from_dict accepts the position state_from_fields refuses: {fields_error}")
    if by_fields is None:
        return
    # accepted: its encodings are accepted too, and everything one step away is valid
    check_accepted(by_fields, resample_seeds=(1, 2, 3))
