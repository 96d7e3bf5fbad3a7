"""``python -m dimsum bench``: run as a user runs it (the installed package, from a folder that is
not the checkout), its JSON read as github-action-benchmark and pytest-benchmark read it, and bad
arguments refused with a usage error. No figure is compared with a speed: only that every workload
is there, measured, with the fields the formats need."""

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import dimsum
from dimsum.baselines.shipped import shipped
from dimsum.bench import formats
from dimsum.bench.timing import Count, Timing
from dimsum.cli import commands, main

from needs import need_module

# every game's workloads; a policy's only where dimsum ships one for the game's bench options
TIMED = ("per_move_api", "batch_env", "bot/random", "bot/heuristic", "bot/ismcts")
POLICY = ("bot/policy", "policy_inference")
RANGE = re.compile(r"^± (\d+(\.\d*)?(e[+-]?\d+)?)$")  # what github-action-benchmark's extractRangeInfo reads


def bench(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """``python -m dimsum bench ARGS`` in a fresh interpreter, from an empty folder (so the package
    imported is the installed one, not a checkout's)."""
    workdir = tmp_path / "cwd"
    workdir.mkdir(exist_ok=True)
    return subprocess.run([sys.executable, "-m", "dimsum", "bench", *args], cwd=workdir, capture_output=True,
                          text=True, timeout=600, env=dict(os.environ, PYTHONHASHSEED="0"))


def has_shipped_policy(name: str) -> bool:
    from dimsum.bench.workloads import bench_options

    players = dimsum.make(name, **bench_options(name)).players
    return f"{name}-{players}p" in shipped()


@pytest.fixture(scope="module")
def quick_json(tmp_path_factory):
    proc = bench(tmp_path_factory.mktemp("bench"), "--quick", "--json", "-")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout), proc.stderr


def test_bench_is_a_command():
    assert "bench" in commands()


def test_quick_json_has_every_game_and_workload_measured(quick_json):
    entries, _ = quick_json
    names = [entry["name"] for entry in entries]
    assert len(names) == len(set(names)), "a name appears twice"
    for game in dimsum.games():
        expected = TIMED + (POLICY if has_shipped_policy(game) else ())
        for what in expected:
            for clock in ("cpu", "wall"):
                assert f"{game}/{what} [{clock}]" in names, f"{game}/{what} [{clock}] is missing"
        if not has_shipped_policy(game):
            assert not any(name.startswith(f"{game}/{what} ") for name in names for what in POLICY)
    assert len(names) == 2 * sum(len(TIMED) + (len(POLICY) if has_shipped_policy(g) else 0)
                                 for g in dimsum.games())


def test_quick_json_is_github_action_benchmarks_custom_format(quick_json):
    entries, _ = quick_json
    for entry in entries:
        # BenchmarkResult: name, unit and value required; range and extra optional strings
        assert set(entry) <= {"name", "unit", "value", "range", "extra"}, entry
        assert isinstance(entry["name"], str) and isinstance(entry["unit"], str)
        assert isinstance(entry["value"], float) and math.isfinite(entry["value"]) and entry["value"] > 0, entry
        assert entry["unit"].endswith("s/s"), entry  # bigger is better: operations a second
        match = RANGE.match(entry["range"])
        assert match and float(match.group(1)) >= 0, entry["range"]
        assert "median of 3 rounds" in entry["extra"], entry["extra"]


def test_the_table_goes_to_stderr_when_the_json_goes_to_stdout(quick_json):
    _, err = quick_json
    assert "per second (CPU)" in err and "per second (wall)" in err
    for game in dimsum.games():
        assert f"{game}/per_move_api" in err


def test_pytest_benchmark_format_is_read_by_pytest_benchmarks_loader(tmp_path):
    need_module("pytest_benchmark")
    from pytest_benchmark.logger import Logger
    from pytest_benchmark.storage.file import FileStorage

    out = tmp_path / "0001_dimsum_bench.json"
    proc = bench(tmp_path, "--quick", "--rounds", "2", "--game", "pig", "--format", "pytest-benchmark",
                 "--json", str(out))
    assert proc.returncode == 0, proc.stderr

    class Strict(Logger):  # the loader skips a file it cannot read with a warning: make it an error
        def warning(self, text, **kwargs):
            raise AssertionError(text)

    storage = FileStorage(tmp_path, logger=Strict(Logger.QUIET))
    loaded = list(storage.load_benchmarks(str(out)))
    names = sorted(bench["name"] for bench in loaded)
    assert names == sorted(f"pig/{what}[{clock}]" for what in TIMED for clock in ("cpu", "wall"))
    for bench_ in loaded:
        assert bench_["rounds"] == 2 and len(bench_["data"]) == 2
        assert 0 < bench_["min"] <= bench_["median"] <= bench_["max"]
        assert bench_["ops"] == pytest.approx(1 / bench_["mean"])
        assert bench_["iterations"] > 0


def test_pytest_benchmark_compare_shows_our_file(tmp_path):
    need_module("pytest_benchmark")
    cli = Path(sys.executable).parent / "pytest-benchmark"
    if not cli.exists():
        pytest.skip("the pytest-benchmark command is not installed next to this interpreter")
    out = tmp_path / "0001_dimsum_bench.json"
    assert bench(tmp_path, "--quick", "--rounds", "2", "--game", "pig", "--format", "pytest-benchmark",
                 "--json", str(out)).returncode == 0
    proc = subprocess.run([str(cli), "compare", str(out), "--columns", "min,median,max,rounds"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Failed to load" not in proc.stdout + proc.stderr
    for what in TIMED:
        assert f"pig/{what}[cpu]" in proc.stdout


def test_github_smaller_is_nanoseconds_an_operation(tmp_path):
    out = tmp_path / "smaller.json"
    proc = bench(tmp_path, "--quick", "--rounds", "2", "--game", "pig", "--format", "github-smaller", "--json", str(out))
    assert proc.returncode == 0, proc.stderr
    entries = json.loads(out.read_text())
    assert {entry["unit"] for entry in entries} == {"ns/step", "ns/env-step", "ns/move"}
    assert all(entry["value"] > 0 for entry in entries)
    assert f"wrote {out}" in proc.stdout


def test_stats_are_pytest_benchmarks_own():
    """Our stats of a round list equal pytest-benchmark's Stats of it, field by field."""
    stats_module = need_module("pytest_benchmark.stats")
    for data in ([3.0], [2.0, 1.0], [5.0, 1.0, 2.0], [4.0, 1.0, 9.0, 2.0, 2.5], [1, 7, 3, 3, 8, 2, 6.5, 0.5, 4]):
        theirs = stats_module.Stats()
        for x in data:
            theirs.update(float(x))
        ours = formats._stats([float(x) for x in data], iterations=1)
        for field in stats_module.Stats.fields:
            assert ours[field] == pytest.approx(getattr(theirs, field)), (data, field)


def test_github_entry_is_the_median_with_the_half_range():
    timing = Timing("g/what", "step", "a workload", ops=[10, 10, 10], cpu=[1.0, 2.0, 4.0], wall=[2.0, 2.0, 2.0])
    cpu, wall = formats.github([timing], bigger=True)
    assert (cpu["name"], cpu["unit"], cpu["value"], cpu["range"]) == ("g/what [cpu]", "steps/s", 5.0, "± 3.75")
    assert (wall["name"], wall["value"], wall["range"]) == ("g/what [wall]", 5.0, "± 0.0")
    cpu, _ = formats.github([timing], bigger=False)
    assert (cpu["unit"], cpu["value"], cpu["range"]) == ("ns/step", 2e8, "± 150000000.0")


def test_counts_are_smaller_is_better_only():
    count = Count("g/instructions/python_step", "instructions/step", "a workload", 6667.1)
    assert formats.github([count], bigger=True) == []
    (entry,) = formats.github([count], bigger=False)
    assert (entry["name"], entry["unit"], entry["value"]) == ("g/instructions/python_step", "instructions/step", 6667.1)
    assert formats.pytest_benchmark([count], "0")["benchmarks"] == []


@pytest.mark.parametrize("args, message", [
    (["--rounds", "0"], "argument --rounds: 0 is below 1"),
    (["--rounds", "many"], "argument --rounds: 'many' is not an int"),
    (["--game", "chess"], "argument --game: invalid choice: 'chess'"),
    (["--format", "csv", "--json", "-"], "argument --format: invalid choice: 'csv'"),
    (["--format", "pytest-benchmark"], "--format chooses the JSON's format: give --json FILE"),
    (["--counts-only"], "--counts-only writes instruction counts, which only --format github-smaller holds"),
    (["--no-such-option"], "unrecognized arguments: --no-such-option"),
])
def test_bad_arguments_are_usage_errors(args, message, capsys, monkeypatch):
    monkeypatch.setattr("dimsum.bench.instructions.available", lambda: True)  # --counts-only's check comes first
    with pytest.raises(SystemExit) as exit_:
        main(["bench", *args])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "usage: python -m dimsum bench" in err and message in err, err


def test_callgrind_without_valgrind_is_a_usage_error(capsys, monkeypatch):
    monkeypatch.setattr("dimsum.bench.instructions.available", lambda: False)
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--callgrind", "--quick"])
    assert exit_.value.code == 2
    assert "--callgrind needs valgrind, which is not on the PATH" in capsys.readouterr().err


def test_bad_arguments_exit_2_from_the_command_line(tmp_path):
    proc = bench(tmp_path, "--rounds", "-1")
    assert proc.returncode == 2
    assert "argument --rounds: -1 is below 1" in proc.stderr and "Traceback" not in proc.stderr


def test_an_unwritable_json_path_is_an_error_not_a_traceback(tmp_path):
    proc = bench(tmp_path, "--quick", "--rounds", "1", "--game", "pig", "--json", str(tmp_path / "no" / "such" / "x.json"))
    assert proc.returncode == 1
    assert "python -m dimsum bench: error: cannot write" in proc.stderr and "Traceback" not in proc.stderr


def test_a_counted_run_does_not_depend_on_its_working_folder(tmp_path, monkeypatch):
    """Instruction counts are the same however busy the folder they are run from: ``python -c``
    would import from it first, and a folder whose files change between two runs is listed again
    (PYTHONSAFEPATH keeps it off sys.path; Python 3.11 on)."""
    from needs import need

    from dimsum.bench import instructions

    need(instructions.available(), "valgrind")
    if sys.version_info < (3, 11):
        pytest.skip("PYTHONSAFEPATH is Python 3.11's")
    monkeypatch.chdir(tmp_path)
    script = ["-c", "import json, csv; print('STEPS', 0)"]
    first, out, _ = instructions.callgrind_run(script)
    for i in range(300):  # the folder changes between the runs, as /tmp does
        (tmp_path / f"file{i}.txt").write_text("x")
    second, _, _ = instructions.callgrind_run(script)
    assert out == "STEPS 0\n"
    assert first == second
