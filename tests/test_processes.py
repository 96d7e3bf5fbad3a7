"""tests/processes.py: a program the tests start is ended with everything it started, and the
end-of-session check fails a run that leaves a program running, naming it (pid, command line)."""

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import psutil
import pytest

import processes

HERE = Path(__file__).resolve().parent
# the programs planted here are POSIX ones (sh, sleep); sessions are POSIX too
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX programs and sessions")


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_run_ends_what_its_program_left_behind():
    # the shell ends at once; the sleep it started in the background would run on, re-parented to init
    done = processes.run(["sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $!"], capture_output=True, text=True,
                         timeout=30)
    left = int(done.stdout)
    assert done.returncode == 0 and not alive(left)


def test_a_timed_out_program_is_ended_with_its_children():
    with pytest.raises(subprocess.TimeoutExpired) as timed_out:
        processes.run(["sh", "-c", "sleep 60 & echo $!; wait"], capture_output=True, text=True, timeout=1)
    child = int(timed_out.value.stdout)  # what it printed before it was ended is kept
    assert not alive(child)


def test_stop_ends_a_launcher_and_the_program_it_started():
    # like /usr/bin/chromium-headless-shell: a shell script whose program outlives a SIGKILL to the shell
    proc = processes.start(["sh", "-c", "sleep 60 & echo $!; wait"], stdout=subprocess.PIPE, text=True)
    child = int(proc.stdout.readline())
    proc.stdout.close()
    processes.stop(proc)
    assert proc.returncode is not None and not alive(child)


PLANTED = '''
import subprocess

import processes


def test_leaves_programs_running():
    # re-parented to init at once: no longer a descendant of pytest
    subprocess.run(["sh", "-c", "sleep 60 >/dev/null 2>&1 &"], check=True)
    # in a session of its own, never stopped
    processes.start(["sleep", "61"])
'''


def run_pytest_on(test_code: str, folder: Path) -> subprocess.CompletedProcess:
    """pytest on one planted test file, with the check loaded as a plugin (-p processes)."""
    (folder / "test_planted.py").write_text(textwrap.dedent(test_code), encoding="utf-8")
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), *sys.path]))
    return processes.run([sys.executable, "-m", "pytest", "-p", "processes", "-p", "no:cacheprovider", "-q",
                          "test_planted.py"], cwd=folder, env=env, capture_output=True, text=True, timeout=120)


def test_the_check_fails_a_run_that_leaves_programs_running_and_names_them(tmp_path):
    done = run_pytest_on(PLANTED, tmp_path)
    out = done.stdout + done.stderr
    assert done.returncode == pytest.ExitCode.TESTS_FAILED, out
    assert "processes left behind" in out and "1 passed" in out, out
    named = {m["command"]: int(m["pid"]) for m in re.finditer(r"pid (?P<pid>\d+) \(.*?\): (?P<command>sleep 6\d)$",
                                                              out, re.M)}
    assert set(named) == {"sleep 60", "sleep 61"}, out
    assert not any(alive(pid) for pid in named.values()), "the check ends what it names"


def test_the_check_passes_a_run_that_ends_its_programs(tmp_path):
    done = run_pytest_on('''
        import processes

        def test_ends_what_it_starts():
            processes.stop(processes.start(["sleep", "60"]))
            assert processes.run(["sh", "-c", "sleep 60 >/dev/null 2>&1 &"]).returncode == 0
        ''', tmp_path)
    out = done.stdout + done.stderr
    assert done.returncode == pytest.ExitCode.OK and "processes left behind" not in out, out
