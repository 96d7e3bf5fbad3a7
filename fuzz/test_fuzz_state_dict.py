"""state_from_dict of mutated valid dicts (values replaced by junk of every type, at the top or
deep inside, keys dropped or added): ValueError/TypeError only, never another exception; a
dict that is accepted gives a state that passes fuzzlib.check_accepted."""

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzlib import ALLOWED, GAMES, RUNS, Finding, budget, check_accepted, junk, positions, seeded, tolerate_known


def containers(value, path=()):
    """Every (path, container) inside a dict value: the places a mutation may go."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (dict, list)):
                yield from containers(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if isinstance(v, (dict, list)):
                yield from containers(v, path + (i,))


def mutate(data, d):
    d = copy.deepcopy(d)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        places = list(containers(d))
        _, box = data.draw(st.sampled_from(places), label="where")
        kind = data.draw(st.sampled_from(["replace", "replace", "drop", "add", "near"]), label="kind")
        if isinstance(box, dict):
            keys = list(box)
            if kind == "add" or not keys:
                box[data.draw(st.one_of(st.text(max_size=8), st.sampled_from(keys or ["x"]).map(str.upper),
                                        st.integers(-2, 2), st.none()), label="new key")] = data.draw(junk)
            elif kind == "drop":
                del box[data.draw(st.sampled_from(keys), label="key")]
            else:
                k = data.draw(st.sampled_from(keys), label="key")
                box[k] = near(data, box[k]) if kind == "near" else data.draw(junk, label="value")
        else:
            if kind == "add" or not box:
                box.append(data.draw(junk, label="value"))
            elif kind == "drop":
                del box[data.draw(st.integers(0, len(box) - 1), label="index")]
            else:
                i = data.draw(st.integers(0, len(box) - 1), label="index")
                box[i] = near(data, box[i]) if kind == "near" else data.draw(junk, label="value")
    return d


def near(data, value):
    """A value of the same type close to the original: an int off by a little or at a limit, a
    bool flipped, a list with an element duplicated, a str changed by one character."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + data.draw(st.sampled_from([-1, 1, -2, 2, 16, -(2**31), 2**31, 2**63, -value - 1]), label="by")
    if isinstance(value, str):
        return value[:-1] + data.draw(st.characters(), label="char") if value else "x"
    if isinstance(value, list) and value:
        return value + [value[0]]
    return data.draw(junk, label="value")


@pytest.mark.parametrize("name", GAMES)
@seeded
@budget(80)
@given(data=st.data())
def test_mutated_dicts(name, data):
    RUNS["state_dict: mutated valid"] += 1
    game, state = data.draw(positions(name), label="position")
    d = mutate(data, state.to_dict())
    try:
        loaded = game.state_from_dict(d)
    except ALLOWED:
        return
    try:
        check_accepted(loaded)
    except Finding as failure:
        tolerate_known(game, loaded.fields(), failure)
