"""A bot's stderr, read as fast as the bot writes it and kept only as a bounded tail.

A bot's stderr is its own debug output: the engine quotes its end when the bot dies (the reason
for a crash is usually there) and shows nothing else. A bot may write any amount, so keeping all
of it (a file, a buffer) lets one bot fill the disk or the memory; leaving the pipe unread makes
the bot block in its own ``write`` once the pipe's buffer is full (64 KiB on Linux), which stalls
it mid-move and looks like a hang. So a thread of its own reads the pipe until end of file and
keeps the last ``KEEP`` bytes: the bot never blocks on stderr, and whatever it writes costs at
most ``2 * KEEP`` bytes of memory and no disk.

The thread ends at end of file, which comes when every process that holds the pipe is gone (the
bot's whole process group is killed when it is closed). A process that left the group and keeps
the pipe open would keep the thread waiting: :meth:`StderrTail.finish` then tells it to stop,
which it does within ``POLL`` seconds, closing the pipe.
"""

from __future__ import annotations

import os
import select
import threading
from typing import IO

KEEP = 64 * 1024  # bytes of a bot's stderr kept: its last lines, which say why it died
CHUNK = 64 * 1024  # bytes read at a time (a pipe's buffer)
POLL = 1.0  # seconds between two looks at the stop flag while the pipe is silent


class StderrTail:
    """Drains ``pipe`` (a bot's stderr, read end) on a daemon thread, keeping its last ``keep`` bytes."""

    def __init__(self, pipe: IO[bytes], name: str, keep: int = KEEP) -> None:
        self._pipe = pipe
        self._fd = pipe.fileno()
        self._keep = keep
        self._data = bytearray()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.written = 0  # bytes the bot wrote in all (kept or not)
        self._thread = threading.Thread(target=self._drain, name=f"stderr of {name}", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        try:
            while not self._stop.is_set():
                if not select.select([self._fd], [], [], POLL)[0]:
                    continue
                chunk = os.read(self._fd, CHUNK)
                if not chunk:
                    return  # end of file: every writer is gone
                with self._lock:
                    self._data += chunk
                    self.written += len(chunk)
                    if len(self._data) > 2 * self._keep:  # trimmed now and then, not at every read
                        del self._data[:-self._keep]
        except (OSError, ValueError):  # the pipe closed under us: nothing more to read
            return
        finally:
            self._pipe.close()

    def tail(self, chars: int) -> str:
        """The last ``chars`` characters kept (decoded as UTF-8, bad bytes replaced), stripped."""
        with self._lock:
            data = bytes(self._data[-self._keep:])
        return data.decode("utf-8", errors="replace")[-chars:].strip()

    def finish(self, timeout: float) -> None:
        """Waits up to ``timeout`` seconds for end of file (what the bot wrote last is then kept),
        then tells the thread to stop. Never blocks longer, whatever still holds the pipe."""
        self._thread.join(timeout)
        self._stop.set()
