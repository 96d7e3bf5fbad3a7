"""Bot processes: started from an argv list (never a shell), spoken to in lines with a deadline on
every exchange, kept for the next game, and always ended and waited for.

- :class:`BotProcess`: one running bot. Reads and writes go through ``select`` with the move's
  deadline, so a bot that hangs, stops reading or writes half a line can never block the engine; a
  line longer than ``MAX_LINE`` is malformed. Its stderr goes to a temporary file, whose last lines
  are quoted when the bot dies (a bot's debug output never reaches the terminal's screen).
- The pool (:func:`lease`, :func:`release`, :func:`close_all`): a process that finished a game
  cleanly is handed to the next game with the same argv (a new ``new_game`` message), so a
  tournament starts each bot once per seat it holds at a time, not once per game. ``close_all``
  sends ``quit`` to every process, waits ``GRACE`` seconds, kills the rest and waits for them all;
  the arena calls it when a chunk of games ends, ``play`` when the game ends, and ``atexit`` for
  anyone else.

Processes run in their own session (``start_new_session``): a Ctrl-C in the terminal reaches the
engine only, which then closes its bots in order (quit, grace, kill) rather than leaving each bot
to die on its own. A bot whose engine dies without closing it reads end of input, which the
protocol makes a quit. POSIX only (``select`` on pipes).
"""

from __future__ import annotations

import atexit
import os
import select
import subprocess
import tempfile
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .messages import MAX_LINE, QUIT, BotProtocolError, check_hello, decode, encode, hello

GRACE = 2.0  # seconds a bot has to exit after quit before it is killed
STDERR_TAIL = 600  # characters of a dead bot's stderr quoted in the error


class BotProcess:
    """One bot process. ``wants``: what its hello asked for (after :meth:`handshake`)."""

    def __init__(self, argv: Sequence[str]) -> None:
        self.argv = tuple(argv)
        self.stderr = tempfile.TemporaryFile()
        try:
            self.popen = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=self.stderr, start_new_session=True, close_fds=True)
        except OSError as e:
            self.stderr.close()
            raise BotProtocolError(f"cannot start {list(self.argv)}: {e.strerror or e}") from None
        assert self.popen.stdin is not None and self.popen.stdout is not None
        self.stdin, self.stdout = self.popen.stdin.fileno(), self.popen.stdout.fileno()
        os.set_blocking(self.stdin, False)
        self.pending = b""
        self.wants: List[str] = []
        self.name = ""
        _ALL.append(self)

    @property
    def alive(self) -> bool:
        return self.popen.poll() is None

    def handshake(self, deadline: float) -> None:
        self.send(hello(), deadline)
        reply = self.receive(deadline, "the bot's hello")
        try:
            self.wants = check_hello(reply)
        except ValueError as e:
            raise BotProtocolError(str(e)) from None
        self.name = str(reply.get("name", ""))[:80]

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
        """Why the bot's output ended: its exit code and its last stderr lines."""
        try:
            code: Optional[int] = self.popen.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        how = "closed its output" if code is None else f"exited with code {code}"
        self.stderr.seek(0, os.SEEK_END)
        size = self.stderr.tell()
        self.stderr.seek(max(0, size - STDERR_TAIL))
        tail = self.stderr.read().decode("utf-8", errors="replace").strip()
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
        """Waits until ``deadline`` for the bot to exit, then kills it; always waits for it (no zombie)."""
        try:
            self.popen.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        finally:  # also on Ctrl-C during the wait
            if self.popen.poll() is None:
                self.popen.kill()
                self.popen.wait()
            self.popen.stdout.close()  # type: ignore[union-attr]
            self.stderr.close()
            if self in _ALL:
                _ALL.remove(self)

    def kill(self) -> None:
        """Ends a bot that broke the protocol at once (it may be mid-move: no grace)."""
        self.begin_close()
        if self.alive:
            self.popen.kill()
        self.finish_close(time.monotonic())


_ALL: List[BotProcess] = []  # every live process this process started
_IDLE: Dict[Tuple[str, ...], List[BotProcess]] = {}  # processes between games, by argv


def lease(argv: Sequence[str], deadline: float) -> BotProcess:
    """A process for ``argv`` between games (its next message will be ``new_game``), or a new one
    that has answered the hello by ``deadline``."""
    idle = _IDLE.get(tuple(argv), [])
    while idle:
        process = idle.pop()
        if process.alive:
            return process
        process.kill()
    process = BotProcess(argv)
    try:
        process.handshake(deadline)
    except BaseException:
        process.kill()
        raise
    return process


def release(process: BotProcess) -> None:
    """A process whose game ended cleanly: kept for the next game with the same argv."""
    if process.alive:
        _IDLE.setdefault(process.argv, []).append(process)
    else:
        process.kill()


def close_all(grace: float = GRACE) -> None:
    """Closes every bot process this process started: quit to all, ``grace`` seconds to exit, then
    kill; each is waited for. Safe to call at any time, more than once."""
    processes = list(_ALL)
    _IDLE.clear()
    for process in processes:
        process.begin_close()
    deadline = time.monotonic() + grace
    for process in processes:
        process.finish_close(deadline)


def running() -> int:
    """How many bot processes this process has running (for tests)."""
    return len(_ALL)


atexit.register(close_all)
