"""The MCP server against a hostile client (docs/MCP.md, "Security"): each test is the attack itself,
sent through the official SDK's stdio client as a prompt-injected agent would send it. The client
runs no program and opens no path, learns no seed while a game runs, gets bounded errors that give
their reason, and leaves no bot running when it ends a session or goes away; one session's
thinking bots never hold up another's calls."""

from __future__ import annotations

import json
import re
import sys
import textwrap
import time

import psutil
import pytest

import dimsum
from dimsum._secrets import secret_seed
from dimsum.mcp import Capabilities, SessionEnded, Table, Tables
from dimsum.mcp.agent_text import MAX_ERROR, bound, describe
from dimsum.mcp.table import BOT_SEEDS, COPY_SEEDS
from dimsum.records import Record
from dimsum.reference.rng import derive_seed
from llm_fakes import listed_moves
from needs import need_module
from protocol_bots import HELLO, PRELUDE, spec
from test_mcp import GAME_OVER, run_client, small

BOUND = MAX_ERROR + 100  # an error's text: the message's bound and the SDK's "Error executing tool x: "


# ---- helpers ------------------------------------------------------------------------------------------
def stubborn_bot(directory, move_seconds):
    """The argv of a protocol bot that takes ``move_seconds`` a move (the first legal one), writes its
    pid to $PROTOCOL_TEST_PIDS, and ignores quit and the end of its input: only a kill ends it."""
    path = directory / "stubborn_bot.py"
    path.write_text(f"HELLO = {HELLO}\n"
                    f"def on_act(line):\n    time.sleep({move_seconds}); say({{'type': 'action', "
                    f"'action': first_legal(line)}})\n"
                    "def on_quit():\n    time.sleep(1000)\n" + textwrap.dedent(PRELUDE), encoding="utf-8")
    return [sys.executable, str(path)]


def live(pids_file):
    """The pids the bots wrote, and those of them still running (real OS processes, zombies aside)."""
    pids = [int(word) for word in pids_file.read_text().split()] if pids_file.exists() else []
    running = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                running.append(pid)
        except psutil.NoSuchProcess:
            pass
    return pids, running


def wait_gone(pids_file, seconds=10.0):
    """The bots' pids once none is running, or (the test fails) those still running after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        pids, running = live(pids_file)
        if not running or time.monotonic() > deadline:
            return pids, running
        time.sleep(0.05)


def first_move(text):
    """The first legal move the view lists (in Yum Cha the agent draws, then discards: only its
    second move hands the turn to the bots)."""
    return listed_moves(text)[0][1]


def numbers_in(text):
    return set(re.findall(r"\d+", text))


# ---- what the client may choose --------------------------------------------------------------------
def test_a_client_runs_no_program_opens_no_path_asks_no_long_search_and_fixes_no_deal(tmp_path):
    planted = tmp_path / "pwned"
    weights = tmp_path / "real.dspolicy"
    weights.write_bytes(b"not a policy file, but a file that exists")
    texts = {}

    async def body(call):
        for attack in (f"external:command=/usr/bin/touch {planted}", f"external:command=/bin/sh -c 'touch {planted}'",
                       f"random,external:command=/usr/bin/touch {planted}"):
            is_error, text = await call("start_game", game="pig", bots=attack)
            assert is_error and "bot 'external' is not one this server lets a client choose" in text, text
            assert "the bots you may choose are random, heuristic, ismcts" in text
        for kind in ("policy", "ismcts:guide=policy,"):
            for path in (weights, tmp_path / "missing.dspolicy", tmp_path):
                is_error, text = await call("start_game", game="pig", bots=f"{kind}{':' if kind == 'policy' else ''}"
                                                                             f"weights={path}")
                assert is_error
                texts.setdefault(kind, set()).add(text.replace(str(path), "PATH"))
        for attack, cap in (("ismcts:seconds=3600", "(2)"), ("ismcts:simulations=1000000", "(2000)"),
                            ("ismcts:threads=64", "(1)")):
            is_error, text = await call("start_game", game="yum_cha", bots=attack)
            assert is_error and f"is over this server's cap {cap}" in text, text
        is_error, text = await call("start_game", game="pig", seed=7)
        assert is_error and "seed is refused" in text and "--allow-seeds" in text
        is_error, text = await call("observe", session="g1")
        assert is_error and "(open: none)" in text  # no attack opened a session
        allowed = json.loads((await call("list_bots"))[1])
        assert sorted(allowed["kinds"]) == ["heuristic", "ismcts", "policy", "random"]
        assert allowed["operator_bots"] == [] and allowed["client_seeds"] is False

    run_client(body)
    assert not planted.exists()
    # the refusal is the same whatever the path: it never tells whether a file exists
    assert all(len(alike) == 1 for alike in texts.values()), texts


def test_the_operator_offers_named_bots_caps_and_seeds_by_flags(tmp_path):
    directory = tmp_path / "a_directory"
    directory.mkdir()

    async def body(call):
        is_error, text = await call("start_game", game="pig", bots="ismcts:simulations=51")
        assert is_error and "is over this server's cap (50)" in text
        is_error, text = await call("start_game", game="pig", bots="ismcts:seconds=0.6")
        assert is_error and "is over this server's cap (0.5)" in text
        is_error, text = await call("start_game", game="pig", bots="strong:simulations=5")
        assert is_error and "'strong' is a bot of the server's operator: it takes no parameters" in text
        # an operator's bot whose file cannot be read: the reason, never the path nor a bare "Error executing"
        is_error, text = await call("start_game", game="pig", bots="files")
        assert is_error and str(tmp_path) not in text and "directory" in text.lower(), text
        is_error, text = await call("start_game", game="pig", bots="strong", seed=5)
        assert not is_error and "strong in seat 1" in text and "ismcts" not in text
        allowed = json.loads((await call("list_bots"))[1])
        assert allowed["operator_bots"] == ["files", "strong"] and allowed["client_seeds"] is True
        assert allowed["kinds"]["ismcts"]["simulations"] == "an int from 1 to 50"
        assert str(tmp_path) not in json.dumps(allowed)

    run_client(body, "--bot", "strong=ismcts:simulations=3000", "--bot", f"files=policy:weights={directory}",
               "--max-simulations", "50", "--max-seconds", "0.5", "--allow-seeds")


@pytest.mark.parametrize("flag, message", [
    ("x", "--bot takes NAME=SPEC"), ("ismcts=random", "must not be a bot kind"),
    ("a b=random", "a bot's name is a letter"), ("me=wizard", "unknown bot kind 'wizard'"),
    ("me=llm", "unknown bot kind 'llm'"), ("me=random:depth=3", "has no parameter 'depth'"),
    ("me=external:command=/no/such/program", "is not an executable file"),
])
def test_a_bad_bot_flag_is_a_usage_error(flag, message, capsys):
    from dimsum.cli import mcp

    with pytest.raises(SystemExit) as exit_:
        mcp.main(["--bot", flag])
    assert exit_.value.code == 2 and message in capsys.readouterr().err


# ---- seeds ---------------------------------------------------------------------------------------------
def test_no_seed_nor_any_seed_the_table_drew_reaches_the_client_before_the_end():
    """Every text the client gets while the game runs, against the numbers that would give the game
    away: the deal's seed, the table secret, the bots' seeds and their copies' (and what the bots'
    seeds were before: derive_seed of the deal's, which inverts to it). The record at the end has
    the seed and the secret, and replays the game."""
    seen = []

    async def body(call):
        async def say(tool, **arguments):
            is_error, text = await call(tool, **arguments)
            seen.append(text)
            return is_error, text

        await say("list_games")
        await say("list_bots")
        is_error, text = await say("start_game", game="yum_cha", seat=1, bots="ismcts:simulations=30,random",
                                   options=small("yum_cha"))
        assert not is_error, text
        played = 0
        while GAME_OVER not in text:
            await say("get_picture", session="g1")
            await say("observe", session="g1", legal_moves=False)
            await say("play_move", session="g1", move="no such move")
            moves = listed_moves(text)
            is_error, text = await say("play_move", session="g1", move=moves[played % len(moves)][1])
            assert not is_error, text
            played += 1
        is_error, record = await call("get_record", session="g1")
        assert not is_error
        seen.append(("record", record))

    run_client(body)
    record_text = seen.pop()[1]
    record = Record.loads(record_text)
    assert record.secret is not None and json.loads(record_text)["secret"] == record.secret
    assert record.final_state().is_terminal
    steps = len(record.final_state().history) + 2
    secret_numbers = {record.seed, int(record.secret, 16)}
    secret_numbers |= {secret_seed(record.secret, BOT_SEEDS, seat) for seat in range(3)}
    secret_numbers |= {secret_seed(record.secret, COPY_SEEDS, step) for step in range(steps)}
    secret_numbers |= {derive_seed(record.seed, seat) for seat in range(3)}
    told = set().union(*(numbers_in(text) for text in seen))
    assert not {str(n) for n in secret_numbers} & told
    assert record.secret not in "".join(seen)
    assert "seed" not in "".join(seen[2:]).lower()  # after list_games and list_bots, which explain the seed rule


def test_the_bots_are_seeded_from_the_table_secret_never_from_the_deal():
    table = Tables(capabilities=Capabilities(client_seeds=True)).start("yum_cha", seat=0, bots="random,heuristic,"
                                                                       "ismcts:simulations=5", seed=12)
    for seat in (1, 2, 3):
        assert table.bots[seat].seed == secret_seed(table.secret, BOT_SEEDS, seat) != derive_seed(12, seat)
    other = Tables(capabilities=Capabilities(client_seeds=True)).start("yum_cha", bots="random", seed=12)
    assert other.secret != table.secret and other.bots[1].seed != table.bots[1].seed  # the same deal, new bots


# ---- errors --------------------------------------------------------------------------------------------
def test_huge_arguments_get_bounded_errors_that_quote_them_cut():
    huge = "x" * 20_000_000

    async def body(call):
        is_error, text = await call("start_game", game=huge)
        assert is_error and len(text) <= BOUND and "(20,000,000 characters)" in text, text[:300]
        big = 2_000_000
        for tool, arguments in (("start_game", {"game": "pig", "bots": "b" * big}),
                                ("start_game", {"game": "pig", "options": {"k" * big: 1}}),
                                ("start_game", {"game": "pig", "options": {"winscore": "9" * big}}),
                                ("rules", {"game": "g" * big}),
                                ("observe", {"session": "s" * big})):
            is_error, text = await call(tool, **arguments)
            assert is_error and len(text) <= BOUND, (tool, len(text), text[:300])
        assert not (await call("start_game", game="pig"))[0]
        is_error, text = await call("play_move", session="g1", move="m" * big)
        assert is_error and len(text) <= BOUND

    run_client(body)


def test_an_unexpected_error_says_what_happened_and_names_no_path_the_client_did_not_give():
    error = FileNotFoundError(2, "No such file or directory", "/home/operator/secret/bot.dspolicy")
    assert describe(error) == "the server could not do it: a system error (No such file or directory)"
    assert describe(KeyError("x")) == "the server could not do it: KeyError: 'x'"
    text = bound("cannot read /home/operator/bots/x.dspolicy nor C:\\bots\\y, given /tmp/mine.txt; 1/2 and/or "
                 "https://example.org", given=["/tmp/mine.txt"])
    assert text == "cannot read <path> nor <path>, given /tmp/mine.txt; 1/2 and/or https://example.org"
    assert len(bound("y" * 10**6)) == MAX_ERROR and bound("y" * 10**6).endswith("(cut: the message had 1,000,000 "
                                                                                 "characters)")


# ---- sessions end their bots, searches end with them ---------------------------------------------------
def test_end_game_and_a_client_that_goes_end_an_operators_bot_programs(tmp_path):
    """The operator's external bot ignores quit and the end of its input (only a kill ends it) and
    takes 0.3 s a move: end_game kills it (3 sessions, unfinished), also while it is moving, and
    so does a client going away in the middle of a move. Counted as real OS processes."""
    need_module("mcp")  # the SDK's client (it brings anyio): skipped with only .[test]
    import anyio

    pids = tmp_path / "pids"
    flags = ["--bot", "stubborn=" + spec(stubborn_bot(tmp_path, 0.3))]
    env = {"PROTOCOL_TEST_PIDS": str(pids)}

    async def ended(call):
        for number in (1, 2, 3):
            is_error, text = await call("start_game", game="yum_cha", bots="stubborn", options=small("yum_cha"))
            assert not is_error and "stubborn in seat 1" in text and str(tmp_path) not in text, text
            is_error, text = await call("play_move", session=f"g{number}", move=first_move(text))  # draw
            assert not (await call("play_move", session=f"g{number}", move=first_move(text)))[0]  # discard
            assert live(pids)[1], "the bots' programs run"
            is_error, text = await call("end_game", session=f"g{number}")
            assert not is_error and "not finished" in text
            started, running = wait_gone(pids)
            assert len(started) >= number and not running, running
        # ended while its bots are moving: they stop before their next move
        is_error, text = await call("start_game", game="yum_cha", bots="stubborn", options=small("yum_cha"))
        is_error, text = await call("play_move", session="g4", move=first_move(text))
        results = []

        async def move():  # the discard: then two bots draw and discard, 0.3 s a move
            results.append(await call("play_move", session="g4", move=first_move(text)))

        async with anyio.create_task_group() as group:
            group.start_soon(move)
            await anyio.sleep(0.5)
            assert not (await call("end_game", session="g4"))[0]
        # the loop stopped at the next bot move (said in the interrupted call's answer), not at the turn
        assert results[0][0] and "session g4 was ended while its bots were moving" in results[0][1]
        assert not wait_gone(pids)[1]

    run_client(ended, *flags, env=env)
    pids.unlink()

    async def gone(call):
        is_error, text = await call("start_game", game="yum_cha", bots="stubborn", options=small("yum_cha"))
        is_error, text = await call("play_move", session="g1", move=first_move(text))
        assert not is_error
        with anyio.move_on_after(0.8):  # the client leaves while the bots move
            await call("play_move", session="g1", move=first_move(text))
        assert live(pids)[1]

    run_client(gone, *flags, env=env)
    started, running = wait_gone(pids)
    assert started and not running, running


def test_a_second_session_answers_while_the_first_sessions_bot_thinks():
    need_module("mcp")  # the SDK's client (it brings anyio): skipped with only .[test]
    import anyio

    async def body(call):
        done = []

        async def slow():
            # the bot (seat 0) moves first: at least one search of 2 s
            done.append(await call("start_game", game="pig", seat=1, bots="ismcts:seconds=2"))

        async with anyio.create_task_group() as group:
            group.start_soon(slow)
            await anyio.sleep(0.5)
            for tool, arguments in (("start_game", {"game": "yum_cha"}), ("observe", {"session": "g2"}),
                                    ("list_games", {}), ("play_move", {"session": "g2", "move": "0"})):
                begun = time.monotonic()
                is_error, text = await call(tool, **arguments)
                assert not is_error and time.monotonic() - begun < 1.0, (tool, time.monotonic() - begun)
            assert not done, "the first session's bot is still thinking"
        assert not done[0][0]

    run_client(body)


# ---- the tables, without the SDK ------------------------------------------------------------------------
def test_ending_a_session_stops_its_bots_before_their_next_move_and_closes_them_once_never_mid_move():
    import threading

    log = []

    class Slow:
        moving = False

        def act(self, state):
            self.moving = True
            time.sleep(0.2)
            self.moving = False
            log.append("move")
            return 0  # roll

        def close(self):
            log.append("close while moving" if self.moving else "close")

    game = dimsum.make("pig", winscore=1000)
    bots = {1: Slow()}
    table = Table("t", game, 0, 3, bots, ["slow", "agent"], None)
    errors = []

    def play():
        try:
            table.play("hold")
        except SessionEnded as e:
            errors.append(str(e))

    thread = threading.Thread(target=play)
    thread.start()
    time.sleep(0.3)
    assert table.close(wait=2.0) is True
    thread.join()
    assert errors == ["session t was ended while its bots were moving"]
    assert log[-1] == "close" and log.count("close") == 1 and log.count("move") <= 3
    table.close()
    assert log.count("close") == 1


def test_shutdown_ends_every_session_and_refuses_new_ones():
    closed = []

    class Closing:
        def act(self, state):
            return state.legal_actions()[0]

        def close(self):
            closed.append(self)

    tables = Tables(capabilities=Capabilities(client_seeds=True))
    first = tables.start("pig", seed=1)
    tables.start("pig", seed=2)
    first.bots[1] = Closing()
    assert tables.close_all(wait=1.0) == 0 and tables.sessions() == [] and len(closed) == 1
    with pytest.raises(ValueError, match="shutting down"):
        tables.start("pig")
