"""Rate a bot on the ladder: its rating with a 95% interval against fixed reference bots (docs/LADDER.md)."""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from dimsum.arena.tournament import MOVE_SECONDS
from dimsum.cli.arena import _move_seconds
from dimsum.cli.args import at_least

EPILOG = """examples:
  python -m dimsum ladder --game nice_buns --players 2 --bot ismcts:simulations=200 --seed 1
  python -m dimsum ladder --game dim_sum_jam --bot heuristic --json rating.json --record games/
  python -m dimsum ladder --game pig --list

exit codes: 0 rated, 1 stopped (a bot failed, Ray unreachable, a file that cannot be written), 2 bad
usage, 130 interrupted."""


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is not > 0")
    return value


def parser() -> argparse.ArgumentParser:
    import dimsum

    p = argparse.ArgumentParser(prog="python -m dimsum ladder", description=__doc__, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", required=True, choices=dimsum.games())
    p.add_argument("--players", type=at_least(1), help="seats (default: the game's)")
    p.add_argument("--ladder", metavar="FILE", help="a ladder file built with python -m dimsum.ladder.build --out")
    p.add_argument("--bot", help="the bot's spec, e.g. ismcts:simulations=200,c=0.5 (one bot)")
    p.add_argument("--list", action="store_true", help="print the ladder's rungs and exit")
    p.add_argument("--width", type=_positive, help="stop when the 95%% interval is narrower (default 100 Elo "
                                                    "points; 0.1 of win rate in a cooperative game)")
    p.add_argument("--max-games", type=at_least(1), default=400, help="the game budget (default 400)")
    p.add_argument("--match-games", type=at_least(1), default=8, help="games a match holds at least (default 8)")
    p.add_argument("--seed", type=at_least(0), help="the rating's seed (default: drawn at random, and printed)")
    p.add_argument("--workers", type=at_least(1), default=1, help="worker processes (default 1)")
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS", help="run on Ray (as the arena)")
    p.add_argument("--json", metavar="PATH", help="write the report as JSON (after every match)")
    p.add_argument("--record", metavar="DIR", help="write every game as a record, DIR/match-003/game-000001.json")
    p.add_argument("--move-seconds", type=_move_seconds, default=MOVE_SECONDS, metavar="SECONDS",
                   help=f"the longest a bot may take for one move (default {MOVE_SECONDS:g}; 'none': no limit)")
    p.add_argument("--no-progress", action="store_true", help="no progress display")
    return p


def main(argv: Optional[List[str]] = None) -> int:
    import dimsum.ladder

    p = parser()
    args = p.parse_args(argv)
    try:
        if args.ladder is not None:
            ladder = dimsum.ladder.load_file(args.ladder)
            if ladder.game != args.game or (args.players is not None and ladder.players != args.players):
                p.error(f"{args.ladder} is a ladder of {ladder.game} with {ladder.players} players")
        else:
            ladder = dimsum.ladder.load(args.game, args.players)
    except (ValueError, OSError) as e:
        p.error(str(e))
    if args.list:
        print(f"ladder {ladder.name} v{ladder.version} ({'win rate against the game' if ladder.cooperative else 'Elo, random = 1000'}); "
              f"built by: {ladder.command}")
        for rung in sorted(ladder.rungs, key=lambda r: r.rating):
            print(f"  {rung.name:<45} {rung.rating:9.3f}  [{rung.interval[0]:.3f}, {rung.interval[1]:.3f}]  {rung.games} games")
        return 0
    if not args.bot:
        p.error("--bot SPEC is required (or --list)")
    try:
        report = dimsum.ladder.rate(ladder, args.bot, seed=args.seed, width=args.width, max_games=args.max_games,
                                    match_games=args.match_games, workers=args.workers, ray=args.ray,
                                    record_dir=args.record, json_path=args.json, progress=not args.no_progress,
                                    move_seconds=args.move_seconds)
    except (ValueError, TypeError) as e:
        p.error(str(e))
    except dimsum.ladder.RatingStopped as e:
        if e.report is not None and e.report.games:
            print(e.report.text())
        print(f"python -m dimsum ladder: stopped: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("python -m dimsum ladder: interrupted", file=sys.stderr)
        return 130
    except OSError as e:
        print(f"python -m dimsum ladder: {e}", file=sys.stderr)
        return 1
    print(report.text())
    return 0
