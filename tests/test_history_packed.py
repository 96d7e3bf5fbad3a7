"""A loaded state's history is kept packed (python/dimsum/_core.pyx: _PackedHistory): the entries as
the pickle holds them, read in place, so that pickle.loads and copies make no Python object per
action; the history, the timeline, the views (information states, by node identity) and pickling
again all read the packed run and the state's own moves after it as one history. Pickles written
before the run was kept packed (tests/data/pickles_layout1.json, recorded by main's build) load
the same, and a corrupt run is refused with ValueError, never a crash.

Recording the fixture again (only when the layout is meant to change, with the build that wrote
the old layout on PYTHONPATH): ``python tests/test_history_packed.py --record OUT.json``."""

import base64
import copy
import gc
import json
import pathlib
import pickle
import random
import sys

import pytest

import dimsum
from dimsum import _core

LAYOUT1_PICKLES = pathlib.Path(__file__).parent / "data" / "pickles_layout1.json"
MODES = ("sampled", "explicit")


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


def played(name: str, mode: str, steps: int, seed: int = 3):
    return walk(dimsum.make(name, chance=mode).new_state(seed), steps, seed)


def with_advances(steps: int, seed: int = 5):
    """A Dim Sum Jam state whose timeline holds advances (action -1) among its actions."""
    state = played("dim_sum_jam", "sampled", 4, seed)
    for i in range(steps):
        if state.is_terminal:
            break
        if i % 3 == 0 and not state.is_chance_node:
            state.advance(1 + i % 4)
        walk(state, 1, seed + i)
    return state


def same_history(again, state) -> None:
    assert again.to_bytes() == state.to_bytes() and again.history == state.history
    if hasattr(state, "timeline"):
        assert again.timeline == state.timeline


# -- the fixture: pickles written by main's build (the layout of 2026-12-03) ---------------------------

def record_cases() -> dict:
    cases = []
    for name in dimsum.games():
        for mode in MODES:
            state = played(name, mode, 30, seed=7)
            cases.append({"game": name, "chance": mode, "pickle": base64.b64encode(pickle.dumps(state)).decode(),
                          "to_bytes": state.to_bytes().hex(), "history": state.history,
                          **({"timeline": state.timeline} if hasattr(state, "timeline") else {})})
    state = with_advances(12)
    cases.append({"game": "dim_sum_jam", "chance": "sampled", "pickle": base64.b64encode(pickle.dumps(state)).decode(),
                  "to_bytes": state.to_bytes().hex(), "history": state.history, "timeline": state.timeline})
    return {"written_by": "main's build before the packed history (State.__reduce_ex__, payload layout 1); "
                          "python tests/test_history_packed.py --record", "cases": cases}


def layout1_cases():
    if __name__ == "__main__":  # recording: the file may not exist yet
        return []
    return json.loads(LAYOUT1_PICKLES.read_text())["cases"]


@pytest.mark.parametrize("case", layout1_cases(), ids=lambda c: f"{c['game']}-{c['chance']}-{len(c['history'])}")
def test_pickles_written_before_the_history_was_kept_packed_still_load(case):
    data = base64.b64decode(case["pickle"])
    state = pickle.loads(data)
    assert state.to_bytes().hex() == case["to_bytes"] and state.history == case["history"]
    if "timeline" in case:
        assert state.timeline == [tuple(e) for e in case["timeline"]]
    assert pickle.dumps(state) == data, "the layout is unchanged: today's pickle of it is the same bytes"
    replayed = dimsum.make(case["game"], chance=case["chance"]).new_state(state._history_root())
    for action, ticks in case.get("timeline", [(a, None) for a in case["history"]]):
        replayed.advance(ticks) if action == -1 else replayed.apply(action, ticks) if ticks is not None else replayed.apply(action)
    assert replayed == state and replayed.information_state_string(0) == state.information_state_string(0)


# -- no object per action ---------------------------------------------------------------------------

def blocks_held_by(make) -> int:
    """How many more memory blocks Python holds while the result of ``make()`` is alive."""
    gc.collect()
    before = sys.getallocatedblocks()
    kept = make()  # noqa: F841 (held while counting)
    after = sys.getallocatedblocks()
    del kept
    return after - before


@pytest.mark.parametrize("name", ["yum_cha", "dim_sum_jam"])
def test_loading_and_copying_a_deep_state_makes_no_object_per_action(name):
    """pickle.loads of a state 3,000 entries in, its copies and its pickle again hold a few blocks,
    not thousands (the history was one tuple per action: loads grew super-linearly with depth)."""
    if name == "yum_cha":
        state = walk(dimsum.make(name, rounds=16, max_turns_per_round=2000).new_state(11), 3000, 11)
    else:  # a Dim Sum Jam game is short: its timeline grows long by time passing (advance 0 ticks)
        state = walk(dimsum.make(name).new_state(11), 5, 11)
        for _ in range(3000):
            state.advance(0)
    assert len(getattr(state, "timeline", state.history)) >= 3000
    data = pickle.dumps(state)
    loaded = pickle.loads(data)
    assert blocks_held_by(lambda: pickle.loads(data)) < 50
    assert blocks_held_by(lambda: [copy.copy(loaded), copy.deepcopy(loaded), loaded.clone()]) < 50
    assert pickle.dumps(loaded) == data
    same_history(loaded, state)


# -- one history: the packed run, then the state's own moves --------------------------------------------

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", dimsum.games())
def test_a_loaded_state_plays_on_with_one_history(name, mode):
    state = played(name, mode, 40, seed=2)
    loaded = pickle.loads(pickle.dumps(state))
    before = loaded.clone()
    walk(state, 15, 9)
    walk(loaded, 15, 9)
    same_history(loaded, state)
    again = pickle.loads(pickle.dumps(loaded))  # the run and the moves after it, pickled as one
    same_history(again, state)
    assert pickle.dumps(again) == pickle.dumps(state)
    assert pickle.loads(pickle.dumps(before)).history == before.history == state.history[:len(before.history)]


def test_a_timeline_with_advances_is_one_history_after_loading():
    state = with_advances(12)
    loaded = pickle.loads(pickle.dumps(state))
    for s in (state, loaded):
        s.advance(2)
        walk(s, 4, 1)
    same_history(loaded, state)
    assert sum(action == -1 for action, _ in loaded.timeline) >= 4
    same_history(pickle.loads(pickle.dumps(loaded)), state)


@pytest.mark.parametrize("name, mode", [("yum_cha", "explicit"), ("yum_cha", "sampled"), ("dim_sum_jam", "sampled"),
                                        ("nice_buns", "explicit")])
def test_the_views_read_a_loaded_history_as_the_original(name, mode):
    """information_state_string/key walk the history as a chain of nodes: built from the packed run
    on first need, for the state and for copies made before and after it was built."""
    state = played(name, mode, 30, seed=4)
    loaded = pickle.loads(pickle.dumps(state))
    early = loaded.clone()          # shares the run before the views built it
    walk(early, 3, 6)
    players = range(state.game.players)
    assert [loaded.information_state_string(p) for p in players] == [state.information_state_string(p) for p in players]
    assert [loaded.information_state_key(p) for p in players] == [state.information_state_key(p) for p in players]
    late = loaded.clone()           # shares the chain now built
    for s in (state, late):
        walk(s, 3, 6)
    assert [late.information_state_key(p) for p in players] == [state.information_state_key(p) for p in players]
    assert late.information_state_string(1) == state.information_state_string(1)
    assert [early.information_state_string(p) for p in players] == [state.information_state_string(p) for p in players]
    same_history(early, state)


def test_a_seeded_copy_and_a_resample_of_a_loaded_state_keep_its_history():
    state = played("yum_cha", "explicit", 60, seed=8)
    loaded = pickle.loads(pickle.dumps(state))
    reseeded = loaded.clone(seed=3)
    assert reseeded.history == state.history
    assert reseeded.information_state_string(2) == state.clone(seed=3).information_state_string(2)
    resampled, expected = loaded.resample(1, 21), state.resample(1, 21)
    same_history(resampled, expected)
    assert resampled.information_state_string(1) == expected.information_state_string(1)
    same_history(pickle.loads(pickle.dumps(resampled)), expected)


# -- a corrupt run: ValueError, never a crash -------------------------------------------------------------

@pytest.mark.parametrize("name", dimsum.games())
def test_a_mutated_or_cut_packed_history_is_refused_or_loads_whole(name):
    """Every cut and seeded random byte changes in the history's part of the payload: the load
    either refuses with ValueError or gives a state whose history is read back whole and checked."""
    state = played(name, "sampled", 40, seed=1)
    key, payload = state.__reduce_ex__(4)[1]
    start = 10 + len(state.to_bytes())  # layout byte, root kind, the seed, the state's bytes
    entry = 12 if hasattr(state, "timeline") else 4
    assert _core._unpickle_state(key, payload) == state
    for cut in range(start, len(payload)):
        try:
            loaded = _core._unpickle_state(key, payload[:cut])
        except ValueError as e:
            assert (cut - start) % entry, f"a cut at an entry's end is a shorter history, refused: {e}"
            assert "bytes an entry" in str(e)
        else:
            assert len(getattr(loaded, "timeline", loaded.history)) == (cut - start) // entry
    rng = random.Random(name)
    for _ in range(400):
        changed = bytearray(payload)
        for _ in range(rng.randint(1, 3)):
            changed[rng.randrange(start, len(payload))] = rng.randrange(256)
        try:
            loaded = _core._unpickle_state(key, bytes(changed))
        except ValueError as e:
            assert "history holds action" in str(e) or "timeline holds" in str(e)
            continue
        entries = getattr(loaded, "timeline", None) or [(a, None) for a in loaded.history]
        assert all(-1 <= a < state.game.num_actions for a, _ in entries)
        assert pickle.loads(pickle.dumps(loaded)).to_bytes() == state.to_bytes()
        try:  # the views build the chain from the run and replay it (it may not replay: refused)
            loaded.information_state_string(0)
        except ValueError:
            pass


if __name__ == "__main__":
    if sys.argv[1:2] != ["--record"] or len(sys.argv) != 3:
        sys.exit("usage: python tests/test_history_packed.py --record OUT.json")
    pathlib.Path(sys.argv[2]).write_text(json.dumps(record_cases(), indent=1) + "\n")
