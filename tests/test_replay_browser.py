"""The replay page in a real headless Chromium (Debian's chromium-headless-shell), driven over the
DevTools protocol with websocket-client: the page opens without console errors, the arrow keys,
the slider (a real mouse click), the view choice and real-time play change what it shows, the
picture shown is the one Python drew for that step and view, and the returns appear at the end.
Screenshots of the first and last step are saved under the test's tmp_path.

Skips without the browser or websocket-client; fails instead under DIMSUM_REQUIRE_ALL=1 (CI)."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import time
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import processes
from needs import need, need_module

import dimsum
from dimsum.cli import replay
from dimsum.records import Record
from dimsum.testing import random_position

BROWSER_NAMES = ("chromium-headless-shell", "chromium", "chromium-browser")
SVG_NS = "{http://www.w3.org/2000/svg}"


def _browser_binary():
    for name in BROWSER_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


class Page:
    """One Chromium page over the DevTools protocol: commands, events, console errors."""

    def __init__(self, binary: str, folder: Path) -> None:
        websocket = need_module("websocket")
        profile = folder / "profile"
        self.ws = None
        self.log = open(folder / "chromium.log", "w")
        # its own session: the binary may be a launcher whose browser would outlive it (processes.py)
        self.proc = processes.start(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-port=0",
             f"--user-data-dir={profile}", "--window-size=1000,1000", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=self.log)
        try:
            port_file = profile / "DevToolsActivePort"
            deadline = time.monotonic() + 30
            while not (port_file.exists() and port_file.read_text().strip()):
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError(f"chromium did not start: see {folder / 'chromium.log'}")
                time.sleep(0.05)
            port = int(port_file.read_text().split()[0])
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
                targets = [t for t in json.load(r) if t["type"] == "page"]
            self.ws = websocket.create_connection(targets[0]["webSocketDebuggerUrl"], timeout=30,
                                                  suppress_origin=True)
            self.next_id = 0
            self.events = []
            for domain in ("Page", "Runtime", "Log"):
                self.send(f"{domain}.enable")
        except BaseException:  # a setup failing half-way (or interrupted) leaves no browser behind
            self.close()
            raise

    def send(self, method: str, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_event(self, method: str, timeout: float = 30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i)
            self.events.append(json.loads(self.ws.recv()))
        raise TimeoutError(method)

    def open(self, url: str) -> None:
        self.events.clear()
        self.send("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def js(self, expression: str):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def key(self, key: str, code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code)

    def click(self, x: float, y: float) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"]))

    def console_errors(self):
        self.js("0")  # collects the events that arrived meanwhile
        errors = []
        for e in self.events:
            method, p = e.get("method"), e.get("params", {})
            if method == "Runtime.exceptionThrown":
                errors.append(p["exceptionDetails"].get("text"))
            elif method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                errors.append(str(p.get("args")))
            elif method == "Log.entryAdded" and p["entry"].get("level") == "error":
                errors.append(p["entry"].get("text"))
        return errors

    def close(self) -> None:
        try:
            if self.ws is not None:
                self.ws.close()
        finally:
            processes.stop(self.proc)
            self.log.close()


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    binary = _browser_binary()
    need(binary is not None, "a headless Chromium (apt-get install chromium-headless-shell)")
    need_module("websocket")
    p = Page(binary, tmp_path_factory.mktemp("chromium"))
    try:
        yield p
    finally:
        p.close()


def _record(name: str, seed: int, max_steps: int) -> Record:
    state = random_position(dimsum.make(name, players=3), seed, max_steps)
    return Record.of(state, seed, ["alice", "bob", "carol"])


def _write_page(record: Record, folder: Path) -> Path:
    (folder / "game.json").write_text(record.dumps())
    assert replay.main([str(folder / "game.json"), "-o", str(folder / "game.html")]) == 0
    return folder / "game.html"


def _titles(record: Record, view):
    """The title (headline) of each step's picture in ``view``, as Python draws it."""
    return [ET.fromstring(s.to_svg(view)).find(f"{SVG_NS}title").text for s in record.states()]


def _shown(page):
    return tuple(page.js("[document.getElementById('step-label').textContent,"
                   " document.querySelector('#board svg title').textContent,"
                   " document.getElementById('action').textContent]"))


def test_replay_page_steps_with_keys_slider_and_views_without_console_errors(page, tmp_path):
    record = _record("nice_buns", 11, 400)
    assert record.returns is not None, "the game must end so that the page shows its returns"
    html = _write_page(record, tmp_path)
    page.open(html.as_uri())
    last = len(record.steps)
    titles = _titles(record, None)

    label, title, action = _shown(page)
    assert (label, title, action) == (f"step 0 of {last}", titles[0], "the start of the game")
    page.screenshot(tmp_path / "first_step.png")

    page.key("ArrowRight", 39)
    page.key("ArrowRight", 39)
    label, title, action = _shown(page)
    first_two = list(record.states())[:2]
    assert label == f"step 2 of {last}" and title == titles[2]
    assert action.startswith("step 2: seat ") and first_two[1].action_name(record.steps[1][0]) in action
    page.key("ArrowLeft", 37)
    assert _shown(page)[0] == f"step 1 of {last}"

    # a real click in the middle of the slider
    box = page.js("(() => { const r = document.getElementById('slider').getBoundingClientRect();"
                  " return [r.left, r.top, r.width, r.height]; })()")
    page.click(box[0] + box[2] / 2, box[1] + box[3] / 2)
    k = int(page.js("document.getElementById('slider').value"))
    assert abs(k - last / 2) <= max(2, last * 0.05)
    assert _shown(page)[:2] == (f"step {k} of {last}", titles[k])

    # whose view: keyboard on the focused select
    page.js("document.getElementById('view').focus()")
    page.key("ArrowDown", 40)
    assert page.js("document.getElementById('view').value") == "1"
    page.js("document.getElementById('view').blur()")
    text = page.js("document.querySelector('#board svg').textContent")
    assert "Seat 0 · alice (you)" in text and "Seat 1 · bob (you)" not in text
    assert _shown(page)[1] == _titles(record, 0)[k]

    page.key("End", 35)
    label, title, _ = _shown(page)
    assert label == f"step {last} of {last}" and title == _titles(record, 0)[last]
    returns = page.js("document.getElementById('returns').hidden ? null : document.getElementById('returns').textContent")
    assert returns is not None and returns.startswith("Returns: ") and "seat 0 " in returns
    page.screenshot(tmp_path / "last_step.png")
    assert (tmp_path / "first_step.png").stat().st_size > 1000 and (tmp_path / "last_step.png").stat().st_size > 1000
    assert page.console_errors() == []


def test_dim_sum_jam_page_plays_in_real_time_with_the_hourglass_running(page, tmp_path):
    record = _record("dim_sum_jam", 5, 30)
    html = _write_page(record, tmp_path)
    page.open(html.as_uri())
    assert page.js("document.getElementById('timed').hidden") is False
    glass_before = page.js("document.getElementById('glass-text').textContent")
    assert glass_before == "120.0 s left"
    sand = "document.querySelector('#board [data-sand=top]').getAttribute('transform')"
    seconds = "document.querySelector('#board [data-glass]').textContent"
    assert "scale(1.000)" in page.js(sand) and page.js(seconds) == "120.0 s of 120 s left"
    page.js("document.getElementById('speed').value = '20'")
    page.js("document.getElementById('play').click()")
    assert page.js("document.getElementById('play').textContent") == "pause"
    time.sleep(1.5)  # 20x: 50 ticks a play at 200 ticks a second is 0.25 s a play
    page.js("document.getElementById('play').click()")
    # paused: the hourglass in the picture shows the time run since the step's position
    assert "scale(1.000)" not in page.js(sand) and page.js(seconds) != "120.0 s of 120 s left"
    step = int(page.js("document.getElementById('slider').value"))
    glass_after = float(page.js("document.getElementById('glass-text').textContent").split()[0])
    assert page.js("document.getElementById('play').textContent") == "play"
    assert step >= 2, "real-time play did not advance"
    assert glass_after < 120.0, "the hourglass did not run"
    assert page.js(seconds).startswith(f"{glass_after:.1f} s of 120 s")
    assert page.console_errors() == []
