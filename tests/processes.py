"""Programs the tests start (a browser, tmux servers, ``python -m dimsum ...``, compilers, type
checkers), and the end-of-session check that none of them outlives the test run.

Why a group and not a pid: a program may start others and leave them running when it ends
(Debian's ``/usr/bin/chromium-headless-shell`` is a shell script that starts the real browser,
which starts its own helpers), so ending the process the test started can leave the rest
re-parented to init. ``start`` runs each program in a new session (its own process group), and
``stop`` ends everything in that session: SIGTERM, a grace period, then SIGKILL.

How the check finds what the tests started, even once re-parented to init: this module sets an
environment variable unique to this test run (``MARKER``) in the test process, which every
program started from it inherits (whatever the program, whoever starts it: Ray, tmux, a browser).
At the end of the session, any live process that carries the marker fails the run, named by pid and
command line, and is ended. (Session ids alone would not do: once a session is over, its id is a
free pid that an unrelated program may get.) The check is a pytest plugin: tests/conftest.py
imports its hooks, and a run of pytest on a planted leak loads it with ``-p processes``
(tests/test_processes.py).
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import time
from multiprocessing import resource_tracker
from typing import Any, List, Optional, Sequence

import psutil
import pytest

# A name unique to this run: a nested pytest run has its own, and its programs carry both (they
# inherit the outer one), so the outer run still sees what a nested run leaves behind.
MARKER = f"DIMSUM_TEST_RUN_{secrets.token_hex(6).upper()}"  # upper case: Windows upper-cases names
os.environ[MARKER] = str(os.getpid())

GRACE = 10.0  # seconds a program has to end after SIGTERM before SIGKILL
SETTLE = 5.0  # seconds the end-of-session check gives processes that are already on their way out


def start(args: Sequence[str], **popen_kwargs: Any) -> "subprocess.Popen[Any]":
    """``subprocess.Popen(args, ...)`` in a new session (its own process group; ignored on Windows).
    End it with ``stop``."""
    return subprocess.Popen(args, start_new_session=True, **popen_kwargs)


def _members(session_id: int) -> List[psutil.Process]:
    """The live processes of a session (zombies are already dead: their parent just did not reap
    them). None on Windows, which has no sessions: there ``stop`` ends the process tree."""
    if not hasattr(os, "getsid"):
        return []
    found = []
    for p in psutil.process_iter():
        try:
            if os.getsid(p.pid) == session_id and p.status() != psutil.STATUS_ZOMBIE:
                found.append(p)
        except (OSError, psutil.Error):
            continue  # gone meanwhile
    return found


def _descendants(pid: int) -> List[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def _running(p: psutil.Process) -> bool:
    """Alive: not ended, not a zombie (dead, only not reaped yet), not its pid reused by another."""
    try:
        return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _wait_gone(procs: List[psutil.Process], timeout: float) -> List[psutil.Process]:
    """Those of ``procs`` still running after up to ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        alive = [p for p in procs if _running(p)]
        if not alive or time.monotonic() >= deadline:
            return alive
        time.sleep(0.02)


def _end(procs: List[psutil.Process], grace: float = GRACE) -> None:
    """SIGTERM to each, up to ``grace`` seconds to end, then SIGKILL to the rest."""
    me = os.getpid()
    procs = [p for p in procs if p.pid != me]
    for p in procs:
        try:
            p.terminate()
        except psutil.Error:
            pass
    alive = _wait_gone(procs, grace)
    for p in alive:
        try:
            p.kill()
        except psutil.Error:
            pass
    _wait_gone(alive, grace)


def stop_session(session_id: int, grace: float = GRACE) -> None:
    """Ends every process of the session ``session_id``."""
    _end(_members(session_id), grace)


def stop(proc: "subprocess.Popen[Any]", grace: float = GRACE) -> None:
    """Ends ``proc``, its descendants and everything else in its session, and reaps ``proc``. Safe
    to call twice and after the program ended on its own (it then ends what the program left behind)."""
    family = _descendants(proc.pid) if proc.poll() is None else []
    if proc.poll() is None:
        try:
            if hasattr(os, "killpg"):
                os.killpg(proc.pid, signal.SIGTERM)  # the leader is not reaped yet: its pid is not reused
            else:
                proc.terminate()
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    _end(family + _members(proc.pid), grace)


def run(args: Sequence[str], *, input: Any = None, capture_output: bool = False, timeout: Optional[float] = None,
        check: bool = False, **popen_kwargs: Any) -> "subprocess.CompletedProcess[Any]":
    """``subprocess.run`` whose program runs in its own session, which is ended when the program
    ends, times out or the caller is interrupted: nothing it started outlives the call."""
    if input is not None:
        popen_kwargs["stdin"] = subprocess.PIPE
    if capture_output:
        popen_kwargs["stdout"] = popen_kwargs["stderr"] = subprocess.PIPE
    proc = start(args, **popen_kwargs)
    with proc:
        try:
            stdout, stderr = proc.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            stop(proc)
            try:  # what it printed before it was ended
                stdout, stderr = proc.communicate(timeout=GRACE)
            except subprocess.TimeoutExpired:  # a process outside the session still holds the pipes
                stdout = stderr = None
            raise subprocess.TimeoutExpired(proc.args, timeout or 0, output=stdout, stderr=stderr) from None
        except BaseException:
            stop(proc)
            raise
        stop(proc)  # what it left behind in its session
    done = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    if check:
        done.check_returncode()
    return done


# --- the end-of-session check ----------------------------------------------------------------

def _ancestors() -> set:
    """This process and the ones above it (a nested run's parent carries the outer marker)."""
    out = {os.getpid()}
    p: Optional[psutil.Process] = psutil.Process()
    while p is not None:
        out.add(p.pid)
        p = p.parent()
    return out


def _ours(p: psutil.Process) -> bool:
    try:
        return MARKER in p.environ()
    except (OSError, psutil.Error):  # gone, or another user's process
        return False


def leftovers(settle: float = 0.0) -> List[psutil.Process]:
    """The live processes this run started (directly or not) other than this one, after giving
    them up to ``settle`` seconds to end."""
    deadline = time.monotonic() + settle
    skip = _ancestors()
    while True:
        found = []
        for p in psutil.process_iter():
            try:
                if p.pid not in skip and p.status() != psutil.STATUS_ZOMBIE and _ours(p):
                    found.append(p)
            except psutil.Error:
                continue
        if not found or time.monotonic() >= deadline:
            return found
        time.sleep(0.1)


def describe(p: psutil.Process) -> str:
    try:
        session = f", session {os.getsid(p.pid)}" if hasattr(os, "getsid") else ""
        return f"pid {p.pid} (parent {p.ppid()}{session}): {' '.join(p.cmdline()) or p.name()}"
    except (OSError, psutil.Error):
        return f"pid {p.pid} (ended meanwhile)"


_left_behind: List[str] = []


def _interrupt_on_sigterm(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def pytest_sessionstart(session: pytest.Session) -> None:
    # A SIGTERM (a CI timeout, `kill`) ends pytest like Ctrl-C does: fixtures are torn down and the
    # check below ends what is left, instead of the interpreter vanishing with its programs running.
    try:
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _interrupt_on_sigterm)
    except ValueError:  # not the main thread
        pass


def _stop_interpreter_helpers() -> None:
    """Stops multiprocessing's resource tracker, which a process pool (spawn) starts in this process
    and which would only end when this interpreter exits (its pipe closes): the same end, now."""
    tracker = getattr(resource_tracker, "_resource_tracker", None)
    if tracker is not None and hasattr(tracker, "_stop"):
        tracker._stop()


@pytest.hookimpl(trylast=True)  # after the runner's own sessionfinish, which tears down every fixture
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fails the run if a program the tests started is still running, and ends it."""
    _stop_interpreter_helpers()
    left = leftovers(settle=SETTLE)
    if not left:
        return
    _left_behind[:] = [describe(p) for p in left]
    _end(left)
    if session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _left_behind:
        terminalreporter.write_sep("=", "processes left behind", red=True, bold=True)
        terminalreporter.write_line(f"the tests left {len(_left_behind)} process(es) running (now ended); "
                                    "the run fails:")
        for line in _left_behind:
            terminalreporter.write_line("  " + line)
