"""Regression tests for what an adversarial audit found at the edges of the per-move API (the
issue "Hardening"): each test is named after its finding. Nothing reachable from Python may
crash the interpreter, and a buffer is refused or converted, never written wrongly."""

import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import processes

import dimsum
from dimsum._core import Game, State, TimedState


def run_isolated(code: str) -> subprocess.CompletedProcess:
    """Runs code in a fresh interpreter: a crash there is a failed test, not a dead pytest."""
    return processes.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", dimsum.games())
def test_calling_game_init_again_on_a_live_game_is_refused(name):
    game = dimsum.make(name)
    state = game.new_state(1)
    before = state.to_bytes()
    other = next(n for n in dimsum.games() if n != name)
    with pytest.raises(TypeError, match="already built"):
        game.__init__(other, {})
    with pytest.raises(TypeError, match="already built"):
        game.__init__(name, {"players": 2})
    assert state.to_bytes() == before and game.new_state(1) == state
    state.apply(state.legal_actions()[0])  # the state still plays under its own rules


@pytest.mark.parametrize("cls", [State, TimedState])
def test_a_state_made_by_new_is_refused_instead_of_crashing(cls):
    with pytest.raises(TypeError, match="states come from"):
        cls.__new__(cls)
    result = run_isolated(f"""
        from dimsum._core import {cls.__name__} as C
        try:
            C.__new__(C).legal_actions()
        except TypeError as e:
            print("refused:", e)
    """)
    assert result.returncode == 0 and "refused" in result.stdout, result.stderr


def test_a_game_made_by_new_is_refused_instead_of_crashing():
    game = Game.__new__(Game)
    state_bytes = dimsum.make("yum_cha").new_state(1).to_bytes()
    for call in (lambda: game.state_from_bytes(state_bytes), lambda: game.new_state(1), game.config_bytes,
                 lambda: game.state_from_fields({}), lambda: game.version):
        with pytest.raises(TypeError, match="never built"):
            call()
    assert "never built" in repr(game)
    result = run_isolated("""
        from dimsum._core import Game
        try:
            Game.__new__(Game).state_from_bytes(b"DSUM" + bytes(600))
        except TypeError as e:
            print("refused:", e)
    """)
    assert result.returncode == 0 and "refused" in result.stdout, result.stderr


@pytest.mark.parametrize("name", dimsum.games())
def test_observation_out_in_another_byte_order_is_refused(name):
    game = dimsum.make(name)
    state = game.new_state(2)
    swapped = np.zeros(game.observation_shape, dtype=">f4")
    with pytest.raises(TypeError, match="native byte order"):
        state.observation(0, out=swapped)
    assert not swapped.any()  # nothing was written in the wrong order
    native = np.zeros(game.observation_shape, dtype="<f4" if sys.byteorder == "little" else ">f4")
    state.observation(0, out=native)
    assert native.tolist() == state.observation(0).tolist()


@pytest.mark.parametrize("name", dimsum.games())
def test_observation_out_misaligned_is_refused(name):
    game = dimsum.make(name)
    n = game.observation_shape[0]
    raw = np.zeros(4 * n + 1, dtype=np.uint8)
    misaligned = raw[1:].view(np.float32)
    assert not misaligned.flags.aligned
    with pytest.raises(ValueError, match="aligned"):
        game.new_state(2).observation(0, out=misaligned)
    assert not raw.any()


def test_a_uint64_action_beyond_int64_is_an_illegal_action_not_an_overflow():
    state = dimsum.make("yum_cha").new_state(1)
    before = state.to_bytes()
    for action in (np.uint64(2**63), np.uint64(2**64 - 1), 2**63, 2**70):
        with pytest.raises(dimsum.IllegalActionError, match="out of range"):
            state.apply(action)
        assert state.is_legal(action) is False
    assert state.to_bytes() == before


def test_make_with_a_name_that_is_not_a_string_is_a_type_error():
    for name in (None, 3, b"yum_cha", ["yum_cha"]):
        with pytest.raises(TypeError, match="game name is a str"):
            dimsum.make(name)


def other_player_count(name: str) -> int:
    """A player count the game takes other than its default (the contract promises none in
    particular: two is some games' default)."""
    players = next(o for o in dimsum.options(name) if o.name == "players")
    return next(n for n in range(players.minimum, players.maximum + 1) if n != players.default)


@pytest.mark.parametrize("name", dimsum.games())
def test_unpickling_shares_one_built_game_per_configuration(name):
    import pickle

    game = dimsum.make(name)
    states = [game.new_state(s) for s in range(3)]
    loaded = [pickle.loads(pickle.dumps(s)) for s in states]
    assert loaded == states and all(s.game is loaded[0].game for s in loaded)
    other = dimsum.make(name, players=other_player_count(name))
    assert pickle.loads(pickle.dumps(other.new_state(1))).game == other != game


# ---- hardening III (issue 21): Y14 the random bot behaves as the C++ bots -----------------------

@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_y14_the_random_bot_pickles_with_every_protocol_and_goes_on_choosing_the_same(protocol):
    from dimsum import bots

    game = dimsum.make("nice_buns", players=3)
    original = bots.make("random", game, seed=5)
    state = game.new_state(8)
    original.act(state)  # the copy continues the generator where the original is
    copy = pickle.loads(pickle.dumps(original, protocol))
    assert copy.game == game and copy.seed == 5
    assert [copy.act(state) for _ in range(20)] == [original.act(state) for _ in range(20)]


@pytest.mark.parametrize("name", dimsum.games())
def test_y14_the_random_bot_refuses_chance_nodes_terminal_states_and_other_configurations_as_the_cpp_bots(name):
    from dimsum import bots
    from dimsum.testing import first_chance_node

    explicit = dimsum.make(name, chance="explicit")
    chance = first_chance_node(explicit, seed=1)
    other = dimsum.make(name, players=3).new_state(1)
    finished = dimsum.make(name, players=2).new_state(1)
    while not finished.is_terminal:
        finished.apply(finished.legal_actions()[0])
    for kind in ("random", "heuristic"):
        with pytest.raises(ValueError, match=f"the {kind} bot was asked to act at a chance node"):
            bots.make(kind, explicit).act(chance)
        with pytest.raises(ValueError, match=f"this {kind} bot plays .*; the state is of "):
            bots.make(kind, dimsum.make(name, players=2)).act(other)
        with pytest.raises(ValueError, match=f"this {kind} bot plays .*; the state is not a dimsum state"):
            bots.make(kind, dimsum.make(name, players=2)).act(object())
        with pytest.raises(ValueError, match=f"the {kind} bot was asked to act where nobody may act"):
            bots.make(kind, dimsum.make(name, players=2)).act(finished)
