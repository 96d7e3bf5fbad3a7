"""Play a game against the bots in the terminal (Dim Sum Jam against a real clock)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import dimsum
import dimsum.bots
from dimsum.cli.args import at_least

FAKE_CLOCK_ENV = "DIMSUM_PLAY_FAKE_CLOCK"

EPILOG = """examples:
  python -m dimsum play nice_buns --players 3 --seed 7
  python -m dimsum play yum_cha --seat 0 --bots ismcts,heuristic,random
  python -m dimsum play dim_sum_jam --players 3 --record game.json

At the prompt: a move's number or name, help, undo, quit. docs/PLAY.md has the details."""


def _option(text: str) -> Tuple[str, Any]:
    """``name=value``: the value read as JSON (numbers, true/false, null, lists), else as a string."""
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not name=value (for example rounds=1)")
    value = value.strip()
    try:
        parsed = json.loads(value)
    except ValueError:
        parsed = {"true": True, "false": False, "none": None}.get(value.lower(), value)
    return name.strip(), parsed


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m dimsum play", description=__doc__, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=dimsum.games())
    parser.add_argument("--players", type=at_least(1), help="number of seats (default: the game's)")
    parser.add_argument("--seat", type=at_least(0), default=0, help="your seat (default 0)")
    parser.add_argument("--seed", type=at_least(0), help="the deal (default: a fresh one; never shown while the game runs, written in the record)")
    parser.add_argument("--option", type=_option, action="append", default=[], metavar="NAME=VALUE",
                        help="a game option (repeatable), as in dimsum.make: --option rounds=1")
    parser.add_argument("--bots", default="random", metavar="LIST",
                        help="bot specs for the other seats in order, the last one repeated "
                             f"(default random; kinds: {', '.join(dimsum.bots.kinds())})")
    parser.add_argument("--record", type=Path, metavar="FILE", help="write the game as a dimsum record (JSON)")
    parser.add_argument("--fake-clock", type=Path, metavar="FILE",
                        help=f"read the time from FILE (seconds) instead of the wall clock, for tests "
                             f"(or set {FAKE_CLOCK_ENV})")
    return parser


def _bots(parser: argparse.ArgumentParser, game: Any, text: str, human: int, seed: int
          ) -> Tuple[Dict[int, Any], List[str]]:
    """One bot per seat but the human's, in seat order; the names of every seat."""
    from dimsum.reference.rng import derive_seed

    try:
        specs = dimsum.bots.parse_list(text)
    except ValueError as e:
        parser.error(f"--bots: {e}")
    others = [s for s in range(game.players) if s != human]
    if len(specs) > len(others):
        parser.error(f"--bots names {len(specs)} bots but only {len(others)} seats are not yours")
    specs += [specs[-1]] * (len(others) - len(specs))
    bots, names = {}, ["human"] * game.players
    for seat, (kind, params) in zip(others, specs):
        try:
            bots[seat] = dimsum.bots.make(kind, game, seed=derive_seed(seed, seat), **params)
        except (ValueError, TypeError) as e:
            parser.error(f"--bots: {e}")
        names[seat] = kind + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")
    return bots, names


def main(argv: Optional[List[str]] = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    options = dict(args.option)
    if args.players is not None:
        options["players"] = args.players
    try:
        game = dimsum.make(args.game, **options)
    except (ValueError, TypeError) as e:
        parser.error(str(e))
    if args.seat >= game.players:
        parser.error(f"--seat {args.seat}: the seats are 0 to {game.players - 1}")
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    bots, names = _bots(parser, game, args.bots, args.seat, seed)

    from dimsum.play import FileClock, Session, Terminal, WallClock

    clock_file = args.fake_clock or os.environ.get(FAKE_CLOCK_ENV)
    clock = FileClock(clock_file) if clock_file else WallClock()
    from dimsum.protocol import close_all

    session = Session(game, seed, args.seat, bots, names, Terminal(), clock, args.record)
    try:
        return session.run()
    except KeyboardInterrupt:  # Ctrl-C while a bot was thinking (the prompt handles its own)
        print("\nInterrupted: you left the game.")
        return 130
    finally:  # external bots' programs: quit, a grace period, then killed; always waited for
        close_all()
