"""Pickled states (python/dimsum/_core.pyx: State.__reduce_ex__, _unpickle_state): they round-trip
in every game and chance mode with their history (timeline for a timed game) and its root, carry
their game once, load pickles of the earlier layouts, and refuse a corrupt pickle clearly (a pickle
is untrusted input)."""

import base64
import copy
import json
import os
import pathlib
import pickle
import random
import subprocess
import sys

import pytest

import dimsum
from dimsum import _core

MODES = ("sampled", "explicit")
EARLIER_PICKLES = pathlib.Path(__file__).parent / "data" / "pickles_before_packed_layout.json"


def played(name: str, mode: str, steps: int = 25, seed: int = 3):
    state = dimsum.make(name, chance=mode).new_state(seed)
    return walk(state, steps, seed)


def walk(state, steps: int, seed: int):
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


def fingerprint(game) -> int:
    return pickle.loads(game.__reduce__()[1][0])[1]  # the key: (name, fingerprint, options)


def assert_same(again, state):
    assert again.to_bytes() == state.to_bytes() and again.history == state.history
    assert again.game == state.game
    if hasattr(state, "timeline"):
        assert again.timeline == state.timeline


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", dimsum.games())
def test_a_pickled_state_round_trips_with_its_history_in_every_game_and_mode(name, mode):
    state = played(name, mode)
    assert state.history, "the walk must leave a history to carry"
    again = pickle.loads(pickle.dumps(state))
    assert_same(again, state)
    assert again._history_root() == state._history_root()
    if not again.is_terminal:  # the copy plays on as the original
        action = again.legal_actions()[0] if not again.is_chance_node else again.chance_outcomes()[0][0]
        again.apply(action)
        state.apply(action)
        assert_same(again, state)


def test_a_pickle_names_its_reconstructor_in_the_top_level_package():
    """dimsum._PickledState (pickle writes a class by name at once, and imports one module)."""
    state = played("nice_buns", "sampled")
    function, args = state.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    assert function is _core._PickledState is dimsum._PickledState and function.__module__ == "dimsum"
    assert b"dimsum\x94\x8c\r_PickledState" in pickle.dumps(state)
    assert type(function(*args)) is type(state)


def test_a_pickle_loads_in_a_process_that_never_imported_the_engine():
    """dimsum/__init__.py resolves _PickledState by importing _core on first use."""
    state = played("dim_sum_jam", "sampled", steps=6)
    code = ("import pickle, sys; assert 'dimsum._core' not in sys.modules; "
            "sys.stdout.write(pickle.loads(sys.stdin.buffer.read()).to_bytes().hex())")
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(dimsum.__file__).parents[1]))
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(state), capture_output=True,
                         env=env, timeout=120, check=True)
    assert out.stdout.decode() == state.to_bytes().hex()


def test_a_timeline_with_advances_round_trips():
    state = played("dim_sum_jam", "sampled", steps=4)
    state.advance(3)
    walk(state, 3, 8)
    assert any(action == -1 for action, _ in state.timeline)
    assert_same(pickle.loads(pickle.dumps(state)), state)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_every_pickle_protocol_round_trips(protocol):
    state = played("dim_sum_jam", "explicit", steps=10)
    assert_same(pickle.loads(pickle.dumps(state, protocol=protocol)), state)


def roots():
    """States whose histories start from each kind of root, and whether it travels in the payload."""
    game = dimsum.make("nice_buns")
    yield "seed", walk(game.new_state(2**64 - 1), 5, 1), True
    yield "bytes", walk(game.state_from_bytes(walk(game.new_state(4), 3, 4).to_bytes()), 4, 9), True
    yield "negative seed (kept as given)", walk(game.new_state(-5), 3, 2), False
    yield "Reseeded (clone with a seed)", walk(played("dim_sum_jam", "sampled", 6).clone(seed=9), 3, 3), False
    yield "PlayerView (Yum Cha resample)", walk(played("yum_cha", "sampled", 12).resample(0, 5), 2, 2), False
    state = played("nice_buns", "sampled", 4)
    yield "None (where it began unknown)", _core._restore_state(state.game, state.to_bytes(), tuple(state.history), None), True


@pytest.mark.parametrize("kind, state, in_payload", list(roots()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_kind_of_root_round_trips(kind, state, in_payload):
    function, args = state.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    assert len(args) == (2 if in_payload else 3), "a seed, bytes or None travel in the payload, an object beside it"
    again = pickle.loads(pickle.dumps(state))
    assert_same(again, state)
    root = again._history_root()
    assert type(root) is type(state._history_root())
    if in_payload:
        assert root == state._history_root()
    assert again.information_state_string(0) == state.information_state_string(0)


def test_reduce_and_reduce_ex_agree_and_copies_are_clones():
    state = played("yum_cha", "explicit")
    assert state.__reduce__() == state.__reduce_ex__(2)
    assert_same(copy.deepcopy(state), state)
    assert_same(copy.copy(state), state)


@pytest.mark.parametrize("name", dimsum.games())
def test_a_pickle_of_a_game_and_many_states_carries_the_game_once(name):
    game = dimsum.make(name)
    states = [game.new_state(seed) for seed in range(5)]
    key = game.__reduce__()[1][0]
    assert all(s.__reduce_ex__(4)[1][0] is key for s in states), "one key object per game, memoized by pickle"
    data = pickle.dumps([game] + states)
    assert data.count(key) == 1
    loaded = pickle.loads(data)
    assert loaded[0] == game and loaded[1:] == states
    assert all(s.game is loaded[0] for s in loaded[1:]), "the states share the one game unpickled"


def test_a_game_of_another_configuration_is_built_from_its_key():
    game = dimsum.make("nice_buns", players=3, chance="explicit")
    again = pickle.loads(pickle.dumps(game))
    assert again == game and again.options == game.options
    assert pickle.loads(pickle.dumps(game)) is again  # then cached


def earlier_cases():
    return json.loads(EARLIER_PICKLES.read_text())["cases"]


@pytest.mark.parametrize("case", earlier_cases(), ids=lambda c: f"{c['game']}-{c['chance']}")
def test_pickles_of_the_layout_before_the_payload_still_load(case):
    """Recorded by main at 70a907e (tests/data/pickles_before_packed_layout.json: its written_by)."""
    state = pickle.loads(base64.b64decode(case["pickle"]))
    assert state.to_bytes().hex() == case["to_bytes"] and state.history == case["history"]
    if "timeline" in case:
        assert state.timeline == [tuple(e) for e in case["timeline"]]
    game = dimsum.make(case["game"], chance=case["chance"])
    if "root_bytes" in case:
        assert state._history_root() == bytes.fromhex(case["root_bytes"])
        start = game.state_from_bytes(bytes.fromhex(case["root_bytes"]))
    else:
        assert state._history_root() == case["seed"]
        start = game.new_state(case["seed"])
    for action, ticks in case.get("timeline", [(a, None) for a in case["history"]]):
        start.advance(ticks) if action == -1 else start.apply(action, ticks) if ticks is not None else start.apply(action)
    assert start.to_bytes() == state.to_bytes(), "the recorded history replays to the recorded state"
    assert pickle.loads(pickle.dumps(state)) == state  # and pickles again in today's layout


def test_pickles_of_the_earliest_layouts_still_load():
    """Before the game travelled as its key and the history packed: (Game, bytes, tuple)."""
    state = played("nice_buns", "sampled")
    game = _core._unpickle_game(state.game.name, fingerprint(state.game), dict(state.game.spec.options))
    old = _core._restore_state(game, state.to_bytes(), tuple(state.history), state._history_root())
    assert old == state and old.history == state.history
    timed = played("dim_sum_jam", "sampled")
    old = _core._restore_timed_state(timed.game, timed.to_bytes(), tuple(timed.timeline), timed._history_root())
    assert old == timed and old.timeline == timed.timeline


def test_the_earliest_layouts_histories_are_checked():
    state = played("nice_buns", "sampled")
    with pytest.raises(ValueError, match="actions are"):
        _core._restore_state(state.game, state.to_bytes(), (0, state.game.num_actions), None)
    with pytest.raises(ValueError, match="are ints"):
        _core._restore_state(state.game, state.to_bytes(), (0, "1"), None)
    timed = played("dim_sum_jam", "sampled")
    with pytest.raises(ValueError, match="ticks in"):
        _core._restore_timed_state(timed.game, timed.to_bytes(), ((0, -2),), None)
    with pytest.raises(ValueError, match=r"\(action, ticks\)"):
        _core._restore_timed_state(timed.game, timed.to_bytes(), (0,), None)


def payload_parts(state):
    """A pickle's (key, payload) cut into (layout and root kind, root, state bytes, history)."""
    key, payload = state.__reduce_ex__(4)[1]
    assert payload[:2] == b"\x01\x01", "layout 1, a seed root"
    data = state.to_bytes()
    assert payload[10:10 + len(data)] == data
    return key, payload[:2], payload[2:10], data, payload[10 + len(data):]


@pytest.mark.parametrize("name", dimsum.games())
def test_a_corrupt_pickle_is_refused_clearly(name):
    state = played(name, "sampled")
    key, head, seed, data, history = payload_parts(state)
    load = _core._unpickle_state
    assert load(key, head + seed + data + history) == state  # each refusal below is the change's
    entry = 12 if hasattr(state, "timeline") else 4
    refusals = {
        "cut short: its state bytes": head + seed + data[:-1],
        "cut short: its root seed": head + seed[:5],
        "unknown layout": b"\x02" + head[1:] + seed + data + history,
        "unknown layout ": b"",
        "root is of an unknown kind": head[:1] + b"\x07" + seed + data + history,
        "bad magic": head + seed + b"XXXX" + data[4:] + history,
        "bytes an entry": head + seed + data + history[:-1],
        # the newest entry's action out of range
        "actions are": head + seed + data + history[:-entry] + (2**31 - 1).to_bytes(4, "little") + history[len(history) - entry + 4:],
    }
    for message, payload in refusals.items():
        with pytest.raises(ValueError, match=message.strip()):
            load(key, payload)
    with pytest.raises(ValueError, match="cut short: its root bytes"):
        load(key, head[:1] + b"\x02" + (1000).to_bytes(4, "little") + data)
    with pytest.raises(ValueError, match="in its payload and beside it"):
        load(key, head + seed + data + history, 5)
    with pytest.raises(TypeError):
        load(key, bytearray(head + seed + data + history))


def test_a_pickle_with_the_wrong_game_key_is_refused_clearly():
    state = played("nice_buns", "sampled")
    key, head, seed, data, history = payload_parts(state)
    payload = head + seed + data + history
    with pytest.raises(ValueError, match="yum_cha state"):  # refused by its length or its header
        _core._unpickle_state(dimsum.make("yum_cha").__reduce__()[1][0], payload)
    other = dimsum.make("nice_buns", players=3)  # the same game, other options: another fingerprint
    with pytest.raises(ValueError, match="differently configured|must be"):
        _core._unpickle_state(other.__reduce__()[1][0], payload)
    with pytest.raises(ValueError, match="does not unpickle"):
        _core._unpickle_state(b"not a pickle", payload)
    with pytest.raises(TypeError, match="game key is"):
        _core._unpickle_state(pickle.dumps(("nice_buns", 1)), payload)
    with pytest.raises(TypeError, match="game key is"):
        _core._unpickle_state(pickle.dumps(("nice_buns", 1, [1, 2])), payload)


def test_a_timeline_with_negative_ticks_is_refused():
    state = played("dim_sum_jam", "sampled")
    key, head, seed, data, timeline = payload_parts(state)
    negative = (-1).to_bytes(8, "little", signed=True)
    with pytest.raises(ValueError, match="ticks in"):
        _core._unpickle_state(key, head + seed + data + timeline[:-8] + negative)


def load_with(state, **changes):
    """The layout before the payload: _load_state with some of its arguments replaced."""
    game = state.game
    packed = state.__reduce_ex__(4)[1][1][10 + len(state.to_bytes()):]
    args = {"name": game.name, "fingerprint": fingerprint(game),
            "options": pickle.dumps(dict(game.spec.options), protocol=pickle.HIGHEST_PROTOCOL),
            "data": state.to_bytes(), "history": packed, "root": state._history_root()}
    args.update(changes)
    return _core._load_state(*args.values())


@pytest.mark.parametrize("name", dimsum.games())
def test_a_corrupt_pickle_of_the_layout_before_the_payload_is_refused_clearly(name):
    state = played(name, "sampled")
    assert load_with(state) == state  # each refusal below is the change's
    data = state.to_bytes()
    history = state.__reduce_ex__(4)[1][1][10 + len(data):]
    with pytest.raises(ValueError, match="bytes must be"):
        load_with(state, data=data[:-1])
    with pytest.raises(ValueError, match="bad magic"):
        load_with(state, data=b"XXXX" + data[4:])
    with pytest.raises(ValueError, match="bytes an entry"):
        load_with(state, history=history[:-1])
    with pytest.raises(TypeError, match="options as a dict"):
        load_with(state, options=pickle.dumps([1, 2]), fingerprint=12345)
