"""The browser tables of ``python -m dimsum serve``, in a real headless Chromium (Debian's
chromium-headless-shell, over the DevTools protocol: tests/test_replay_browser.py's Page): a full
game of every game played by real mouse clicks on the move buttons, two browsers as two humans at
one table, Dim Sum Jam's glass running out with no input (the complaint appears), a reload that
resumes the seat, and a seat page and a spectator page that never receive anything their seat may
not see (each network message checked against the state and its resamples, and the DOM drawn from
them). The server is a real process; it and the browsers are ended after (processes.stop).

Skips without the browser, websocket-client or the web extra; fails instead under DIMSUM_REQUIRE_ALL=1."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from pathlib import Path

import pytest

from needs import need, need_module
from test_replay_browser import Page, _browser_binary
from web_harness import MESSAGE, STATUS, Server, click_element, open_table, play_by_clicking, wait_for

import dimsum
import dimsum.testing
from dimsum.play.legend import legend
from dimsum.records import Record
from dimsum.web.messages import seat_message_dict, spectator_message_dict

for module in ("starlette", "uvicorn", "websockets"):
    need_module(module)


@pytest.fixture(scope="module")
def browser_binary():
    binary = _browser_binary()
    need(binary is not None, "a headless Chromium (apt-get install chromium-headless-shell)")
    need_module("websocket")
    return binary


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("server"), "--bot-delay", "0")
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def page(browser_binary, tmp_path_factory):
    p = Page(browser_binary, tmp_path_factory.mktemp("chromium"))
    try:
        p.send("Network.enable")
        yield p
    finally:
        p.close()


def _lobby_table(page, server, game):
    """Opens a table of ``game`` through the lobby page (real clicks): seat 0 a human, the others
    random bots, the game's small options; the link of seat 0."""
    page.open(server.url + "/")
    wait_for(page, "document.body.dataset.ready === '1'")
    page.js(f"(() => {{ const g = document.getElementById('game'); g.value = {json.dumps(game)};"
            " g.dispatchEvent(new Event('change')); })()")
    seats = page.js("document.querySelectorAll('#seats select').length")
    assert seats >= 1 and page.js("document.querySelectorAll('#seats select')[0].value") == "human"
    click_element(page, "document.getElementById('open')")
    wait_for(page, "document.querySelector('a.seat-link') !== null")
    return page.js("document.querySelector('a.seat-link').getAttribute('href')")


@pytest.mark.parametrize("game", dimsum.games())
def test_a_full_game_played_by_clicking(page, server, game, tmp_path):
    link = _lobby_table(page, server, game)
    page.open(server.url + link)
    # a picture of the table mid-game: under tmp_path, and in DIMSUM_WEB_SCREENSHOTS if set (docs/img)
    shot = tmp_path / f"web_{game}.png"
    clicks = play_by_clicking(page, random.Random(game), at_click=4, then=lambda: page.screenshot(shot))
    if not shot.exists():  # a game over in fewer clicks: its end
        page.screenshot(shot)
    if os.environ.get("DIMSUM_WEB_SCREENSHOTS"):
        shutil.copy(shot, Path(os.environ["DIMSUM_WEB_SCREENSHOTS"]) / shot.name)
    assert clicks >= 1
    outcome = page.js("document.getElementById('outcome').textContent")
    assert outcome.startswith("Game over: ") and "Returns: " in outcome
    # the links at the end: the record replays to the same end, the replay page opens
    record = Record.loads(server.get(link + "/record.json").decode())
    final = record.final_state(dimsum.make(record.game, **record.options))
    assert final.is_terminal and record.returns == [float(r) for r in final.returns()]
    # the components' tooltips: every label that starts with a word of the game's legend tells its
    # meaning on hover (the rule table.js follows, computed here from dimsum.play.legend)
    meanings = {term.replace("/", " ").split(" ")[0]: f"{term}: {text}"
                for term, text in legend(dimsum.make(record.game, **record.options))}
    labels = page.js("Array.from(document.querySelectorAll('#board svg text')).map(t => {"
                     " const tip = t.querySelector('title'); const all = t.textContent;"
                     " return tip ? [all.slice(0, all.length - tip.textContent.length), tip.textContent] : [all, null]; })")
    for label, tip in labels:
        word = re.split("[ \u00b7]", label.strip())[0]
        assert tip == meanings.get(word), (label, tip)
    assert b"<svg" in server.get(link + "/replay.html") or b"replay-data" in server.get(link + "/replay.html")
    assert page.console_errors() == []


def test_a_move_not_legal_or_malformed_gets_an_error_never_a_crash(page, server):
    made = server.table("pig", ["human", "random"], winscore=30)
    open_table(page, server.url + made["seats"][0])
    wait_for(page, "document.querySelectorAll('#moves button.move').length > 0")
    step = page.js(STATUS)["step"]
    for bad in ['"nonsense"', '{"type":"move","id":99999}', '{"type":"move","id":"1"}', '{"type":"fly"}',
                json.dumps({"type": "move", "id": 1, "pad": "x" * 5000})]:
        page.js("document.getElementById('message').textContent = ''")
        page.js(f"socket.send({json.dumps(bad)})")
        assert wait_for(page, MESSAGE)
    assert page.js(STATUS)["step"] == step and page.js(STATUS)["moves"] > 0
    # still playing: a good click is played
    click_element(page, "document.querySelector('#moves button.move')")
    wait_for(page, f"Number(document.body.dataset.step) !== {step}")


def test_the_server_answers_only_requests_for_the_loopback_names(server):
    """A page of another site whose name is rebound to 127.0.0.1 sends its own name as Host."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(server.url + "/api/lobby", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(request, timeout=10)
    assert e.value.code == 400
    assert json.loads(server.get("/api/lobby"))["bots"] == ["heuristic", "ismcts", "random"]


def test_a_wrong_link_or_another_sites_page_gets_nothing(server):
    import urllib.error

    made = server.table("pig", ["human", "random"], winscore=30)
    for path in ["/table/nope/nope", made["seats"][0][:-2] + "xx", made["seats"][0] + "/record.json"]:
        with pytest.raises(urllib.error.HTTPError) as e:
            server.get(path)
        assert e.value.code in (404, 409)  # no such link; the record only once the game is over
    websocket = need_module("websocket")
    url = server.url.replace("http://", "ws://") + made["seats"][0].replace("/table/", "/ws/")
    with pytest.raises(websocket.WebSocketException):  # a page of another site is refused
        websocket.create_connection(url, origin="http://evil.example", timeout=10).recv()
    ws = websocket.create_connection(url, timeout=10, suppress_origin=True)
    try:
        assert json.loads(ws.recv())["view"]["seat"] == 0
        for _ in range(100):  # a burst over the rate (20 a second, bursts of 40): answered, then closed
            ws.send('{"type": "ping"}')
        answers = []
        try:
            while True:
                text = ws.recv()
                if not text:  # the close frame
                    break
                answers.append(json.loads(text)["message"])
        except websocket.WebSocketException:
            pass
        assert len(answers) == 50 and all(a.startswith("Too many messages") for a in answers)
    finally:
        ws.close()


def test_two_browsers_two_humans_at_one_table(page, server, browser_binary, tmp_path):
    made = server.table("kuhn_poker", ["human", "human"])
    other = Page(browser_binary, tmp_path)
    try:
        open_table(page, server.url + made["seats"][0])
        open_table(other, server.url + made["seats"][1])
        rng = random.Random(3)
        moved = {0: 0, 1: 0}
        while not page.js(STATUS)["over"]:
            for seat, p in ((0, page), (1, other)):
                status = p.js(STATUS)
                if status["moves"] and not status["over"]:
                    k = rng.randrange(status["moves"])
                    click_element(p, f"document.querySelectorAll('#moves button.move')[{k}]")
                    wait_for(p, f"Number(document.body.dataset.step) !== {status['step']}")
                    moved[seat] += 1
        assert moved[0] >= 1 and moved[1] >= 1
        wait_for(other, "!document.getElementById('over').hidden")
        # each page is its own seat: a card shown face up only to its holder
        assert page.js("document.getElementById('title').textContent").endswith("seat 0")
        assert other.js("document.getElementById('title').textContent").endswith("seat 1")
        assert other.console_errors() == [] and page.console_errors() == []
    finally:
        other.close()


def test_dim_sum_jam_the_sand_runs_out_with_no_input_and_the_complaint_appears(page, server):
    made = server.table("dim_sum_jam", ["human", "random", "random"], glass_ticks=20, ticks_per_action=2)
    open_table(page, server.url + made["seats"][0])
    wait_for(page, "!document.getElementById('glass').hidden")
    # no click: the server's glass empties (2 s) on its own and the complaint is logged
    line = wait_for(page, "Array.from(document.querySelectorAll('#log li.complaint')).map(e => e.textContent)[0]",
                    timeout=30)
    assert line.startswith("COMPLAINT 1 of 3: the sand ran out")
    assert "The game pauses" in line  # the refill pause, told with the complaint


def test_a_reload_resumes_the_seat(page, server):
    made = server.table("nice_buns", ["human", "random", "random"], max_turns=30)
    link = server.url + made["seats"][0]
    open_table(page, link)
    rng = random.Random(5)
    for _ in range(3):
        status = page.js(STATUS)
        if status["over"]:
            break
        wait_for(page, "document.querySelectorAll('#moves button.move').length > 0")
        status = page.js(STATUS)
        click_element(page, f"document.querySelectorAll('#moves button.move')[{rng.randrange(status['moves'])}]")
        wait_for(page, f"Number(document.body.dataset.step) !== {status['step']}")
    wait_for(page, "document.querySelectorAll('#moves button.move').length > 0")
    before = page.js("[document.body.dataset.step, document.getElementById('log').textContent,"
                     " document.getElementById('board').innerHTML]")
    open_table(page, link)  # a reload: a new page, a new websocket, the same link
    wait_for(page, "document.querySelectorAll('#moves button.move').length > 0")
    after = page.js("[document.body.dataset.step, document.getElementById('log').textContent,"
                    " document.getElementById('board').innerHTML]")
    assert after == before and "you (seat 0): " in after[1]


def test_undo_in_the_browser_takes_back_a_move_that_showed_nothing(page, server):
    made = server.table("kuhn_poker", ["human", "random"])
    open_table(page, server.url + made["seats"][0])
    wait_for(page, "document.querySelectorAll('#moves button.move').length > 0")
    assert page.js("document.getElementById('undo').hidden") is True  # nothing to undo yet
    click_element(page, "Array.from(document.querySelectorAll('#moves button.move')).find(b => b.textContent === 'pass')")
    # the bot answers (a pass ends the game at the showdown, a bet comes back to seat 0)
    wait_for(page, "Number(document.body.dataset.step) >= 2")
    status = wait_for(page, "(() => { const s = " + STATUS + "; return (s.over || s.moves) ? s : null; })()")
    if status["over"]:
        assert page.js("document.getElementById('undo').hidden") is True
        return
    assert status["step"] == 2 and page.js("document.getElementById('undo').hidden") is False
    click_element(page, "document.getElementById('undo')")
    wait_for(page, "Number(document.body.dataset.step) === 0")
    assert "you (seat 0): undo" in page.js("document.getElementById('log').textContent")
    assert page.js(STATUS)["moves"] == 2 and page.js("document.getElementById('undo').hidden") is True


def _frames(page, table_id):
    """The state messages the page's websockets to table ``table_id`` received, in order."""
    page.js("0")
    sockets = {e["params"]["requestId"] for e in page.events if e.get("method") == "Network.webSocketCreated"
               and f"/ws/{table_id}/" in e["params"]["url"]}
    out = []
    for e in page.events:
        if e.get("method") == "Network.webSocketFrameReceived" and e["params"]["requestId"] in sockets:
            message = json.loads(e["params"]["response"]["payloadData"])
            if message.get("type") == "state":
                out.append(message)
    return out


def test_a_seat_and_a_spectator_never_receive_a_hidden_card(page, server, browser_binary, tmp_path):
    made = server.table("yum_cha", ["human", "random", "random"], rounds=1, max_turns_per_round=12)
    spectator = Page(browser_binary, tmp_path)
    try:
        spectator.send("Network.enable")
        open_table(spectator, server.url + made["spectator"])
        page.events.clear()
        open_table(page, server.url + made["seats"][0])
        play_by_clicking(page, random.Random(11))
        wait_for(spectator, "!document.getElementById('over').hidden")
        seat_frames, spectator_frames = _frames(page, made["table"]), _frames(spectator, made["table"])
        assert len(seat_frames) >= 5 and len(spectator_frames) >= 5
        record = Record.loads(__import__("urllib.request").request.urlopen(
            server.url + made["seats"][0] + "/record.json").read().decode())
        states = list(record.states())
        seeds = iter(range(10**6, 2 * 10**6))
        for frames, seat in ((seat_frames, 0), (spectator_frames, None)):
            for m in frames:
                state = states[m["step"]]
                expected = seat_message_dict(state, seat) if seat is not None else spectator_message_dict(state)
                assert m["view"] == json.loads(json.dumps(expected)), f"step {m['step']}"
                if state.is_terminal:
                    continue
                # what the page received is the same for every state the seat (or, for the
                # spectator, any seat) cannot tell apart from the real one
                for p in ([seat] if seat is not None else range(state.game.players)):
                    other = state.resample(p, next(seeds))
                    again = seat_message_dict(other, seat) if seat is not None else spectator_message_dict(other)
                    assert json.loads(json.dumps(again)) == m["view"]
        # the DOM is drawn from the messages alone: the last message of a resampled state draws the same page
        for p, frames, seat in ((page, seat_frames, 0), (spectator, spectator_frames, None)):
            m = frames[-2]
            state = states[m["step"]]
            if state.is_terminal:
                continue
            p.js(f"show({json.dumps(m)})")
            text = p.js("document.getElementById('table').innerText")
            resampled = dict(m, view=json.loads(json.dumps(
                seat_message_dict(state.resample(seat or 0, 7), seat) if seat is not None
                else spectator_message_dict(state.resample(1, 7)))))
            p.js(f"show({json.dumps(resampled)})")
            assert p.js("document.getElementById('table').innerText") == text
        hands = [c for c in states[-1].to_dict().get("hands", [])]
        assert hands is not None
    finally:
        spectator.close()
