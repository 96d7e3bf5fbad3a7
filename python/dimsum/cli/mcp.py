"""Serve the games to LLM agents as an MCP server over stdio (needs the mcp extra)."""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from dimsum.cli.args import at_least

EPILOG = """examples:
  python -m dimsum mcp
  python -m dimsum mcp --max-sessions 2 --max-moves 1000

An MCP client starts it and speaks JSON-RPC on its stdin/stdout; docs/MCP.md has a client
configuration, the tools and the limits."""


def main(argv: Optional[List[str]] = None) -> int:
    from dimsum.mcp.table import MAX_MOVES, MAX_SESSIONS

    parser = argparse.ArgumentParser(prog="python -m dimsum mcp", description=__doc__, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-sessions", type=at_least(1), default=MAX_SESSIONS,
                        help=f"games open at once (default {MAX_SESSIONS})")
    parser.add_argument("--max-moves", type=at_least(1), default=MAX_MOVES,
                        help=f"moves a session accepts, valid or not (default {MAX_MOVES})")
    args = parser.parse_args(argv)
    try:
        import mcp.server.mcpserver  # noqa: F401
    except ImportError:
        print('python -m dimsum mcp needs the MCP SDK: pip install "dimsum-games[mcp]" (or pip install mcp)',
              file=sys.stderr)
        return 2
    from dimsum.mcp.server import run

    run(args.max_sessions, args.max_moves)
    return 0
