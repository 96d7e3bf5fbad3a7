"""Bad input gets a clear exception, leaves the state exactly as it was, and never crashes."""

import pickle
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dimsum
import dimsum.reference
from dimsum import IllegalActionError
from dimsum.testing import profile

# each registered game with its profile's bad-input options (dimsum/games/<name>/profile.py)
GAMES = [(name, profile(name).bad_input) for name in dimsum.games()]

garbage = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True), st.text(max_size=20), st.binary(max_size=40),
    st.integers(min_value=-(2 ** 70), max_value=2 ** 70), st.lists(st.integers(), max_size=4),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3), st.just(np.array([1, 2])),
    st.just(np.float32(1.0)), st.just(object()),
)


@pytest.fixture(params=GAMES, ids=[g for g, _ in GAMES])
def game(request):
    name, options = request.param
    return dimsum.make(name, **options)


def live_state(game, seed=3, steps=5):
    """A state a few moves in, still live (a short game stops before its end)."""
    state = game.new_state(seed)
    for _ in range(steps):
        after = state.clone()
        after.apply(state.legal_actions()[0])
        if after.is_terminal:
            break
        state = after
    return state


# -- actions ------------------------------------------------------------------------------------

def test_illegal_action_names_the_action_and_the_legal_ones(game):
    state = live_state(game)
    illegal = next(a for a in range(game.num_actions) if a not in state.legal_actions())
    before = state.to_bytes()
    with pytest.raises(IllegalActionError, match=r"is not legal for player \d now; legal: "):
        state.apply(illegal)
    assert state.to_bytes() == before
    assert isinstance(IllegalActionError("x"), ValueError)


@pytest.mark.parametrize("action", [-1, 10 ** 6, 2 ** 63, -(2 ** 80)])
def test_out_of_range_actions_are_illegal(game, action):
    state = live_state(game)
    before = state.to_bytes()
    with pytest.raises(IllegalActionError, match="out of range"):
        state.apply(action)
    assert state.to_bytes() == before


@pytest.mark.parametrize("action", [1.0, "0", None, True, np.array([0]), [0], b"\x00"])
def test_actions_of_the_wrong_type_are_a_type_error(game, action):
    state = live_state(game)
    before = state.to_bytes()
    with pytest.raises(TypeError, match="an action is an int"):
        state.apply(action)
    assert state.to_bytes() == before


def test_numpy_integer_actions_are_accepted(game):
    state = game.new_state(1)
    state.apply(np.int64(state.legal_actions()[0]))
    assert len(state.history) == 1


def test_actions_after_the_game_ended_are_refused(game):
    state = game.new_state(0)
    rng = __import__("random").Random(0)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(0)


# -- options ------------------------------------------------------------------------------------

def test_unknown_option_is_refused_with_the_known_ones(game):
    with pytest.raises(ValueError, match=r"unknown .* option\(s\) \['colour'\]; the options are"):
        dimsum.make(game.name, colour="red")


@pytest.mark.parametrize("value", ["4", 4.0, None, True])
def test_player_count_of_the_wrong_type_is_a_type_error(game, value):
    with pytest.raises(TypeError, match="players"):
        dimsum.make(game.name, players=value)


KNOWN = ", ".join(dimsum.games())


@pytest.mark.parametrize("make", [dimsum.make, dimsum.reference.make], ids=["core", "reference"])
def test_unknown_game_is_refused_with_the_closest_name(make):
    with pytest.raises(ValueError, match=re.escape(
            f"unknown game 'yumcha'; did you mean 'yum_cha'? The games are: {KNOWN}")):
        make("yumcha")
    with pytest.raises(ValueError, match=re.escape(f"unknown game 'mahjong'; the games are: {KNOWN}")):
        make("mahjong")
    with pytest.raises(TypeError, match="a game name is a str"):
        make(None)


@pytest.mark.parametrize("make", [dimsum.make, dimsum.reference.make], ids=["core", "reference"])
@pytest.mark.parametrize("name", dimsum.games())
def test_a_misspelt_game_name_suggests_the_game(make, name):
    misspelt = name.replace("_", "") if "_" in name else name + "s"
    with pytest.raises(ValueError, match=re.escape(f"did you mean {name!r}?")):
        make(misspelt)


@pytest.mark.parametrize("make", [dimsum.make, dimsum.reference.make], ids=["core", "reference"])
@pytest.mark.parametrize("name", ["state_dict", "profile", "yum_cha.state_dict", "yum_cha.profile", "_core",
                                  "games", "", "../yum_cha", "yum_cha "])
def test_names_of_internal_modules_are_unknown_games_and_import_nothing(make, name, monkeypatch):
    """The name is checked against the compiled registry before anything is imported by name."""
    import importlib

    def no_import(module, *args, **kwargs):
        raise AssertionError(f"{module} was imported for the game name {name!r}")

    monkeypatch.setattr(importlib, "import_module", no_import)
    with pytest.raises(ValueError, match=re.escape(f"unknown game {name!r}")):
        make(name)


# -- serialized states --------------------------------------------------------------------------

def test_truncated_bytes_are_refused(game):
    data = live_state(game).to_bytes()
    with pytest.raises(ValueError, match="long"):
        game.state_from_bytes(data[:-1])


def test_bytes_of_another_configuration_are_refused(game):
    other = dimsum.make(game.name, players=game.players + 1)
    data = other.new_state(0).to_bytes()
    with pytest.raises(ValueError):
        game.state_from_bytes(data)
    same_size = dimsum.make(game.name, **profile(game.name).same_size)
    with pytest.raises(ValueError, match="differently configured"):
        game.state_from_bytes(same_size.new_state(0).to_bytes())


@pytest.mark.parametrize("bad", [None, "state", 12, [1, 2]])
def test_bytes_of_the_wrong_type_are_a_type_error(game, bad):
    with pytest.raises(TypeError):
        game.state_from_bytes(bad)


def test_every_single_byte_corruption_is_refused_or_harmless(game):
    """Flipping any one byte of the state gives a clear ValueError or a state that still checks."""
    data = bytearray(live_state(game).to_bytes())
    for i in range(len(data)):
        corrupt = bytearray(data)
        corrupt[i] ^= 0x5A
        try:
            state = game.state_from_bytes(bytes(corrupt))
        except ValueError:
            continue
        state.check()  # only bytes that do not change the position (the RNG) may pass
        state.legal_actions()


def test_inconsistent_dict_names_the_field(game):
    d = live_state(game).to_dict()
    case = profile(game.name)
    case.corrupt_dict(d)  # breaks conservation
    with pytest.raises(ValueError, match=case.corrupt_dict_error):
        game.state_from_dict(d)


def test_dict_with_a_missing_key_is_refused(game):
    d = live_state(game).to_dict()
    del d["rng"]
    with pytest.raises(ValueError, match=r"missing.*rng"):
        game.state_from_dict(d)


# -- hypothesis: garbage at every entry point -----------------------------------------------------

@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=garbage)
def test_garbage_at_every_entry_point(game, value):
    """A call either works (a legal action, a valid player) or raises a clear error; a call
    that raised has left the state exactly as it was."""
    calls = [
        lambda s: s.apply(value), lambda s: s.observation(value), lambda s: s.action_name(value),
        lambda s: s.parse_action(value), lambda s: s.resample(value, 1), lambda s: s.resample(0, value),
        lambda s: game.new_state(value), lambda s: game.state_from_bytes(value), lambda s: game.state_from_dict(value),
        lambda s: dimsum.make(game.name, players=value), lambda s: dimsum.make(game.name, rounds=value),
        lambda s: s.observation(0, out=value), lambda s: s.is_legal(value),
    ]
    for call in calls:
        state = live_state(game)
        before = state.to_bytes()
        try:
            call(state)
        except (ValueError, TypeError, OverflowError):
            assert state.to_bytes() == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key_index=st.integers(0, 40), value=garbage)
def test_garbage_in_any_dict_field_is_refused_cleanly(game, key_index, value):
    d = live_state(game).to_dict()
    keys = sorted(d)
    d[keys[key_index % len(keys)]] = value
    try:
        state = game.state_from_dict(d)
    except (ValueError, TypeError):
        return
    state.check()


def test_observation_out_buffer_must_be_float32_of_the_right_size(game):
    state = live_state(game)
    with pytest.raises(TypeError, match="float32"):
        state.observation(0, out=np.zeros(game.observation_shape, dtype=np.float64))
    with pytest.raises(ValueError, match="float32 values"):
        state.observation(0, out=np.zeros(3, dtype=np.float32))
    out = np.zeros(game.observation_shape, dtype=np.float32)
    assert state.observation(0, out=out) is out and out.sum() > 0


def test_states_cannot_be_made_directly():
    from dimsum._core import State
    with pytest.raises(TypeError, match="new_state"):
        State()


def test_pickle_round_trips_state_and_history(game):
    state = live_state(game)
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.history == state.history and again.game == game


@pytest.mark.parametrize("bad", ["yum_cha", None, 3])
def test_random_playouts_needs_a_game(bad):
    with pytest.raises(TypeError, match="a Game from dimsum.make"):
        dimsum.random_playouts(bad, 3)


def test_random_playouts_refuses_bad_counts(game):
    with pytest.raises(ValueError, match="n_games"):
        dimsum.random_playouts(game, -1)
    with pytest.raises(TypeError, match="threads"):
        dimsum.random_playouts(game, 1, threads=1.5)
