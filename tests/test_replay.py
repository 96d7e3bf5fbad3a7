"""python -m dimsum replay: the page of a record or a playthrough holds every step's picture for
every view, the action names, the returns and (Dim Sum Jam) the time line; bad input is an error
naming the step, exit code 1 or 2, no traceback, and no page written."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

import processes

import dimsum
from dimsum.cli import replay
from dimsum.records import Record, RecordError
from dimsum.render import to_svg
from dimsum.testing import playthrough_record, random_position

GOLDEN = Path(__file__).resolve().parent / "golden"


def _record(name: str, seed: int, steps: int, **options) -> Record:
    state = random_position(dimsum.make(name, **options), seed, steps)
    return Record.of(state, seed, [f"bot {p}" for p in range(state.game.players)])


def _data(html: str) -> dict:
    blob = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S).group(1)
    return json.loads(blob)


def _picture(data: dict, step: int, view: int) -> str:
    return "".join(data["pieces"][i] for i in data["steps"][step]["views"][view])


@pytest.mark.parametrize("name", dimsum.games())
def test_the_page_holds_every_step_drawn_for_every_view(name, tmp_path):
    record = _record(name, 4, 12, players=3)
    (tmp_path / "r.json").write_text(record.dumps())
    assert replay.main([str(tmp_path / "r.json"), "-o", str(tmp_path / "r.html")]) == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "") and "https://" not in html
    data = _data(html)
    states = list(record.states())
    assert len(data["steps"]) == len(states) == len(record.steps) + 1
    assert data["views"][0] == "the whole table" and data["views"][1] == "seat 0 (bot 0) sees"
    for k in (0, len(states) // 2, len(states) - 1):
        for view, seat in enumerate((None, 0, 1, 2)):  # drawn with the record's player names
            assert _picture(data, k, view) == to_svg(states[k], seat, record.players)
    action, ticks = record.steps[0]
    assert all(states[0].action_name(action) in text for text in data["steps"][1]["action"])  # a move: every view
    assert data["timed"] == isinstance(record.make_game(), dimsum.TimedGame)


def test_the_page_shows_the_returns_of_a_finished_game(tmp_path):
    record = _record("nice_buns", 11, 1000, players=3)
    assert record.returns is not None
    data = replay.page_data(record)
    assert data["returns"] == record.returns and "wins" in data["ending"]


def test_a_dim_sum_jam_page_has_the_time_line_for_real_time_play():
    record = _record("dim_sum_jam", 5, 10, players=2)
    record.steps.insert(3, (-1, 120))  # time passing with no action
    data = replay.page_data(record)
    times = [s["time"] for s in data["steps"]]
    assert times[0] == 0 and times == sorted(times) and times[-1] == sum(t for _, t in record.steps)
    assert data["steps"][4]["action"] == ["time passes: 120 ticks"] * 3  # the table and each seat
    assert [s["clock"][0] for s in data["steps"]][:2] == [1200, 1150]
    assert data["ticks_per_second"] == 10 and data["timed"]


@pytest.mark.parametrize("name", dimsum.games())
def test_a_playthrough_reads_back_as_the_record_of_its_game(name, tmp_path):
    text = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    record = playthrough_record(text)
    assert record.game == name and record.seed == 2026
    assert len(record.steps) == len(re.findall(r"^action: ", text, re.M))
    last_key = re.findall(r"^## step \d+: .*hash ([0-9a-f]{16})$", text, re.M)[-1]
    assert f"{record.final_state().hash:016x}" == last_key
    page = tmp_path / "p.html"
    assert replay.main([str(GOLDEN / f"{name}.txt"), "-o", str(page)]) == 0
    assert len(_data(page.read_text(encoding="utf-8"))["steps"]) == len(record.steps) + 1


def test_a_playthrough_that_does_not_replay_names_its_step():
    text = (GOLDEN / "nice_buns.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("action: ") and n > 30)
    lines[i] = "action: 9999 nonsense"
    with pytest.raises(RecordError, match=r"step \d+ of the playthrough \(line \d+\) cannot be played"):
        playthrough_record("\n".join(lines))
    with pytest.raises(RecordError, match="not a dimsum playthrough"):
        playthrough_record("# something else\n")
    tampered = text.replace(", seed 2026", ", seed 2027", 1)
    with pytest.raises(RecordError, match=r"step 0 of the playthrough .* key"):
        playthrough_record(tampered)


BAD = {
    "not JSON": ("{oops", "not a dimsum record: not JSON"),
    "not a record": (json.dumps({"hello": 1}), "not a dimsum record"),
    "no such game": (json.dumps({"format": "dimsum-record/1", "game": "chess", "options": {}, "seed": 1,
                                 "steps": []}), "the record's game cannot be made"),
    "illegal step": (None, r"step 2 of the record \(9999, 0 ticks\) cannot be played"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_record_is_an_error_naming_the_problem_and_no_page_is_written(case, tmp_path, capsys):
    text, message = BAD[case]
    if text is None:
        record = _record("yum_cha", 3, 5, players=2)
        record.steps[2] = (9999, 0)
        text = record.dumps()
    (tmp_path / "bad.json").write_text(text)
    out = tmp_path / "page.html"
    assert replay.main([str(tmp_path / "bad.json"), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert re.search(message, err) and err.startswith("python -m dimsum replay: error: ")
    assert not out.exists() and os.listdir(tmp_path) == ["bad.json"], "no page and no partial file"


def test_an_existing_page_is_left_as_it_was_when_the_record_is_bad(tmp_path):
    out = tmp_path / "page.html"
    out.write_text("the old page")
    (tmp_path / "bad.json").write_text("[]")
    assert replay.main([str(tmp_path / "bad.json"), "-o", str(out)]) == 1
    assert out.read_text() == "the old page"


def test_usage_errors_exit_2_and_a_missing_file_exits_1(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        replay.main([str(tmp_path / "x.json")])  # no -o
    assert e.value.code == 2
    assert replay.main([str(tmp_path / "missing.json"), "-o", str(tmp_path / "p.html")]) == 1
    assert "cannot read" in capsys.readouterr().err and not (tmp_path / "p.html").exists()


def test_the_command_line_prints_no_traceback(tmp_path):
    (tmp_path / "bad.json").write_text('{"format": "dimsum-record/1"}')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    run = processes.run([sys.executable, "-m", "dimsum", "replay", str(tmp_path / "bad.json"), "-o",
                         str(tmp_path / "p.html")], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 1 and "Traceback" not in run.stderr and "'game' must be a str" in run.stderr
    assert not (tmp_path / "p.html").exists()


def test_player_names_cannot_break_out_of_the_page_script():
    state = dimsum.make("nice_buns", players=2).new_state(1)
    html = replay.page(Record.of(state, 1, ["</script><!--<script>", "b"]))
    blob = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S).group(1)
    assert "<!--" not in blob and "</script" not in blob
    assert json.loads(blob)["views"][1] == "seat 0 (</script><!--<script>) sees"
