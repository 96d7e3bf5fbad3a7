"""Play a seeded tournament between bots and print the standings (docs/ARENA.md)."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from typing import Any, Dict, Iterator, List, Optional

from dimsum.arena.tournament import MOVE_SECONDS
from dimsum.cli.args import at_least

EPILOG = """examples:
  python -m dimsum arena --game nice_buns --players 2 --bots random,random --games 100 --seed 1
  python -m dimsum arena --game yum_cha --bots ismcts:simulations=200,random --workers 2 --json out.json
  python -m dimsum arena --game dim_sum_jam --option complaint_limit=5 --bots heuristic,random --record games/
  python -m dimsum arena --game nice_buns --bots random,random --games 1000 --ray            # local Ray
  python -m dimsum arena --game nice_buns --bots random,random --games 1000 --ray HEAD:6379  # a cluster

exit codes: 0 done, 1 the tournament stopped (a bot failed or took longer than --move-seconds, Ray
unreachable), 2 bad usage, 130 interrupted by Ctrl-C or SIGTERM (the finished games are kept in
--json; every bot program is closed first)."""


def _option(text: str) -> tuple:
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not name=value")
    from dimsum.bots import _parse_value  # the bot specs' rule: int, float, bool, None or text

    parsed = None if value.strip().lower() == "none" else _parse_value(value.strip())
    return name.strip(), parsed


def _move_seconds(text: str) -> Optional[float]:
    """--move-seconds: seconds (a number) or "none" (no limit); dimsum.arena checks the range."""
    if text.strip().lower() == "none":
        return None
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds (or 'none')") from None


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """While the tournament runs, SIGTERM (``kill``, a CI timeout, a service manager) stops it the
    way Ctrl-C does: the workers are told to stop, every bot program is closed, the finished games
    are kept. Left to its default, SIGTERM would end this process at once and leave the workers and
    their bots behind. (Only where SIGTERM has its default action, and only in the main thread.)"""
    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    try:
        previous = signal.getsignal(signal.SIGTERM)
        if previous == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: left as it is
        previous = None
    try:
        yield
    finally:
        if previous == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, previous)


def parser() -> argparse.ArgumentParser:
    import dimsum

    p = argparse.ArgumentParser(prog="python -m dimsum arena", description=__doc__, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", required=True, choices=dimsum.games())
    p.add_argument("--players", type=at_least(1), help="seats (default: the game's)")
    p.add_argument("--option", action="append", type=_option, default=[], metavar="NAME=VALUE",
                   help="a game option, repeatable (docs/RULES.md lists them)")
    p.add_argument("--bots", required=True,
                   help="comma-separated bot specs, e.g. ismcts:simulations=1000,c=0.7,heuristic,random")
    p.add_argument("--games", type=at_least(1), default=100,
                   help="at least this many games, rounded up to whole rounds of the line-ups (default 100)")
    p.add_argument("--seed", type=at_least(0), default=0)
    p.add_argument("--workers", type=at_least(1), default=1, help="worker processes (default 1)")
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                   help="run on Ray: no ADDRESS starts a local instance; 'auto' or host:port join a cluster")
    p.add_argument("--chunk-size", type=at_least(1), help="games per task (default: a few tasks per worker)")
    p.add_argument("--json", metavar="PATH", help="write the results as JSON (also when the tournament stops)")
    p.add_argument("--record", metavar="DIR", help="write every game as a replayable record into DIR")
    p.add_argument("--move-seconds", type=_move_seconds, default=MOVE_SECONDS, metavar="SECONDS",
                   help=f"the longest a bot may take for one move; a slower bot is stopped and stops the "
                        f"tournament, named (default {MOVE_SECONDS:g}; 'none': no limit)")
    p.add_argument("--secret", metavar="HEX",
                   help="the tournament's table secret (32 hex digits), from which external bots' seeds are "
                        "drawn; the JSON of a run keeps it, to play the run again exactly (default: a fresh one)")
    p.add_argument("--no-progress", action="store_true", help="no progress display")
    return p


def main(argv: Optional[List[str]] = None) -> int:
    import dimsum
    import dimsum.arena

    p = parser()
    args = p.parse_args(argv)
    options: Dict[str, Any] = dict(args.option)
    if args.players is not None:
        options["players"] = args.players
    try:
        game = dimsum.make(args.game, **options)
    except (ValueError, TypeError) as e:
        p.error(f"game options: {e}")
    try:
        with _terminate_as_interrupt():
            results = dimsum.arena.run(game, args.bots, games=args.games, seed=args.seed, workers=args.workers,
                                       ray=args.ray, record_dir=args.record, json_path=args.json,
                                       progress=not args.no_progress, chunk_size=args.chunk_size,
                                       move_seconds=args.move_seconds, secret=args.secret)
    except (ValueError, TypeError) as e:  # bad bots or settings, found before any game
        p.error(str(e))
    except dimsum.arena.ArenaError as e:
        if e.results is not None and e.results.games:
            print(e.results.table())
        saved = f" (the finished games are in {args.json})" if args.json else ""
        print(f"python -m dimsum arena: stopped: {e}{saved}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        saved = f"; the finished games are in {args.json}" if args.json else ""
        print(f"python -m dimsum arena: interrupted{saved}", file=sys.stderr)
        return 130
    except OSError as e:  # the JSON or the record directory cannot be written
        print(f"python -m dimsum arena: {e}", file=sys.stderr)
        return 1
    print(results.table())
    return 0
