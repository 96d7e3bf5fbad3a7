"""Bot processes: started from an argv list (never a shell), spoken to in lines with a deadline on
every exchange, kept for the next game, and always ended, with everything they started, and
waited for.

- :class:`BotProcess`: one running bot. Reads and writes go through ``select`` with the move's
  deadline, so a bot that hangs, stops reading or writes half a line can never block the engine; a
  line longer than ``MAX_LINE`` or nested deeper than ``dimsum._files.MAX_JSON_DEPTH`` is
  malformed. Its stderr is drained by a thread and only its last 64 KiB kept
  (:mod:`.stderr_tail`), quoted when the bot dies (a bot's debug output never reaches the
  terminal's screen, and no amount of it fills the memory or the disk).
- The pool (:func:`lease`, :func:`release`, :func:`close_all`): a process that finished a game
  cleanly is handed to the next game with the same argv (a new ``new_game`` message), so a
  tournament starts each bot once per seat it holds at a time, not once per game. ``close_all``
  sends ``quit`` to every process, waits ``GRACE`` seconds, then kills each process's group and
  waits for it; the arena calls it when a chunk of games ends, ``play`` when the game ends, and
  ``atexit`` for anyone else. ``close_all(holder=bot)`` closes only the processes a bot holds
  (``ExternalBot.close``).

Each bot runs in a session of its own (``start_new_session``), so it leads a process group that
holds everything it starts (a shell script's commands, the helpers it forks), unless a process
deliberately leaves it (``setsid``). Ending a bot ends that whole group with ``SIGKILL``, after
``quit`` and the grace on a normal close, at once on every error: the engine leaves nothing
running. The group is killed before the bot itself is reaped, so its id (the bot's pid) cannot
have been reused by then. A Ctrl-C in the terminal reaches the engine only, which then closes its
bots in order. A bot whose engine dies without closing it reads end of input, which the protocol
makes a quit. POSIX only (``select`` on pipes, process groups).
"""

from __future__ import annotations

import atexit
import os
import select
import signal
import subprocess
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .messages import MAX_LINE, QUIT, BotProtocolError, check_hello, decode, encode, hello, printable
from .stderr_tail import StderrTail

GRACE = 2.0  # seconds a bot has to exit after quit before its group is killed
STDERR_TAIL = 600  # characters of a dead bot's stderr quoted in the error
STDERR_SETTLE = 0.5  # seconds a dead bot's last stderr has to arrive before it is quoted
EXIT_POLL = 0.01  # seconds between two looks at a bot that is given time to exit


class BotProcess:
    """One bot process. ``wants``: what its hello asked for (after :meth:`handshake`); ``shown``:
    how errors name the program (``public_command``: no machine paths); ``holder``: the bot that
    leased it last (for ``close_all(holder=...)``)."""

    def __init__(self, argv: Sequence[str], shown: Optional[str] = None, holder: Any = None) -> None:
        self.argv = tuple(argv)
        self.shown = shown if shown is not None else public_command(self.argv)
        self.holder = holder
        try:
            self.popen = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, start_new_session=True, close_fds=True)
        except OSError as e:
            raise BotProtocolError(f"cannot start {self.shown!r}: {e.strerror or e}") from None
        assert self.popen.stdin is not None and self.popen.stdout is not None and self.popen.stderr is not None
        self.group = self.popen.pid  # the leader of its own session: the group's id is its pid
        self.stderr = StderrTail(self.popen.stderr, self.shown)
        self.stdin, self.stdout = self.popen.stdin.fileno(), self.popen.stdout.fileno()
        os.set_blocking(self.stdin, False)
        self.pending = b""
        self.wants: List[str] = []
        self.name = ""
        self.closed = False
        _ALL.append(self)

    @property
    def alive(self) -> bool:
        return self._exit_code() is None

    def _exit_code(self) -> Optional[int]:
        """The bot's exit code (negative: the signal that ended it) once it has exited, None while it
        runs. It is not reaped here (``WNOWAIT``): until its group is killed, its pid stays its own."""
        if self.popen.returncode is not None:
            return self.popen.returncode
        if not hasattr(os, "waitid"):  # macOS: no waitid; poll reaps, and the group is killed right after
            return self.popen.poll()
        try:
            info = os.waitid(os.P_PID, self.popen.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:  # reaped already (by someone else's wait): treat it as gone
            return self.popen.poll() if self.popen.returncode is None else self.popen.returncode
        if info is None:
            return None
        return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status

    def _wait_exit(self, deadline: float) -> Optional[int]:
        """The exit code once the bot has exited, waiting up to ``deadline``; None if it still runs."""
        while True:
            code = self._exit_code()
            if code is not None or time.monotonic() >= deadline:
                return code
            time.sleep(EXIT_POLL)

    def handshake(self, deadline: float) -> None:
        self.send(hello(), deadline)
        reply = self.receive(deadline, "the bot's hello")
        try:
            self.wants = check_hello(reply)
        except ValueError as e:
            raise BotProtocolError(str(e)) from None
        self.name = printable(str(reply.get("name", "")))[:80]

    def send(self, message: Dict[str, Any], deadline: float) -> None:
        data = encode(message)
        while data:
            try:
                written = os.write(self.stdin, data)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, OSError):
                raise BotProtocolError(self._died("while it was being written to")) from None
            data = data[written:]
            if data and not select.select([], [self.stdin], [], self._left(deadline, "to read its input"))[1]:
                raise BotProtocolError(self._late("to read its input"))

    def check_quiet(self) -> None:
        """BotProtocolError if the bot has written anything it was not asked for (a second reply to
        one move, say), which would otherwise be taken as the answer to the next question."""
        if not self.pending and select.select([self.stdout], [], [], 0)[0]:
            self.pending = os.read(self.stdout, 65536)
        if self.pending:
            shown = self.pending[:120].decode("utf-8", errors="replace")
            raise BotProtocolError(f"it wrote {shown!r} without being asked (one reply per act message, "
                                   f"nothing else on stdout: debug output goes to stderr)")

    def receive(self, deadline: float, expected: str) -> Dict[str, Any]:
        """The next message; BotProtocolError on a timeout, the bot's death, a line too long or not a
        message object (``expected`` names what should have come)."""
        while b"\n" not in self.pending:
            if len(self.pending) > MAX_LINE:
                raise BotProtocolError(f"it wrote a line longer than {MAX_LINE} bytes; expected {expected}")
            if not select.select([self.stdout], [], [], self._left(deadline, "to answer"))[0]:
                raise BotProtocolError(self._late("to answer"))
            data = os.read(self.stdout, 65536)
            if not data:
                raise BotProtocolError(self._died(f"instead of sending {expected}"))
            self.pending += data
        line, _, self.pending = self.pending.partition(b"\n")
        if len(line) > MAX_LINE:
            raise BotProtocolError(f"it wrote a line longer than {MAX_LINE} bytes; expected {expected}")
        try:
            return decode(line, expected)
        except ValueError as e:
            raise BotProtocolError(str(e)) from None

    def _left(self, deadline: float, doing: str) -> float:
        left = deadline - time.monotonic()
        if left <= 0:
            raise BotProtocolError(self._late(doing))
        return left

    def _late(self, doing: str) -> str:
        return f"it took longer than its time limit {doing} (the move's time is move_seconds); it was killed"

    def _died(self, when: str) -> str:
        """Why the bot's output ended: its exit code and the end of its stderr."""
        code = self._wait_exit(time.monotonic() + 1.0)
        how = "closed its output" if code is None else f"exited with code {code}"
        if code is not None:
            self.stderr.finish(STDERR_SETTLE)  # what it wrote last, up to its end
        tail = printable(self.stderr.tail(STDERR_TAIL), keep_newlines=True)
        return f"it {how} {when}" + (f"; its stderr ended with: {tail}" if tail else "; its stderr was empty")

    def begin_close(self) -> None:
        """Asks the bot to quit (a quit message, then end of input); never raises, never blocks."""
        if self.popen.stdin is None or self.popen.stdin.closed:
            return
        try:
            os.write(self.stdin, encode(QUIT))
        except OSError:
            pass
        try:
            self.popen.stdin.close()  # type: ignore[union-attr]
        except OSError:
            pass

    def finish_close(self, deadline: float) -> None:
        """Gives the bot until ``deadline`` to exit, then ends its whole process group (whatever it
        left running) and reaps it (no zombie). Also when interrupted during the wait."""
        try:
            self._wait_exit(deadline)
        finally:
            self._end_group()

    def kill(self) -> None:
        """Ends a bot that broke the protocol (it may be mid-move) and all it started, at once."""
        self.begin_close()
        self._end_group()

    def _end_group(self) -> None:
        """SIGKILL to the bot's process group (the bot, its children, their children: everything
        that has not left the group), then the bot reaped and its pipes closed. Idempotent."""
        if self.closed:
            return
        self.closed = True
        try:
            if self.popen.returncode is None:  # not reaped: the group's id is still the bot's own
                os.killpg(self.group, signal.SIGKILL)
        except ProcessLookupError:  # the group is empty already
            pass
        except PermissionError:  # a member we may not signal (it changed its user): the bot at least
            self.popen.kill()
        finally:
            if _ALL.count(self):
                _ALL.remove(self)
            self.popen.wait()
            self.popen.stdout.close()  # type: ignore[union-attr]
            self.stderr.finish(STDERR_SETTLE)


def public_command(argv: Sequence[str]) -> str:
    """The command as it may be shown to others (in records, results and errors): each word that is
    a path reduced to its last part (``/home/me/bots/run.sh --fast`` -> ``run.sh --fast``), so
    nothing of the machine's directories leaks into what is shared."""
    return " ".join(os.path.basename(word.rstrip("/")) or word if "/" in word else word for word in argv)


_ALL: List[BotProcess] = []  # every live process this process started
_IDLE: Dict[Tuple[str, ...], List[BotProcess]] = {}  # processes between games, by argv


def lease(argv: Sequence[str], deadline: float, holder: Any = None, shown: Optional[str] = None) -> BotProcess:
    """A process for ``argv`` between games (its next message will be ``new_game``), or a new one
    that has answered the hello by ``deadline``; ``holder`` holds it from now on."""
    idle = _IDLE.get(tuple(argv), [])
    while idle:
        process = idle.pop()
        if process.alive:
            process.holder = holder
            return process
        process.kill()
    process = BotProcess(argv, shown, holder)
    try:
        process.handshake(deadline)
    except BaseException:
        process.kill()
        raise
    return process


def release(process: BotProcess) -> None:
    """A process whose game ended cleanly: kept for the next game with the same argv (its holder
    stays the same until another leases it)."""
    if process.alive:
        _IDLE.setdefault(process.argv, []).append(process)
    else:
        process.kill()


def close_all(grace: float = GRACE, holder: Any = None) -> None:
    """Closes every bot process this process started (only those ``holder`` holds, if given):
    quit to all, ``grace`` seconds to exit, then each one's process group killed; each is waited
    for. Interrupted during the grace (Ctrl-C, a worker's SIGTERM), it kills the rest at once
    before the interruption goes on. Safe to call at any time, more than once."""
    processes = [p for p in _ALL if holder is None or p.holder is holder]
    for argv, idle in list(_IDLE.items()):
        idle[:] = [p for p in idle if p not in processes]
        if not idle:
            del _IDLE[argv]
    for process in processes:
        process.begin_close()
    deadline = time.monotonic() + grace
    try:
        for process in processes:
            process.finish_close(deadline)
    finally:
        for process in processes:
            process.kill()  # nothing for those already closed


def kill_all_groups() -> None:
    """Kills the process group of every bot program this process started, at once, waiting for
    nothing: for a process that must go now while other threads may still be mid-move with them
    (their moves then fail at once, and their owners close them as usual)."""
    for process in list(_ALL) if hasattr(os, "killpg") else ():
        try:
            os.killpg(process.popen.pid, signal.SIGKILL)
        except OSError:
            pass  # gone already


def running() -> int:
    """How many bot processes this process has running (for tests)."""
    return len(_ALL)


atexit.register(close_all)
