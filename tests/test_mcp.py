"""The MCP server for LLM agents: its games (dimsum.mcp.Tables, no SDK needed) and
``python -m dimsum mcp`` driven by the MCP SDK's own client over stdio (the ``mcp`` extra), a whole
game of each game played through it by a scripted agent that reads its view as a model would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import dimsum
from dimsum.mcp import Capabilities, Table, Tables
from dimsum.play.legend import legend_text
from dimsum.records import Record
from dimsum.render import to_svg
from dimsum.testing import profile
from llm_fakes import listed_moves
from needs import need_module
import processes

GAME_OVER = "The game is over:"
SEEDED = Capabilities(client_seeds=True)  # these tests fix their deals, as the operator's --allow-seeds lets a client


def seeded_tables(**limits):
    return Tables(capabilities=SEEDED, **limits)


def small(name):
    """Options for a short game (the games' test profiles)."""
    return dict(profile(name).small)


# ---- the tables, without the SDK ----------------------------------------------------------------
def test_start_seats_the_agent_and_the_bots_move_until_its_turn():
    table = seeded_tables().start("pig", seat=1, bots="heuristic", seed=3)
    assert table.state.current_player == 1 and table.names == ["heuristic", "agent"]
    text = table.observe()
    assert "session g1: heuristic in seat 0, you in seat 1; moves 0 of at most 5000, 0 invalid" in text
    assert "seed" not in text
    assert "seat 0: hold" in text and listed_moves(text) == [(0, "roll"), (1, "hold")]
    assert listed_moves(table.observe(legal=False)) == []


def test_a_move_is_read_strictly_and_a_refused_one_is_counted_with_the_game_unchanged():
    table = seeded_tables().start("pig", seed=3, bots="heuristic")
    before = table.state.to_bytes()
    with pytest.raises(ValueError, match="'rol' is not a move of pig.*similar names: \\['roll'\\]"):
        table.play("rol")
    with pytest.raises(dimsum.IllegalActionError, match="'unused 2' .id 2. is not legal now"):
        table.play("unused 2")
    with pytest.raises(TypeError, match="a reply is a str"):
        table.play(0)
    assert table.state.to_bytes() == before and (table.moves, table.invalid) == (3, 3)
    assert "moves 4 of at most 5000, 3 invalid" in table.play(" ROLL ")
    assert (table.moves, table.invalid) == (4, 3)


def test_the_bots_play_on_copies_whose_future_is_redrawn():
    seen = []

    class Spy:
        def act(self, state):
            seen.append(state.field("rng"))
            return state.legal_actions()[-1]  # hold

    game = dimsum.make("pig")
    table = Table("t", game, 1, 5, {0: Spy()}, ["spy", "agent"], None)
    table.play("hold")
    assert len(seen) == 2
    replay = game.new_state(5)  # the table's own generator at the bots' moves never reached a bot
    assert replay.field("rng") not in seen


def test_two_calls_on_one_session_at_once_take_turns():
    """The SDK runs tools on threads: a move sent while the bots are still moving waits for them
    (it is never read against a bot's turn, and the table never changes under a thinking bot)."""
    import threading
    import time

    unchanged = []

    class Slow:
        table = None

        def act(self, state):
            before = self.table.state.to_bytes() if self.table else None
            time.sleep(0.05)
            unchanged.append(self.table is None or self.table.state.to_bytes() == before)
            return 1  # hold

    slow = Slow()
    table = Table("t", dimsum.make("pig"), 0, 3, {1: slow}, ["slow", "agent"], None)
    slow.table = table
    threads = [threading.Thread(target=table.play, args=("hold",)) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert unchanged == [True] * 3 and table.state.history == [1] * 6 and table.invalid == 0


def test_the_same_seed_secret_and_moves_give_the_same_game_and_the_record_keeps_both():
    """The bots draw from the table's secret, not from the deal: the record holds both, so a game
    is repeated exactly from its seed, secret and the agent's moves."""
    from dimsum._secrets import new_secret
    from dimsum.mcp.table import seat_bots

    game = dimsum.make("nice_buns", players=3, max_turns=10)
    secret = new_secret()
    records = []
    for _ in range(2):
        bots, names = seat_bots(game, "random", 0, secret)
        table = Table("t", game, 0, 8, bots, names, None, secret=secret)
        while not table.state.is_terminal:
            table.play(listed_moves(table.observe())[0][1])
        records.append(table.record())
    assert records[0] == records[1]
    record = Record.loads(records[0])
    assert (record.seed, record.secret) == (8, secret)


def test_the_record_is_given_only_once_the_game_is_over_and_replays_it():
    table = seeded_tables().start("yum_cha", bots="heuristic", seed=2, options=small("yum_cha"))
    with pytest.raises(ValueError, match="once the game is over: it holds the seed"):
        table.record()
    while not table.state.is_terminal:
        table.play(listed_moves(table.observe())[-1][1])
    record = Record.loads(table.record())
    assert record.players == ["agent", "heuristic", "heuristic"]
    assert record.final_state().to_bytes() == table.state.to_bytes()
    assert GAME_OVER in table.observe()
    with pytest.raises(ValueError, match="the game is over"):
        table.play("draw from the deck")


def test_the_picture_is_the_seats_view():
    table = seeded_tables().start("yum_cha", seed=4, options=small("yum_cha"))
    assert table.picture() == to_svg(table.state, 0, table.names) != to_svg(table.state, None, table.names)


def test_dim_sum_jam_charges_each_agent_move_its_declared_ticks():
    for move_ticks, expected in ((None, 50), (7, 7)):
        table = seeded_tables().start("dim_sum_jam", bots="heuristic", seed=1, options={"players": 2}, move_ticks=move_ticks)
        assert f"each of your moves is charged {expected} ticks" in table.observe()
        for _ in range(5):
            step = len(table.state.timeline)
            table.play(listed_moves(table.observe())[0][1])
            assert table.state.timeline[step][1] == expected
    with pytest.raises(ValueError, match="move_ticks is for a game on the clock"):
        seeded_tables().start("pig", move_ticks=5)
    with pytest.raises(ValueError, match="move_ticks is for a game on the clock"):
        seeded_tables().start("dim_sum_jam", options={"ticks_per_action": 0}, move_ticks=5)
    with pytest.raises(ValueError, match="move_ticks is an int from 0 to 1000000"):
        seeded_tables().start("dim_sum_jam", move_ticks=-1)


def test_the_view_announces_a_complaint_and_its_cause_since_the_agent_s_last_move():
    table = seeded_tables().start("dim_sum_jam", seat=0, bots="random", seed=4, options={"players": 3},
                                  move_ticks=1200)  # each agent move empties the glass
    text = table.play(str(table.state.legal_actions()[0]))
    since = text.split("What happened since your last move:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert since[0].startswith("  you (seat 0): play ")
    assert "  COMPLAINT 1 of 3: the sand ran out. The game pauses: players may discard and replenish, " \
           "then the glass is flipped." in since
    assert table.events() == [line.strip() for line in since]
    again = table.observe()  # observing again tells the same: nothing new happened
    assert "COMPLAINT 1 of 3" in again and again.count("you (seat 0): play ") == 1


def test_sessions_and_moves_are_bounded_and_end_game_frees_a_place():
    tables = seeded_tables(max_sessions=2, max_moves=2)
    first = tables.start("pig", seed=1)
    tables.start("pig", seed=2)
    with pytest.raises(ValueError, match=r"2 games are open, the most this server holds \(2\); end one"):
        tables.start("pig")
    with pytest.raises(ValueError, match="not a move"):
        first.play("nonsense")
    first.play("roll")
    with pytest.raises(ValueError, match="made its 2 moves .valid or not., the most a session may"):
        first.play("hold")
    assert tables.end("g1") is first and tables.sessions() == ["g2"]
    with pytest.raises(ValueError, match="no game 'g1' is open .open: g2.; start one"):
        tables.get("g1")
    assert tables.start("pig").session == "g3"
    with pytest.raises(ValueError, match="max_sessions is an int >= 1"):
        Tables(max_sessions=0)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"game": "chess"}, ValueError, "chess"),
    ({"game": 3}, TypeError, "game is a name"),
    ({"game": "pig", "seat": 2}, ValueError, "seat is an int from 0 to 1"),
    ({"game": "pig", "seat": True}, ValueError, "seat is an int"),
    ({"game": "pig", "options": {"chance": "explicit"}}, ValueError, "sampled games"),
    ({"game": "pig", "options": {"colour": 1}}, ValueError, "colour"),
    ({"game": "pig", "options": [1]}, TypeError, "options is an object"),
    ({"game": "pig", "bots": "random,random"}, ValueError, "names 2 bots but only 1 seats"),
    ({"game": "pig", "bots": "wizard"}, ValueError, "bot 'wizard' is not one this server lets a client choose"),
    ({"game": "pig", "bots": "llm"}, ValueError, "bot 'llm' is not one this server lets a client choose"),
    ({"game": "pig", "bots": 3}, TypeError, "bots is a spec list"),
    ({"game": "pig", "seed": 2 ** 70}, ValueError, "seed must fit in 64 bits"),
    ({"game": "pig", "seed": "7"}, TypeError, "seed must be an int"),
])
def test_bad_start_arguments_are_clear_errors_and_open_no_session(kwargs, error, message):
    tables = seeded_tables()
    with pytest.raises(error, match=message):
        tables.start(**kwargs)
    assert tables.sessions() == []


def test_a_failing_bot_stops_the_game_with_a_message():
    class Broken:
        def act(self, state):
            raise RuntimeError("out of memory")

    table = Table("t", dimsum.make("pig"), 1, 1, {0: Broken()}, ["broken", "agent"], None)
    assert "the bot in seat 0 (broken) failed: RuntimeError: out of memory" in table.observe()
    with pytest.raises(ValueError, match="the game cannot go on"):
        table.play("roll")


# ---- the server, through the SDK's client over stdio -------------------------------------------
def run_client(body, *server_args, env=None):
    """Starts ``python -m dimsum mcp`` (with this test run's dimsum and environment, plus ``env``) and
    runs ``body(call)`` with ``call(tool, **arguments) -> (is_error, text)`` from the SDK's ClientSession."""
    need_module("mcp")
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = dict(os.environ, PYTHONPATH=str(Path(dimsum.__file__).resolve().parents[1]), **(env or {}))
    params = StdioServerParameters(command=sys.executable, args=["-m", "dimsum", "mcp", *server_args], env=env)
    out = {}

    async def main():
        with anyio.fail_after(120):  # a hung server fails the test, and the client ends it
            async with stdio_client(params) as streams, ClientSession(*streams) as session:
                await session.initialize()
                out["tools"] = {t.name: t for t in (await session.list_tools()).tools}

                async def call(tool, **arguments):
                    result = await session.call_tool(tool, arguments)
                    return result.is_error, "".join(c.text for c in result.content)

                await body(call)

    anyio.run(main)
    return out


async def play_out(call, session, seed):
    """Plays game ``session`` to its end by listed moves, chosen by a seeded generator, by name."""
    import random

    rng = random.Random(seed)
    is_error, text = await call("observe", session=session)
    moves = 0
    while GAME_OVER not in text:
        assert not is_error, text
        name = rng.choice(listed_moves(text))[1]
        is_error, text = await call("play_move", session=session, move=name.upper() if moves % 2 else name)
        moves += 1
    return moves, text


def test_a_whole_game_of_each_game_through_the_sdk_client():
    """One server (starting one costs seconds: the SDK's import), one session a game in turn."""
    async def body(call):
        for number, name in enumerate(dimsum.games(), start=1):
            session = f"g{number}"
            is_error, text = await call("start_game", game=name, seat=1, bots="heuristic", seed=11,
                                        options=small(name))
            assert not is_error and f"session {session}:" in text
            moves, text = await play_out(call, session, seed=5)
            assert f"moves {moves} of at most 5000, 0 invalid" in text
            is_error, record = await call("get_record", session=session)
            assert not is_error
            state = Record.loads(record).final_state()
            assert state.is_terminal and state.game.name == name and state.outcome.description in text
            is_error, svg = await call("get_picture", session=session)
            assert not is_error and svg == to_svg(state, 1, json.loads(record)["players"])
            is_error, text = await call("end_game", session=session)
            assert not is_error and f"{moves} moves, 0 invalid; 0 of 8 sessions open" in text

    run_client(body, "--allow-seeds")


def test_the_server_lists_its_tools_games_and_rules_and_refuses_bad_calls_and_arguments_clearly():
    async def body(call):
        is_error, text = await call("list_games")
        games = json.loads(text)
        assert not is_error and sorted(games) == sorted(dimsum.games())
        assert {"name": "winscore", "default": 100, "doc": games["pig"]["options"][1]["doc"],
                "range": [1, 10000]} in games["pig"]["options"]
        assert (await call("rules", game="yum_cha"))[1] == (dimsum.llm.rules_summary("yum_cha") + "\n\nWhat the words "
                                                          "in the views mean:\n" + legend_text(dimsum.make("yum_cha")))
        is_error, text = await call("rules", game="go")
        assert is_error and text.endswith("unknown game 'go'; the games are " + ", ".join(dimsum.games()))
        is_error, text = await call("start_game", game="pig", players=3)  # not an argument: options={"players": 3}
        assert is_error and "players" in text and "Extra inputs are not permitted" in text
        is_error, text = await call("start_game", game="pig", seed=3, bots="heuristic")
        assert not is_error
        is_error, text = await call("play_move", session="g1", move="roll the die")
        assert is_error and "'roll the die' is not a move of pig" in text
        is_error, text = await call("play_move", session="g1", move="unused 5")
        assert is_error and "'unused 5' (id 5) is not legal now" in text
        assert "moves 2 of at most 3, 2 invalid" in (await call("observe", session="g1"))[1]
        is_error, text = await call("get_record", session="g1")
        assert is_error and "once the game is over" in text
        assert not (await call("play_move", session="g1", move="1"))[0]
        is_error, text = await call("play_move", session="g1", move="hold")
        assert is_error and "made its 3 moves" in text
        is_error, text = await call("start_game", game="pig")
        assert is_error and "1 games are open, the most this server holds (1)" in text
        is_error, text = await call("observe", session="g9")
        assert is_error and "no game 'g9' is open (open: g1)" in text

    out = run_client(body, "--max-sessions", "1", "--max-moves", "3", "--allow-seeds")
    assert sorted(out["tools"]) == ["end_game", "get_picture", "get_record", "ladder_status", "list_bots", "list_games",
                                    "observe", "play_move", "rules", "start_game", "start_ladder"]
    assert "At most 1 games are open" in out["tools"]["start_game"].description
    assert out["tools"]["start_game"].input_schema["additionalProperties"] is False


def test_the_mcp_command_without_the_sdk_says_what_to_install(tmp_path):
    """A stand-in package named mcp that fails to import: the command explains, exit code 2."""
    (tmp_path / "mcp").mkdir()
    (tmp_path / "mcp" / "__init__.py").write_text("raise ImportError('no SDK here')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(Path(dimsum.__file__).resolve().parents[1])]))
    done = processes.run([sys.executable, "-m", "dimsum", "mcp"], env=env, capture_output=True, text=True,
                         timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and 'pip install "dimsum-games[mcp]"' in done.stderr

