"""The MCP server's cost per move: the same games played through ``python -m dimsum mcp`` by the
SDK's own client over stdio, and in this process through the server's tables (``dimsum.mcp.Tables``,
what each tool calls), side by side.

    PYTHONPATH=python python -m benchmarks.mcp_roundtrip [--game pig] [--games 10] [--rounds 3]

Each round plays ``--games`` games both ways on fresh seeds (the same seeds for both ways within a
round): the agent picks a listed legal move at random, by name, from the view the tool returned, so
both ways do the same work but the transport. Reported per agent move (one ``play_move`` call;
the bots' moves in between are included, as the agent waits for them): wall time both ways, the
client process's CPU time (``time.process_time``) both ways, and the server process's CPU time
(from ``/proc``, Linux only). Medians over the rounds. Needs the ``mcp`` extra.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Any, Dict, List, Tuple

GAME_OVER = "The game is over:"
LISTED = "Your legal moves (id: name):"


def listed(text: str) -> List[str]:
    """The names of the legal moves a view lists."""
    names = []
    for line in text.split(LISTED, 1)[1].strip().splitlines():
        number, sep, name = line.partition(": ")
        if not sep or not number.isdigit():
            break
        names.append(name)
    return names


def in_process(game: str, options: Dict[str, Any], bots: str, seeds: List[int]) -> Tuple[int, float, float]:
    from dimsum.mcp import Tables
    from dimsum.mcp.capabilities import Capabilities

    # the same seeds both ways: the operator lets this client choose them (--allow-seeds)
    tables, moves = Tables(max_sessions=1, capabilities=Capabilities(client_seeds=True)), 0
    wall, cpu = time.perf_counter(), time.process_time()
    for seed in seeds:
        table = tables.start(game, bots=bots, seed=seed, options=options)
        rng, text = random.Random(seed), table.observe()
        while GAME_OVER not in text:
            text = table.play(rng.choice(listed(text)))
            moves += 1
        tables.end(table.session)
    return moves, time.perf_counter() - wall, time.process_time() - cpu


def server_cpu(pid: int) -> float:
    """A process's user + system CPU seconds, from /proc (0.0 where there is none)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


def through_mcp(game: str, options: Dict[str, Any], bots: str, seeds: List[int]) -> Tuple[int, float, float, float]:
    import anyio
    import psutil
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "dimsum", "mcp", "--allow-seeds"], env=dict(os.environ))
    out: Dict[str, float] = {}

    async def main() -> None:
        async with stdio_client(params) as streams, ClientSession(*streams) as session:
            await session.initialize()
            server = [p for p in psutil.Process().children(recursive=True) if "mcp" in " ".join(p.cmdline())][0]
            moves = 0
            wall, cpu, served = time.perf_counter(), time.process_time(), server_cpu(server.pid)
            for number, seed in enumerate(seeds, start=1):
                result = await session.call_tool("start_game", {"game": game, "bots": bots, "seed": seed,
                                                                "options": options})
                rng, text = random.Random(seed), result.content[0].text
                while GAME_OVER not in text:
                    result = await session.call_tool("play_move", {"session": f"g{number}",
                                                                   "move": rng.choice(listed(text))})
                    text = result.content[0].text
                    moves += 1
                await session.call_tool("end_game", {"session": f"g{number}"})
            out.update(moves=moves, wall=time.perf_counter() - wall, cpu=time.process_time() - cpu,
                       server=server_cpu(server.pid) - served)

    anyio.run(main)
    return int(out["moves"]), out["wall"], out["cpu"], out["server"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="pig")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bots", default="heuristic")
    args = parser.parse_args()
    options = {"players": 2} if args.game != "pig" else {}
    rows: Dict[str, List[float]] = {k: [] for k in ("direct wall", "direct cpu", "mcp wall", "mcp client cpu",
                                                    "mcp server cpu")}
    for r in range(args.rounds):
        seeds = [random.Random(r).randrange(1 << 32) for _ in range(args.games)]
        seeds = [s + i for i, s in enumerate(seeds)]
        moves, wall, cpu = in_process(args.game, options, args.bots, seeds)
        m_moves, m_wall, m_cpu, m_server = through_mcp(args.game, options, args.bots, seeds)
        assert m_moves == moves, "the two ways played different games"
        for key, value in zip(rows, (wall, cpu, m_wall, m_cpu, m_server)):
            rows[key].append(value / moves * 1e3)
        print(f"round {r}: {moves} agent moves", file=sys.stderr)
    print(f"{args.game}, {args.games} games a round, {args.rounds} rounds, bots {args.bots!r}; ms per agent move "
          "(medians):")
    for key, values in rows.items():
        print(f"  {key:<15} {statistics.median(values):8.3f}")
    print(f"  mcp / direct, wall: {statistics.median(rows['mcp wall']) / statistics.median(rows['direct wall']):.1f}x")


if __name__ == "__main__":
    main()
