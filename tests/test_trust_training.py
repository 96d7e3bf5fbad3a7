"""The training command against what an operator's mistakes and a planted link would do to it
(python/dimsum/baselines/train.py, run_files.py): every file it writes goes through the atomic
writer that never follows a symbolic link, every argument is checked before torch is imported
(argparse's exit 2, a message naming the argument, no traceback), and a run stopped by a signal
records what it did and exits 128 + the signal (130 for Ctrl-C). Runs are tiny (a few thousand
steps of a net of width 8): the machine is shared."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import processes
from needs import need_module

import dimsum  # noqa: E402

# the children import the dimsum this run tests (the installed wheel in CI, python/ in a checkout)
PYTHON_DIR = str(Path(dimsum.__file__).resolve().parents[1])
TINY = ["nice_buns", "--players", "2", "--steps", "1024", "--envs", "2", "--eval-every", "1024",
        "--eval-games", "2", "--hidden", "8,8"]
VICTIM_TEXT = "the operator's file: a link planted at a run's output points here\n"

# (directory flag, file name): the six files a run writes under fixed names
OUTPUTS = [("--out", "curve.json"), ("--out", "record.json"), ("--out", "best.dspolicy"), ("--out", "curve.png"),
           ("--ship", "nice_buns-2p.dspolicy"), ("--ship", "nice_buns-2p.json")]


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _plant(tmp_path: Path, link: Path) -> Path:
    victim = tmp_path / "victim.txt"
    victim.write_text(VICTIM_TEXT)
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(victim)
    return victim


@pytest.mark.parametrize("flag,name", OUTPUTS)
def test_a_link_planted_at_an_output_is_refused_before_training_and_its_target_is_untouched(tmp_path, capsys, flag,
                                                                                               name):
    from dimsum.baselines import train

    out, ship = tmp_path / "run", tmp_path / "ship"
    link = (out if flag == "--out" else ship) / name
    victim = _plant(tmp_path, link)
    with pytest.raises(SystemExit) as stop:
        train.main([*TINY, "--out", str(out), "--ship", str(ship)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"{flag}: {str(link)!r} is a symbolic link" in err and "Traceback" not in err
    assert victim.read_text() == VICTIM_TEXT and link.is_symlink()
    assert not list(out.glob("step-*.dspolicy"))  # refused before anything trained


def test_a_link_planted_at_a_checkpoints_name_is_refused_before_training(tmp_path, capsys):
    from dimsum.baselines import train

    out = tmp_path / "run"
    victim = _plant(tmp_path, out / "step-00001024.dspolicy")
    with pytest.raises(SystemExit) as stop:
        train.main([*TINY, "--out", str(out)])
    assert stop.value.code == 2 and "step-00001024.dspolicy' is a symbolic link" in capsys.readouterr().err
    assert victim.read_text() == VICTIM_TEXT


@pytest.mark.parametrize("name", ["curve.json", "step-00001024.dspolicy"])
def test_a_link_planted_while_the_run_trains_is_never_written_through(tmp_path, capsys, monkeypatch, name):
    """Planted after the check at the start: the writer refuses it when the file is written, the
    run ends with exit 1 and a message, and the link's target is untouched."""
    need_module("sb3_contrib")
    from dimsum.baselines import train
    from dimsum.baselines.opponents import OpponentSchedule

    out = tmp_path / "run"
    victim = tmp_path / "victim.txt"
    pick = OpponentSchedule.pick

    def plant_then_pick(self, steps, checkpoints):
        if not (out / name).is_symlink():
            victim.write_text(VICTIM_TEXT)
            (out / name).symlink_to(victim)
        return pick(self, steps, checkpoints)

    monkeypatch.setattr(OpponentSchedule, "pick", plant_then_pick)
    assert train.main([*TINY, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "refusing to write through a symbolic link" in err and name in err and "Traceback" not in err
    assert victim.read_text() == VICTIM_TEXT and (out / name).is_symlink()


BAD_ARGUMENTS = [
    (["--seed", str(10**23)], r"--seed must be an int in \[-2\*\*63, 2\*\*64\)"),
    (["--seed", str(2**64)], r"--seed must be an int in \[-2\*\*63, 2\*\*64\)"),
    (["--seed", str(-2**63 - 1)], r"--seed must be an int in \[-2\*\*63, 2\*\*64\)"),
    (["--seed", "1e3"], "argument --seed: invalid int value"),
    (["--hidden", "200000000,1"], r"--hidden 200000000,1: the actor would have \d+ weights .* a policy file holds at most \d+"),
    (["--hidden", ",".join(["4"] * 17)], "argument --hidden: at most 16 hidden widths, got 17"),
    (["--hidden", "64,-1"], "hidden widths are positive integers"),
    (["--target", "nan"], r"--target is a win share: a number in \[0, 1\], got nan"),
    (["--target", "inf"], r"--target is a win share: a number in \[0, 1\], got inf"),
    (["--target", "-0.5"], r"--target is a win share: a number in \[0, 1\], got -0.5"),
    (["--target", "1.5"], r"--target is a win share: a number in \[0, 1\], got 1.5"),
    (["--steps", str(10**13)], "--steps must be at most 1000000000000"),
    (["--eval-every", str(10**13)], "--eval-every must be at most"),
    (["--warm-start", str(10**13)], "--warm-start must be at most"),
    (["--critic-warmup", str(10**13)], "--critic-warmup must be at most"),
    (["--eval-games", str(10**7)], "--eval-games must be at most 1000000"),
    (["--eval-games", "0"], "--eval-games must be >= 1, got 0"),
    (["--imitate-epochs", str(10**5)], "--imitate-epochs must be at most 10000"),
    (["--envs", str(10**9)], r"--envs 1000000000: the rollout buffer .* more than half of this machine's memory"),
    (["--envs", "-2"], "--envs must be >= 1, got -2"),
    (["--imitate", str(10**11)], r"--imitate 100000000000: the decisions would hold .* GiB"),
    (["--players", "-5"], "--players must be >= 1, got -5"),
    (["--players", "1000000"], "option 'players' must be in"),
    (["--option", "max_turns=10000000000000000000000"], "max_turns"),
]


@pytest.mark.parametrize("extra,message", BAD_ARGUMENTS, ids=[" ".join(a)[:40] for a, _ in BAD_ARGUMENTS])
def test_a_bad_argument_is_a_usage_error_naming_it_before_anything_trains(tmp_path, capsys, extra, message):
    import re

    from dimsum.baselines import train

    with pytest.raises(SystemExit) as stop:
        train.main(["nice_buns", "--out", str(tmp_path / "run"), *extra])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert re.search(message, err) and "Traceback" not in err, err
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("what", ["file", "fifo"])
def test_an_out_or_ship_that_is_not_a_directory_is_a_usage_error(tmp_path, capsys, what):
    from dimsum.baselines import train

    path = tmp_path / "taken"
    if what == "file":
        path.write_text("an existing file\n")
    else:
        os.mkfifo(path)
    for flag in ("--out", "--ship"):
        with pytest.raises(SystemExit) as stop:
            train.main(["nice_buns", *(["--out", str(tmp_path / "run")] if flag == "--ship" else []), flag, str(path)])
        assert stop.value.code == 2
        assert f"{flag} {str(path)!r} exists and is not a directory" in capsys.readouterr().err
    assert what == "fifo" or path.read_text() == "an existing file\n"


def test_the_arguments_the_issue_found_give_no_traceback_and_torch_is_not_imported(tmp_path):
    """In a child, as the operator runs it: exit 2 and one usage message for each, and the check
    happens before torch (the slow import) is loaded."""
    existing = tmp_path / "existing"
    existing.write_text("x")
    probe = (
        "import sys\n"
        "from dimsum.baselines import train\n"
        "try:\n"
        "    train.main(sys.argv[1:])\n"
        "except SystemExit as e:\n"
        "    print('exit', e.code, 'torch' in sys.modules)\n"
    )
    for extra in (["--seed", str(10**23)], ["--seed", str(-2**64)], ["--out", str(existing)],
                  ["--hidden", "200000000,1"], ["--target", "nan"]):
        done = processes.run([sys.executable, "-c", probe, "nice_buns", *extra], capture_output=True, text=True,
                             timeout=120, env=_env(), cwd=tmp_path)
        assert done.stdout.strip() == "exit 2 False", (extra, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr and "error: --" in done.stderr, done.stderr


def test_a_negative_seed_folds_as_check_seed_does_and_trains(tmp_path):
    """``--seed -1`` (a traceback before): folded to 2**64 - 1, the evaluation deals and the env
    seeds derived from it wrapping at 2**64, SB3's generators given it modulo 2**32."""
    need_module("sb3_contrib")
    from dimsum.baselines import train

    out = tmp_path / "run"
    assert train.main([*TINY, "--seed", "-1", "--out", str(out)]) == 0
    record = json.loads((out / "record.json").read_text())
    assert record["seed"] == -1 and record["steps"] == 1024 and (out / "best.dspolicy").is_file()


def _train_in_child(tmp_path: Path, out: Path) -> "subprocess.Popen[str]":
    return processes.start([sys.executable, "-m", "dimsum.baselines.train", "nice_buns", "--players", "2",
                            "--steps", str(10**9), "--envs", "2", "--eval-every", str(10**6), "--eval-games", "2",
                            "--hidden", "8,8", "--out", str(out)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), cwd=tmp_path)


@pytest.mark.parametrize("signum,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_run_stopped_by_a_signal_records_what_it_did_and_exits_non_zero(tmp_path, signum, code):
    """Started in its own session as a terminal's job would be, signalled once it trains (Ctrl-C
    reaches the whole foreground group): exit 128 + the signal, the record written."""
    need_module("sb3_contrib")
    out = tmp_path / "run"
    child = _train_in_child(tmp_path, out)
    try:
        first = child.stdout.readline()
        assert first.startswith("MaskablePPO on nice_buns"), first + child.stderr.read()
        os.killpg(child.pid, signum)
        stdout, stderr = child.communicate(timeout=180)
    finally:
        processes.stop(child)
    assert child.returncode == code, stdout + stderr
    assert f"interrupted ({signal.Signals(signum).name})" in stdout and f"exit code {code}" in stdout
    assert "Traceback" not in stderr, stderr
    record = json.loads((out / "record.json").read_text())
    assert record["stopped_early"] is True and (out / "best.dspolicy").is_file() and (out / "curve.png").is_file()


def test_an_interrupt_before_the_training_loop_exits_130_with_a_message(tmp_path, capsys, monkeypatch):
    need_module("sb3_contrib")
    from dimsum.baselines import progress, train

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(progress, "progress_callback", interrupted)
    assert train.main([*TINY, "--out", str(tmp_path / "run")]) == 130
    err = capsys.readouterr().err
    assert "interrupted (SIGINT)" in err and "Traceback" not in err
