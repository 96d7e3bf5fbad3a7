"""Pickled states (python/dimsum/_core.pyx: State.__reduce__, _load_state): they round-trip in every
game and chance mode with their history (timeline for a timed game), carry their game once, load
pickles of the earlier layout, and refuse a corrupt pickle clearly (a pickle is untrusted input)."""

import pickle
import random

import pytest

import dimsum
from dimsum import _core

MODES = ("sampled", "explicit")


def played(name: str, mode: str, steps: int = 25, seed: int = 3):
    state = dimsum.make(name, chance=mode).new_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.is_chance_node:
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply(rng.choices(outcomes, probs)[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", dimsum.games())
def test_a_pickled_state_round_trips_with_its_history_in_every_game_and_mode(name, mode):
    state = played(name, mode)
    assert state.history, "the walk must leave a history to carry"
    again = pickle.loads(pickle.dumps(state))
    assert again.to_bytes() == state.to_bytes() and again.history == state.history
    assert again.game == state.game and again._history_root() == state._history_root()
    if hasattr(state, "timeline"):
        assert again.timeline == state.timeline
    if not again.is_terminal:  # the copy plays on as the original
        action = again.legal_actions()[0] if not again.is_chance_node else again.chance_outcomes()[0][0]
        again.apply(action)
        state.apply(action)
        assert again.to_bytes() == state.to_bytes() and again.history == state.history


@pytest.mark.parametrize("name", dimsum.games())
def test_a_pickle_of_many_states_carries_their_game_once(name):
    game = dimsum.make(name)
    states = [game.new_state(seed) for seed in range(5)]
    data = pickle.dumps(states)
    options = game.__reduce__()[1][2]
    assert data.count(options) == 1
    assert pickle.loads(data) == states


def test_pickles_of_the_earlier_layout_still_load():
    """Before the game travelled as its key and the history packed: (Game, bytes, tuple)."""
    state = played("nice_buns", "sampled")
    game = _core._unpickle_game(state.game.name, state.game.__reduce__()[1][1], dict(state.game.spec.options))
    old = _core._restore_state(game, state.to_bytes(), tuple(state.history), state._history_root())
    assert old == state and old.history == state.history
    timed = played("dim_sum_jam", "sampled")
    old = _core._restore_timed_state(timed.game, timed.to_bytes(), tuple(timed.timeline), timed._history_root())
    assert old == timed and old.timeline == timed.timeline


def load_with(state, **changes):
    """pickle.loads of ``state``'s pickle with some of _load_state's arguments replaced."""
    function, args = state.__reduce__()
    names = ("name", "fingerprint", "options", "data", "history", "root")
    args = dict(zip(names, args), **changes)
    return function(*(args[n] for n in names))


@pytest.mark.parametrize("name", dimsum.games())
def test_a_corrupt_pickle_is_refused_clearly(name):
    state = played(name, "sampled")
    data, history = state.to_bytes(), state.__reduce__()[1][4]
    assert load_with(state) == state  # the unchanged arguments load: each refusal below is the change's
    with pytest.raises(ValueError, match="bytes must be"):
        load_with(state, data=data[:-1])
    with pytest.raises(ValueError, match="bad magic"):
        load_with(state, data=b"XXXX" + data[4:])
    with pytest.raises(ValueError, match="bytes an entry"):
        load_with(state, history=history[:-1])
    bad_action = (2**31 - 1).to_bytes(4, "little")  # the newest entry's action: out of range
    entry = 12 if hasattr(state, "timeline") else 4
    with pytest.raises(ValueError, match="actions are"):
        load_with(state, history=history[:-entry] + bad_action + history[len(history) - entry + 4:])
    with pytest.raises(TypeError, match="options as a dict"):
        load_with(state, options=pickle.dumps([1, 2]), fingerprint=12345)


def test_a_timeline_with_negative_ticks_is_refused():
    state = played("dim_sum_jam", "sampled")
    timeline = state.__reduce__()[1][4]
    negative = (-1).to_bytes(8, "little", signed=True)
    with pytest.raises(ValueError, match="ticks in"):
        load_with(state, history=timeline[:-8] + negative)
