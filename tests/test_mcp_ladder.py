"""The rating ladder over MCP (docs/MCP.md, "Rating an agent"): an agent connected to the server,
driven by the MCP SDK's own stdio client and playing random legal moves by name, is rated on a
shipped ladder game after game with the ordinary move tools; the same server seed and the same
moves give the same rating; hostile arguments are refused cleanly, opening nothing."""

from __future__ import annotations

import json
import os
import random
import re
import sys
from pathlib import Path

import pytest

import dimsum
import dimsum.ladder
from llm_fakes import listed_moves
from needs import need_module

GAME_OVER = "The game is over:"
OVER = ("The rating is over.", "The rating stopped short.")
# the server as python -m dimsum mcp runs it, with the ladder's settings given as build()'s keywords
LAUNCH = ("import json, sys; from dimsum.mcp import Capabilities; from dimsum.mcp.server import run; "
          "k = json.loads(sys.argv[1]); "
          "run(k.pop('max_sessions', 8), k.pop('max_moves', 5000), Capabilities(client_seeds=k.pop('client_seeds', False)), **k)")


def run_server(body, **settings):
    """Starts the MCP server (``settings``: ``max_sessions``, ``client_seeds``, ``max_ladder_games``,
    ``ladder_seed``) and runs ``body(call)``, ``call(tool, **arguments) -> (is_error, text)``, through
    the SDK's stdio client; returns the server's tools by name."""
    need_module("mcp")
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = dict(os.environ, PYTHONPATH=str(Path(dimsum.__file__).resolve().parents[1]))
    params = StdioServerParameters(command=sys.executable, args=["-c", LAUNCH, json.dumps(settings)], env=env)
    out = {}

    async def main():
        with anyio.fail_after(240):  # a hung server fails the test, and the client ends it
            async with stdio_client(params) as streams, ClientSession(*streams) as session:
                await session.initialize()
                out["tools"] = {t.name: t for t in (await session.list_tools()).tools}

                async def call(tool, **arguments):
                    result = await session.call_tool(tool, arguments)
                    return result.is_error, "".join(c.text for c in result.content)

                await body(call)

    anyio.run(main)
    return out["tools"]


def session_of(text):
    return re.search(r"session (g\d+), you in seat", text).group(1)


async def rate_randomly(call, agent_seed, **arguments):
    """Plays a whole rating as an agent that picks a listed move at random: start_ladder, every game
    with play_move, ladder_status after each. Returns (the final text, every text the agent saw)."""
    rng = random.Random(agent_seed)
    is_error, text = await call("start_ladder", **arguments)
    assert not is_error, text
    ladder = re.search(r"rating (L\d+) on", text).group(1)
    seen = [text]
    while not text.startswith(OVER, text.index("\n") + 1):
        session = session_of(text)
        while GAME_OVER not in text:
            is_error, text = await call("play_move", session=session, move=rng.choice(listed_moves(text))[1])
            assert not is_error, text
            seen.append(text)
        is_error, text = await call("ladder_status", ladder=ladder)
        assert not is_error, text
        seen.append(text)
    return text, seen


def test_an_agent_is_rated_over_mcp_and_the_same_server_seed_gives_the_same_rating():
    """Two servers with one ladder seed rate the same agent (same moves) alike; a second rating on
    one server is dealt other games; no text the agent sees holds a seed; every game's session is
    closed when the next opens."""
    finals = []

    async def body(call):
        final, seen = await rate_randomly(call, agent_seed=1, game="pig", max_games=16)
        finals.append(final)
        if len(finals) == 2:  # the second server: a second rating there is dealt other games
            other, _ = await rate_randomly(call, agent_seed=1, game="pig", max_games=16)
            finals.append(other)
        assert not any("seed" in text for text in seen)
        is_error, text = await call("observe", session="g1")
        assert is_error and "no game 'g1' is open (open: none)" in text

    for _ in range(2):
        tools = run_server(body, ladder_seed=5, max_ladder_games=16)
    first, again, other = finals
    assert first == again
    assert "The rating is over." in first and "16 games in 2 matches; the budget of 16 games is spent" in first
    assert re.search(r"rating \(Elo scale, random = 1000\): \d+, 95% interval \[\d+, \d+\]", first)
    assert "cite: " in first and "dimsum ladder pig-2p v1, 16 games" in first
    rows = re.findall(r"^(\S+) +(\d+) +(\d+) +([\d.]+) +([\d.]+)$", first, re.M)  # against, rating, games, score, expected
    assert sum(int(r[2]) for r in rows) == 16 and {r[0] for r in rows} <= {r.name for r in dimsum.ladder.load("pig").rungs}
    assert other.replace("L2", "L1") != first
    assert "start_ladder" in tools and "ladder_status" in tools
    assert "at most 16" in tools["start_ladder"].description and tools["start_ladder"].input_schema[
        "additionalProperties"] is False


def test_a_client_seed_is_taken_only_where_the_operator_allows_it_and_fixes_the_rating():
    async def body(call):
        final, _ = await rate_randomly(call, agent_seed=2, game="pig", max_games=8, seed=9)
        again, _ = await rate_randomly(call, agent_seed=2, game="pig", max_games=8, seed=9)
        assert final.replace("L1", "L2") == again

    run_server(body, client_seeds=True)


async def refused(call, tool, fragment, **arguments):
    is_error, text = await call(tool, **arguments)
    assert is_error and fragment in text, text
    assert len(text) < 1700  # bounded, a long argument quoted cut
    return text


def test_hostile_arguments_are_refused_cleanly_and_open_nothing():
    async def body(call):
        for arguments, fragment in [
            ({"game": "../../../etc/passwd"}, "unknown game"),
            ({"game": 3}, "game"),
            ({"game": "pig", "players": 3}, "no ladder ships for pig with 3 players"),
            ({"game": "pig", "players": True}, "players"),
            ({"game": "dim_sum_jam"}, "rates a team"),
            ({"game": "pig", "max_games": 10 ** 9}, "max_games is an int from 1 to 40 (this server's bound)"),
            ({"game": "pig", "max_games": 0}, "max_games is an int from 1 to 40"),
            ({"game": "pig", "max_games": 3}, "less than one match"),
            ({"game": "pig", "width": 0}, "width is the widest 95% interval"),
            ({"game": "pig", "width": -1.5}, "width"),
            ({"game": "pig", "seed": 7}, "seed is refused"),
            ({"game": "pig", "ladder_file": "/etc/passwd"}, "Extra inputs are not permitted"),
            ({"game": "pig", "rungs": "external:command=/bin/sh"}, "Extra inputs are not permitted"),
            ({"game": "x" * 100_000}, "(100,000 characters)"),
        ]:
            await refused(call, "start_ladder", fragment, **arguments)
        await refused(call, "ladder_status", "no rating 'L1' (known: none); start one with start_ladder", ladder="L1")
        await refused(call, "ladder_status", "(100,000 characters)", ladder="L" * 100_000)
        await refused(call, "ladder_status", "ladder", ladder=["L1"])
        # nothing was opened: the first session is g1, and with it open, a rating finds no place
        assert not (await call("start_game", game="pig"))[0]
        await refused(call, "start_ladder", "1 games are open, the most this server holds (1)", game="pig")
        assert not (await call("end_game", session="g1"))[0]
        is_error, text = await call("start_ladder", game="pig", max_games=16)
        assert not is_error and "session g2, you in seat 0" in text and "rating L" in text
        ladder = re.search(r"rating (L\d+) on", text).group(1)
        # a game ended before it is over stops the rating, with what it had
        assert not (await call("end_game", session="g2"))[0]
        is_error, text = await call("ladder_status", ladder=ladder)
        assert not is_error and "The rating stopped short." in text and "game g2 was ended before it finished" in text
        assert "0 games in 0 matches" in text

    run_server(body, max_sessions=1, max_ladder_games=40)


# ---- without the SDK: the same rating through the server's tables --------------------------------
def test_the_tables_rate_an_agent_in_one_seat_of_a_four_player_game():
    """At four seats the agent holds one seat a game, the rung the other three, each seat in turn;
    the rating's results are the Rater's for those games."""
    from dimsum.mcp import Tables
    from dimsum.mcp.ladder_tools import Ladders

    tables = Tables()
    ladders = Ladders(tables, 8, seed=3)
    run = ladders.start("nice_buns", players=4, max_games=8)
    rng = random.Random(4)
    seats = []
    while not run.over:
        table = run.table
        seats.append((table.seat, tuple(table.names)))
        while not table.state.is_terminal:
            table.play(rng.choice(listed_moves(table.observe()))[1])
        ladders.status(run.name)
    rung = run.rater.plans[0].rung.name
    assert [s for s, _ in seats] == [0, 1, 2, 3] * 2
    assert all(names.count("agent") == 1 and names.count(rung) == 3 for _, names in seats)
    assert run.rater.games_played == 8 and run.failure is None and tables.sessions() == []
