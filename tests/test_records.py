"""dimsum.records: a played game as JSON that replays exactly, and bad records named by step."""

import json

import pytest

import dimsum
from dimsum import bots
from dimsum.records import ADVANCE, Record, RecordError


def _played(name, seed, **options):
    game = dimsum.make(name, **options)
    state, bot = game.new_state(seed), bots.make("random", game, seed=seed)
    while not state.is_terminal:
        state.apply(bot.act(state))
    return game, state


@pytest.mark.parametrize("name", dimsum.games())
def test_a_record_round_trips_through_json_and_replays_to_the_same_state(name, tmp_path):
    game, state = _played(name, 21, players=2)
    record = Record.of(state, 21, ["random", "random"])
    record.save(tmp_path / "game.json")
    loaded = Record.load(tmp_path / "game.json")
    assert loaded == record
    states = list(loaded.states())
    assert len(states) == len(record.steps) + 1
    assert states[-1] == state and states[0] == game.new_state(21)


def test_dim_sum_jam_records_keep_ticks_and_advances():
    game = dimsum.make("dim_sum_jam", players=2)
    state = game.new_state(3)
    state.advance(7)
    state.apply(state.legal_actions()[0], 40)
    record = Record.of(state, 3)
    assert record.steps[0] == (ADVANCE, 7) and record.steps[1][1] == 40
    assert record.final_state() == state


def test_bad_records_are_named():
    with pytest.raises(RecordError, match="not a dimsum record"):
        Record.loads("[1, 2]")
    with pytest.raises(RecordError, match="not JSON"):
        Record.loads("{")
    _, state = _played("nice_buns", 5, players=2)
    data = Record.of(state, 5).to_json()
    data["steps"][3] = [10_000, 0]
    with pytest.raises(RecordError, match="step 3 "):
        list(Record.from_json(data).states())
    data = Record.of(state, 5).to_json()
    data["steps"][2] = ["x", 0]
    with pytest.raises(RecordError, match="step 2 must be"):
        Record.loads(json.dumps(data))
    with pytest.raises(RecordError, match="not of"):
        list(Record.of(state, 5).states(dimsum.make("yum_cha")))
    with pytest.raises(RecordError, match="cannot be made"):
        Record("nice_buns", {"players": 99}, 1).make_game()


# ---- hardening III (issue 21): Y5-Y7 malformed records, Y11 writers -----------------------------

def _record_json(**changes):
    _, state = _played("nice_buns", 5, players=2)
    return {**Record.of(state, 5).to_json(), **changes}


@pytest.mark.parametrize("seed", [2**64, 2**70, -1, -(2**63), 10**400])
def test_y5_a_seed_outside_64_bits_is_a_record_error_naming_the_seed(seed):
    with pytest.raises(RecordError, match="'seed' must be an int in \\[0, 2\\*\\*64\\)"):
        Record.loads(json.dumps(_record_json(seed=seed)))
    with pytest.raises(RecordError, match="seed"):
        list(Record("nice_buns", {"players": 2}, seed).states())


@pytest.mark.parametrize("returns, entry", [([10**400, 0.0], 0), ([0.0, float("inf")], 1),
                                            ([float("nan"), 0.0], 0), ([1.0, "1"], 1), ([None], 0)])
def test_y6_returns_that_are_not_finite_numbers_are_record_errors_naming_the_entry(returns, entry):
    with pytest.raises(RecordError, match=f"returns\\[{entry}\\] must be a"):
        Record.loads(json.dumps(_record_json(returns=returns)))


def test_y6_huge_numbers_elsewhere_are_record_errors_too():
    text = json.dumps(_record_json(returns=None)).replace('"returns": null', '"returns": [1e400, 0]')
    with pytest.raises(RecordError, match="returns\\[0\\] must be a finite number"):
        Record.loads(text)
    with pytest.raises(RecordError, match="cannot be made"):
        Record.from_json(_record_json(options={"players": 10**400})).make_game()
    with pytest.raises(RecordError, match="step 0 .*an int of"):
        list(Record.from_json(_record_json(steps=[[10**400, 0]], returns=None)).states())


@pytest.mark.parametrize("depth", [65, 1000, 100_000])
def test_y7_deeply_nested_json_is_a_record_error_not_a_recursion_error(depth):
    with pytest.raises(RecordError, match=f"nests {depth} levels deep"):
        Record.loads("[" * depth + "]" * depth)
    inside = json.dumps(_record_json()).replace('"options": {', '"options": {"x": ' + "[" * depth + "]" * depth + ", ")
    with pytest.raises(RecordError, match="nests"):
        Record.loads(inside)


def test_y7_brackets_inside_strings_do_not_count_as_nesting():
    record = Record.loads(json.dumps(_record_json(players=["[" * 500, "{\\\"" * 300])))
    assert record.players[0] == "[" * 500


@pytest.mark.parametrize("body", [
    "[" * 100_000 + "]" * 100_000,
    '{"format":"dimsum-record/1","game":"nice_buns","options":{},"seed":1,"steps":[],"returns":[1e400]}',
    '{"format":"dimsum-record/1","game":"nice_buns","options":{},"seed":18446744073709551616,"steps":[]}',
    '{"format":"dimsum-record/1","game":"nice_buns","options":{"players":1e999},"seed":1,"steps":[]}',
])
def test_y5_y7_replay_prints_one_line_and_no_traceback(tmp_path, capsys, body):
    from dimsum.cli import replay

    (tmp_path / "bad.json").write_text(body, encoding="utf-8")
    assert replay.main([str(tmp_path / "bad.json"), "-o", str(tmp_path / "bad.html")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("python -m dimsum replay: error: ") and err.count("\n") == 1, err
    assert not (tmp_path / "bad.html").exists()


def test_y11_save_refuses_a_symlink_planted_where_the_record_goes(tmp_path):
    import os

    target = tmp_path / "precious.txt"
    target.write_text("keep me", encoding="utf-8")
    os.symlink(target, tmp_path / "game-000000.json")
    record = Record.from_json(_record_json())
    with pytest.raises(OSError, match="symbolic link"):
        record.save(tmp_path / "game-000000.json")
    assert target.read_text(encoding="utf-8") == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-000000.json", "precious.txt"]


def test_y11_save_writes_atomically_with_the_usual_permissions(tmp_path, monkeypatch):
    import os

    record = Record.from_json(_record_json())
    record.save(tmp_path / "game.json")
    assert Record.load(tmp_path / "game.json") == record
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "game.json").stat().st_mode & 0o777 == 0o666 & ~umask
    # a write that fails half-way leaves the old file whole and no temporary file behind
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError("disk full")))
    with pytest.raises(OSError, match="disk full"):
        Record.from_json(_record_json(seed=6)).save(tmp_path / "game.json")
    assert Record.load(tmp_path / "game.json") == record
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_loads_takes_text_or_utf8_bytes_and_refuses_anything_else():
    data = json.dumps(_record_json())
    assert Record.loads(data.encode()) == Record.loads(data)
    with pytest.raises(RecordError, match="not UTF-8"):
        Record.loads(b"\xff" + data.encode())
    with pytest.raises(RecordError, match="a record is JSON text"):
        Record.loads(None)
