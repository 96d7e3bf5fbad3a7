"""The web tests' harness: a ``python -m dimsum serve`` process on a free loopback port, and table
pages in headless Chromium (tests/test_replay_browser.py's Page, over the DevTools protocol).
Everything started here is ended by ``stop`` (processes.stop: the whole process group)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional

import processes

import dimsum



def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, folder: Path, *args: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, PYTHONPATH=str(Path(dimsum.__file__).resolve().parents[1]))  # the dimsum under test
        self.log = open(folder / "server.log", "w")
        self.proc = processes.start([sys.executable, "-m", "dimsum", "serve", "--port", str(self.port), *args],
                                    env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(self.url + "/api/lobby", timeout=5).read()
                return
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.stop()
                    raise RuntimeError(f"the server did not start: see {folder / 'server.log'}")
                time.sleep(0.1)

    def post(self, path: str, body: Any) -> Any:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as r:
                return r.status, json.load(r)
        except urllib.error.HTTPError as e:
            return e.code, json.load(e)

    def table(self, game: str, seats: List[str], **options: Any) -> Dict[str, Any]:
        status, made = self.post("/api/tables", {"game": game, "options": options, "seats": seats})
        assert status == 200, made
        return made

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=30) as r:
            return r.read()

    def stop(self) -> None:
        processes.stop(self.proc)
        self.log.close()


def wait_for(page: Any, expression: str, timeout: float = 30.0) -> Any:
    """Polls ``expression`` on the page until it is truthy; its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.js(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"{expression} stayed falsy; message: {page.js(MESSAGE)!r}")
        time.sleep(0.03)


MESSAGE = "document.getElementById('message').textContent"
STATUS = ("(() => ({over: !document.getElementById('over').hidden, step: Number(document.body.dataset.step || -1),"
          " moves: document.querySelectorAll('#moves button.move').length,"
          " connected: document.body.dataset.connected === '1'}))()")


def click_element(page: Any, selector_js: str) -> None:
    """A real mouse click in the middle of the element ``selector_js`` evaluates to."""
    box = page.js(f"(() => {{ const e = {selector_js}; e.scrollIntoView({{block: 'center'}});"
                  " const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()")
    page.click(box[0], box[1])


def open_table(page: Any, url: str) -> Dict[str, Any]:
    page.open(url)
    wait_for(page, "document.body.dataset.step !== undefined && document.body.dataset.connected === '1'")
    return page.js(STATUS)


def play_by_clicking(page: Any, rng: Any, max_clicks: int = 2000, timeout: float = 120.0,
                     at_click: Optional[int] = None, then: Any = None) -> int:
    """Clicks random legal move buttons until the game is over; the number of clicks. ``then()``
    is called once, when ``at_click`` clicks are done and the page awaits the next."""
    clicks = 0
    deadline = time.monotonic() + timeout
    while True:
        status = page.js(STATUS)
        if status["over"]:
            return clicks
        assert time.monotonic() < deadline and clicks < max_clicks, f"the game did not end: {status}"
        if status["moves"]:
            if clicks == at_click and then is not None:
                then()
            k = rng.randrange(status["moves"])
            click_element(page, f"document.querySelectorAll('#moves button.move')[{k}]")
            clicks += 1
            wait_for(page, f"Number(document.body.dataset.step) !== {status['step']} || "
                           f"document.getElementById('message').textContent !== ''", timeout=30)
            assert page.js(MESSAGE) == "", page.js(MESSAGE)
        else:
            time.sleep(0.02)
