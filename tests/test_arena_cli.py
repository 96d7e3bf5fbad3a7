"""python -m dimsum arena: the thin layer over dimsum.arena.run. Exit codes: 0 done, 1 stopped, 2 usage;
never a traceback."""

import json
import sys
from pathlib import Path

import pytest

import processes
from arena_bots import registered_kinds
from dimsum.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def registered_test_kinds():
    """The test kinds "first" and "broken" exist during each test of this module, and only then."""
    with registered_kinds():
        yield


def test_a_tournament_prints_its_table_and_writes_json_and_records(tmp_path, capsys):
    path, records = tmp_path / "results.json", tmp_path / "games"
    code = main(["arena", "--game", "nice_buns", "--players", "3", "--option", "max_turns=200", "--bots",
                 "random,first", "--games", "6", "--seed", "1", "--json", str(path), "--record", str(records),
                 "--no-progress"])
    out = capsys.readouterr()
    assert code == 0 and out.err == ""
    assert "6 games of nice_buns (max_turns=200, players=3), seed 1: 6 line-ups x 1 rounds" in out.out
    data = json.loads(path.read_text())
    assert data["options"]["max_turns"] == 200 and data["complete"] and len(data["games"]) == 6
    assert len(list(records.glob("game-*.json"))) == 6


@pytest.mark.parametrize("args, says", [
    (["--bots", "nope"], "unknown bot kind 'nope'"),
    (["--bots", "random:depth=2"], "has no parameter 'depth'"),
    (["--bots", "random", "--option", "colour=red"], "unknown nice_buns option"),
    (["--bots", "random", "--option", "players"], "is not name=value"),
    (["--bots", "random", "--games", "0"], "argument --games"),
    (["--bots", "random", "--players", "9"], "players"),
])
def test_bad_usage_is_exit_code_2_with_a_message(args, says, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["arena", "--game", "nice_buns", *args])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and says in err and "Traceback" not in err


def test_a_failing_bot_is_exit_code_1_naming_it_and_the_finished_games_stay_in_the_json(tmp_path, capsys):
    path = tmp_path / "results.json"
    code = main(["arena", "--game", "nice_buns", "--players", "2", "--bots", "random,broken:after=52",
                 "--games", "20", "--seed", "1", "--json", str(path), "--no-progress"])
    out = capsys.readouterr()
    assert code == 1 and "stopped: bot 'broken:after=52' (seat" in out.err and "Traceback" not in out.err
    data = json.loads(path.read_text())
    assert data["failure"]["bot"] == "broken:after=52" and len(data["games"]) == data["failure"]["index"] > 0


def test_an_unreachable_ray_address_is_exit_code_1_with_a_message(capsys):
    code = main(["arena", "--game", "nice_buns", "--bots", "random", "--ray", "127.0.0.1:1", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 1 and "Ray" in err and "Traceback" not in err


def test_the_command_runs_as_a_program_with_a_progress_line_off_a_terminal():
    done = processes.run([sys.executable, "-m", "dimsum", "arena", "--game", "nice_buns", "--players", "2",
                          "--bots", "random,random", "--games", "4", "--seed", "3"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "nice_buns: random, random#2: 4/4 games" in done.stderr and "random#2" in done.stdout


def test_the_dimsum_console_script_runs_the_arena_too():
    import shutil

    from needs import need

    script = shutil.which("dimsum")
    need(script is not None, "the dimsum console script (pip install dimsum-games)")
    done = processes.run([script, "arena", "--game", "nice_buns", "--players", "2", "--bots", "random",
                          "--games", "1", "--no-progress"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0 and "1 games of nice_buns (players=2), seed 0: 1 line-ups x 1 rounds" in done.stdout


def test_the_main_job_ends_with_a_short_arena_of_the_strongest_bots(capsys):
    from dimsum.cli.run import SHOWCASE, showcase_specs

    code = main(["--games", "20", "--arena-games", "2", "--seed", "4"])
    out = capsys.readouterr()
    assert code == 0 and "\narena: " in out.out and "games of nice_buns (players=2), seed 4" in out.out
    assert "nice_buns: " in out.err, "the progress display, on stderr"
    import dimsum

    specs = showcase_specs(dimsum.make("nice_buns", players=2))
    shown = [kind for kind, _ in SHOWCASE]
    assert "random" in specs and [shown.index(s.partition(":")[0]) for s in specs] == sorted(
        shown.index(s.partition(":")[0]) for s in specs), "strongest first"
