"""Serve the games in the browser: a lobby, tables of humans and bots, spectators (needs the web extra)."""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from dimsum.cli.args import at_least

EPILOG = """examples:
  python -m dimsum serve
  python -m dimsum serve --port 8000 --bot strong=ismcts:simulations=5000
  python -m dimsum serve --bot-delay 0 --max-tables 50

Open http://127.0.0.1:8000/ (the lobby), choose a game and its seats, and open the table: each
human seat gets its own link, and a spectator link shows only what every seat sees. docs/PLAY.md,
"In the browser", has the details.

A page is not trusted (docs/SECURITY.md): it seats bots only from the allow-list, random,
heuristic and ismcts (300 simulations), and yours with --bot NAME=SPEC (any spec, an external
program or a policy file included), which a page picks by NAME without seeing its spec. The server
binds 127.0.0.1 and answers only requests addressed to 127.0.0.1 or localhost (a page of another
site cannot reach it by rebinding its name); --host 0.0.0.0 opens it to the network (anyone who can
reach it can open tables)."""


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dimsum serve", description=__doc__, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=at_least(0), default=8000, help="the port (default 8000; 0: any free one)")
    parser.add_argument("--bot", action="append", default=[], metavar="NAME=SPEC",
                        help="a bot the lobby may seat by NAME, any spec; repeatable")
    parser.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                        help="how long a bot waits before it moves, so people can follow (default 0.6)")
    parser.add_argument("--max-tables", type=at_least(1), default=256, help="tables open at once (default 256)")
    args = parser.parse_args(argv)
    if not 0 <= args.bot_delay <= 60:
        parser.error("--bot-delay is from 0 to 60 seconds")
    from dimsum.mcp.capabilities import parse_named

    try:
        named = parse_named(args.bot)
    except (ValueError, TypeError) as e:
        parser.error(str(e))
    try:
        import starlette  # noqa: F401
        import uvicorn
        import websockets  # noqa: F401
    except ImportError:
        from dimsum._extras import install_hint

        print(f"python -m dimsum serve needs the web extra (starlette, uvicorn, websockets): {install_hint('web')}",
              file=sys.stderr)
        return 2
    from dimsum.web.app import MAX_MESSAGE, create_app

    loopback = args.host in ("127.0.0.1", "localhost", "::1")
    app = create_app(named, max_tables=args.max_tables, bot_delay=args.bot_delay,
                     hosts=None if loopback else ["*"])
    print(f"dimsum serve: the lobby is at http://{args.host}:{args.port}/ (Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws="websockets-sansio",
                ws_max_size=64 * MAX_MESSAGE,  # above: the connection is closed; up to it: an error answer
                ws_ping_interval=20, ws_ping_timeout=20)
    return 0
