"""parse_action / state.parse_action with arbitrary text (and non-text), and dimsum.make with
arbitrary option names and values: ValueError/TypeError only; what parses names a real action,
what builds is a game that plays."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dimsum
from fuzzlib import ALLOWED, GAMES, RUNS, budget, configs, junk, make, positions, reachable, seeded


def texts(data, names):
    """Arbitrary text, or a real name changed a little (case, spaces, a digit, a character)."""
    real = st.sampled_from(names)
    return data.draw(st.one_of(
        st.text(max_size=40),
        real,
        real.map(str.upper), real.map(lambda s: f"  {s}\t"), real.map(lambda s: s + "0"),
        st.tuples(real, st.integers(0, 60), st.characters()).map(lambda t: t[0][:t[1]] + t[2] + t[0][t[1] + 1:]),
        st.integers(-5, 500).map(str), st.just(""), st.just("\x00"), st.just("9" * 40),
        junk,
    ), label="text")


def check_parse(parse, name_of, text, limit):
    try:
        a = parse(text)
    except ALLOWED:
        return
    assert type(a) is int and 0 <= a < limit, f"parse({text!r}) = {a!r}"
    assert parse(name_of(a)) == a, f"parse(name({a})) is not {a}"


@pytest.mark.parametrize("name", GAMES)
@seeded
@budget(150)
@given(data=st.data())
def test_parse_action(name, data):
    RUNS["parse_action: text"] += 1
    game, state = data.draw(positions(name, max_steps=40), label="position")
    names = [game.action_name(a) for a in range(game.num_actions)]
    text = texts(data, names)
    check_parse(game.parse_action, game.action_name, text, game.num_actions)
    if not state.is_terminal:
        check_parse(state.parse_action, state.action_name, text, game.num_actions)


@pytest.mark.parametrize("name", GAMES)
@seeded
@budget(150)
@given(data=st.data())
def test_make_with_arbitrary_options(name, data):
    RUNS["make: options"] += 1
    known = sorted(make(name, {}).options)
    options = {}
    for _ in range(data.draw(st.integers(1, 3), label="options")):
        key = data.draw(st.one_of(st.sampled_from(known), st.text(max_size=10)), label="option")
        base = make(name, {}).options.get(key)
        value = data.draw(st.one_of(junk, st.just(base), st.sampled_from(
            [o.get(key) for o in configs(name) if key in o] or [None])), label="value")
        options[key] = value
    try:
        game = dimsum.make(name, **options)
    except ALLOWED:
        return
    state = reachable(game, data.draw(st.integers(0, 2**32 - 1), label="seed"), 30)
    state.check()


@seeded
@budget(60)
@given(name=st.one_of(st.text(max_size=20), st.sampled_from(GAMES).map(str.upper), junk))
def test_make_with_arbitrary_names(name):
    RUNS["make: game name"] += 1
    try:
        dimsum.make(name)
    except ALLOWED:
        return
    assert name in GAMES
