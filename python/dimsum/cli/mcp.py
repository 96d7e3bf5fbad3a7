"""Serve the games to LLM agents as an MCP server over stdio (needs the mcp extra)."""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from dimsum.cli.args import at_least

EPILOG = """examples:
  python -m dimsum mcp
  python -m dimsum mcp --max-sessions 2 --max-moves 1000
  python -m dimsum mcp --bot strong=ismcts:simulations=20000 --bot mine=external:command=./my_bot
  python -m dimsum mcp --max-simulations 500 --max-seconds 0.5
  python -m dimsum mcp --allow-seeds
  python -m dimsum mcp --ladder-seed 5 --max-ladder-games 200

An MCP client starts it and speaks JSON-RPC on its stdin/stdout; docs/MCP.md has a client
configuration, the tools and the limits.

The client, and the agent behind it, is not trusted (docs/MCP.md, "Security"; docs/SECURITY.md).
It chooses bots among random, heuristic, ismcts (within --max-simulations and --max-seconds, one
thread) and policy with the shipped weights; it never runs a program nor opens a file it names.
Anything else (an external program, a policy file, a bigger search) is yours to offer with --bot
NAME=SPEC: the client picks it by NAME and never sees its command or path. The server deals every
game itself and shows no seed while a game runs (the record at the end has it); --allow-seeds lets
the client fix the deal, for reproducible evaluations (the agent then knows every card).
start_ladder rates the agent on a shipped ladder, at most --max-ladder-games games; --ladder-seed
deals every rating from your seed (the same seed and moves, the same rating), unseen by the client."""


def main(argv: Optional[List[str]] = None) -> int:
    from dimsum.mcp.capabilities import MAX_SECONDS, MAX_SIMULATIONS
    from dimsum.mcp.ladder_tools import MAX_LADDER_GAMES
    from dimsum.mcp.table import MAX_MOVES, MAX_SESSIONS

    parser = argparse.ArgumentParser(prog="python -m dimsum mcp", description=__doc__, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-sessions", type=at_least(1), default=MAX_SESSIONS,
                        help=f"games open at once (default {MAX_SESSIONS})")
    parser.add_argument("--max-moves", type=at_least(1), default=MAX_MOVES,
                        help=f"moves a session accepts, valid or not (default {MAX_MOVES})")
    parser.add_argument("--bot", action="append", default=[], metavar="NAME=SPEC",
                        help="a bot the client may choose by NAME, any spec (an external program, a policy file, "
                             "a search beyond the caps); repeatable")
    parser.add_argument("--max-simulations", type=at_least(1), default=MAX_SIMULATIONS,
                        help=f"the most simulations a client's ismcts bot may ask (default {MAX_SIMULATIONS})")
    parser.add_argument("--max-seconds", type=float, default=MAX_SECONDS,
                        help=f"the longest time budget a client's ismcts bot may ask, in seconds (default {MAX_SECONDS:g})")
    parser.add_argument("--allow-seeds", action="store_true",
                        help="let the client fix a game's seed (and so know the whole deal)")
    parser.add_argument("--max-ladder-games", type=at_least(1), default=MAX_LADDER_GAMES,
                        help=f"the most games a rating (start_ladder) may ask (default {MAX_LADDER_GAMES})")
    parser.add_argument("--ladder-seed", type=at_least(0), metavar="SEED",
                        help="deal every rating from this seed (the client never sees it; default: fresh secrets)")
    args = parser.parse_args(argv)
    from dimsum.mcp.capabilities import Capabilities, parse_named

    try:
        capabilities = Capabilities(args.max_simulations, args.max_seconds, parse_named(args.bot), args.allow_seeds)
    except (ValueError, TypeError) as e:
        parser.error(str(e))
    if args.ladder_seed is not None and args.ladder_seed >= 1 << 64:
        parser.error(f"--ladder-seed must fit in 64 bits, got {args.ladder_seed}")
    try:
        import mcp.server.mcpserver  # noqa: F401
    except ImportError:
        print('python -m dimsum mcp needs the MCP SDK: pip install "dimsum-games[mcp]" (or pip install mcp)',
              file=sys.stderr)
        return 2
    from dimsum.mcp.server import run

    run(args.max_sessions, args.max_moves, capabilities, args.max_ladder_games, args.ladder_seed)
    return 0
