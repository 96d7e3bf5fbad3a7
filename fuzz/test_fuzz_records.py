"""dimsum.records and ``python -m dimsum replay`` with mutated records: valid records of played
games (every configuration the targets use), changed field by field (a value replaced by JSON
junk or by a near value, a field dropped or added, a step changed), or as text (cut, a character
changed, nested deep). Property: loading and replaying either works, and then the record
round-trips through JSON, or raises RecordError; the CLI either writes its page (exit 0) or
prints one line (exit 1), never a traceback."""

import contextlib
import copy
import functools
import io
import json

import pytest
from hypothesis import given, reject
from hypothesis import strategies as st

from dimsum import bots
from dimsum.cli import replay
from dimsum.records import Record, RecordError
from fuzzlib import GAMES, RUNS, big_ints, budget, configs, make, seeded

FIELDS = ("format", "game", "options", "seed", "steps", "players", "returns")

# what JSON can hold, including the values that overflow a float or a C++ int, and deep nests
json_junk = st.deferred(lambda: st.one_of(
    st.none(), st.booleans(), big_ints, st.integers(-(10**400), 10**400),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["nice_buns", "yum_cha", "dim_sum_jam", "dimsum-record/1", "", "players"]),
    st.sampled_from([2, 63, 64, 65, 500, 3000]).map(lambda n: functools.reduce(lambda inner, _: [inner], range(n), 0)),
    st.lists(st.one_of(st.none(), big_ints, st.text(max_size=4), st.floats()), max_size=5),
    st.dictionaries(st.text(max_size=8), st.one_of(big_ints, st.none(), st.booleans()), max_size=3),
))


@functools.lru_cache(maxsize=None)
def _played(name, config_index, seed, steps):
    """The record (as JSON) of ``steps`` random moves (or a whole game) of a configuration."""
    options = configs(name)[config_index]
    game = make(name, options)
    state, bot = game.new_state(seed), bots.make("random", game, seed=seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.is_chance_node:
            outcomes = state.chance_outcomes()
            state.apply(outcomes[seed % len(outcomes)][0])
        else:
            state.apply(bot.act(state))
    return Record.of(state, seed, ["random"] * game.players).to_json()


@st.composite
def records(draw, name, max_steps=400):
    index = draw(st.integers(0, len(configs(name)) - 1), label="config")
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    steps = draw(st.sampled_from([0, 1, 5, 20, max_steps]), label="steps")
    return copy.deepcopy(_played(name, index, seed, steps))


def near(data, value):
    """A value of the same type close to the original."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + data.draw(st.sampled_from([-1, 1, 2**31, 2**63, 2**64, -value - 1, 10**400]), label="by")
    if isinstance(value, float):
        return data.draw(st.sampled_from([value + 1, -value, float("inf"), float("nan"), 1e308 * 10]), label="to")
    if isinstance(value, str):
        return value[:-1] + data.draw(st.characters(), label="char") if value else "x"
    if isinstance(value, list) and value:
        return value + [value[0]]
    return data.draw(json_junk, label="value")


def mutate(data, record):
    """One to three changes, each to a top-level field, one option, one step or one entry."""
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        where = data.draw(st.sampled_from(FIELDS + ("an option", "a step", "an entry", "a new key")), label="where")
        kind = data.draw(st.sampled_from(["junk", "near", "drop"]), label="kind")
        if where in FIELDS:
            box, key = record, where
        elif where == "an option" and isinstance(record.get("options"), dict) and record["options"]:
            box, key = record["options"], data.draw(st.sampled_from(sorted(record["options"])), label="option")
        elif where == "a step" and isinstance(record.get("steps"), list) and record["steps"]:
            steps = record["steps"]
            i = data.draw(st.integers(0, len(steps) - 1), label="step")
            if isinstance(steps[i], list) and steps[i] and data.draw(st.booleans(), label="inside"):
                box, key = steps[i], data.draw(st.integers(0, len(steps[i]) - 1), label="part")
            else:
                box, key = steps, i
        elif where == "an entry" and isinstance(record.get("returns"), list) and record["returns"]:
            box, key = record["returns"], data.draw(st.integers(0, len(record["returns"]) - 1), label="entry")
        else:
            record[data.draw(st.text(max_size=8), label="new key")] = data.draw(json_junk, label="value")
            continue
        if kind == "drop":
            if isinstance(box, dict):
                box.pop(key, None)
            else:
                del box[key]
        elif kind == "near" and (key in box if isinstance(box, dict) else True):
            box[key] = near(data, box[key])
        else:
            box[key] = data.draw(json_junk, label="value")
    return record


def as_text(record):
    """``json.dumps(record)``; a record nested too deep for json.dumps itself (the 3,000-deep lists)
    is rejected here: such texts come from the "nest" mutation instead."""
    try:
        return json.dumps(record)
    except RecursionError:
        reject()


def check_loads_and_replays(load):
    """``load()`` gives a Record that replays (and round-trips), or raises RecordError."""
    try:
        record = load()
        final = record.final_state()
    except RecordError:
        return
    assert final is not None
    again = Record.loads(record.dumps())
    assert again == record, "an accepted record does not round-trip through its JSON"


@pytest.mark.parametrize("name", GAMES)
@seeded
@budget(60)
@given(data=st.data())
def test_mutated_record_objects(name, data):
    RUNS["records: mutated JSON objects"] += 1
    record = mutate(data, data.draw(records(name), label="record"))
    check_loads_and_replays(lambda: Record.from_json(record))


@pytest.mark.parametrize("name", GAMES)
@seeded
@budget(60)
@given(data=st.data())
def test_mutated_record_texts(name, data):
    RUNS["records: mutated JSON texts"] += 1
    text = json.dumps(data.draw(records(name), label="record"))
    kind = data.draw(st.sampled_from(["cut", "char", "nest", "field"]), label="kind")
    at = data.draw(st.integers(0, len(text)), label="at")
    if kind == "cut":
        text = text[:at]
    elif kind == "char":
        text = text[:at] + data.draw(st.sampled_from(list('[]{}",:0-9e.\\ x\x00') + ["\ud800", "1e999"]),
                                     label="char") + text[at + 1:]
    elif kind == "nest":
        depth = data.draw(st.sampled_from([10, 63, 64, 65, 1000, 100_000]), label="depth")
        text = text[:at] + "[" * depth + "]" * depth + text[at:]
    else:
        text = as_text(mutate(data, json.loads(text)))
    check_loads_and_replays(lambda: Record.loads(text))


@pytest.mark.parametrize("name", GAMES)
@seeded
@budget(8)
@given(data=st.data())
def test_replay_command_answers_in_one_line(name, data, tmp_path_factory):
    """``python -m dimsum replay`` (its main, in this process): a page, or one line and exit 1."""
    RUNS["records: python -m dimsum replay"] += 1
    record = mutate(data, data.draw(records(name, max_steps=8), label="record"))
    folder = tmp_path_factory.mktemp("replay")
    (folder / "game.json").write_text(as_text(record), encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = replay.main([str(folder / "game.json"), "-o", str(folder / "game.html")])
    if rc == 0:
        assert (folder / "game.html").exists()
    else:
        assert rc == 1 and err.getvalue().count("\n") == 1 and "Traceback" not in err.getvalue(), err.getvalue()
        assert not (folder / "game.html").exists()
