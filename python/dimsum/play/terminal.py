"""Terminal input and output for the player: whole screens, a status line redrawn in place, and
lines read with a timeout (``select`` on stdin) so that a clock can tick while the player types.

Input stays line-based (the terminal's own line editing and echo), so nothing here changes the
terminal's mode and nothing needs restoring if the program is killed.
"""

from __future__ import annotations

import os
import select
import shutil
import sys
import time
from typing import IO, Optional

CLEAR = "\x1b[H\x1b[2J"
SAVE_CURSOR, RESTORE_CURSOR = "\x1b7", "\x1b8"
CLEAR_LINE = "\x1b[2K"


class Terminal:
    """Writes screens to ``output`` and reads lines from ``input``.

    On a terminal a screen clears the display first and :meth:`status` rewrites the top line in
    place (the cursor, and whatever the player has typed so far, stay where they are); through a
    pipe screens are simply printed one after another and :meth:`status` prints nothing."""

    def __init__(self, input: IO = None, output: IO = None) -> None:
        self.input = sys.stdin if input is None else input
        self.output = sys.stdout if output is None else output
        self.fd = self.input.fileno()
        self.is_tty = os.isatty(self.fd) and self.output.isatty()
        self._pending = b""
        self._eof = False

    @property
    def width(self) -> int:
        return shutil.get_terminal_size((100, 40)).columns

    def write(self, text: str) -> None:
        self.output.write(text)
        self.output.flush()

    def screen(self, text: str) -> None:
        """Shows ``text`` as the whole screen (the status line, if any, is its first line)."""
        self.write((CLEAR if self.is_tty else "\n") + text)

    def status(self, text: str) -> None:
        """Rewrites the screen's first line without moving the cursor (terminals only)."""
        if self.is_tty:
            self.write(f"{SAVE_CURSOR}\x1b[1;1H{CLEAR_LINE}{text}{RESTORE_CURSOR}")

    def read_line(self, timeout: Optional[float] = None) -> Optional[str]:
        """The next line typed (without its newline), or None if ``timeout`` seconds pass first.

        Raises EOFError at the end of input (Ctrl-D, a closed pipe). Bytes are read straight from
        the file descriptor, so lines that arrive together are all kept for the next calls."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if b"\n" in self._pending:
                line, _, self._pending = self._pending.partition(b"\n")
                return line.decode("utf-8", errors="replace").rstrip("\r")
            if self._eof:
                if self._pending:
                    line, self._pending = self._pending, b""
                    return line.decode("utf-8", errors="replace")
                raise EOFError
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                return None
            data = os.read(self.fd, 4096)
            if data:
                self._pending += data
            else:
                self._eof = True
