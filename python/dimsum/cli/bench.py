"""Measure the engine's speed (steps/s, bots' moves/s, policy inference, instruction counts) for CI.

    python -m dimsum bench                                  # every game, a table (about 10 s of CPU time)
    python -m dimsum bench --quick --json -                 # a few seconds, JSON on stdout
    python -m dimsum bench --json bench.json                # github-action-benchmark (customBiggerIsBetter)
    python -m dimsum bench --format github-smaller --json bench.json   # customSmallerIsBetter
    python -m dimsum bench --format pytest-benchmark --json 0001_bench.json   # pytest-benchmark compare
    python -m dimsum bench --callgrind --game nice_buns     # + instructions per step (needs valgrind)

Each game is played with the options its profile benchmarks. A timing is the median over rounds
(each with fresh seeds) with its range, by CPU time (time.process_time) and by the wall clock;
compare CPU times on a shared machine. Instruction counts (--callgrind) do not depend on the
machine's load: they are the figures to gate a pull request on (docs/BENCH.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import List, Optional

import dimsum
from dimsum.cli.args import at_least


def _parser() -> argparse.ArgumentParser:
    from dimsum.bench.formats import FORMATS

    parser = argparse.ArgumentParser(prog="python -m dimsum bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", choices=dimsum.games(), metavar="NAME",
                        help=f"measure this game only (repeatable; default every game: {', '.join(dimsum.games())})")
    parser.add_argument("--quick", action="store_true", help="small workloads: a few seconds in all (tests, smoke checks)")
    parser.add_argument("--rounds", type=at_least(1), default=None,
                        help="rounds of each timing, each with fresh seeds (default 5; 3 with --quick)")
    parser.add_argument("--seed", type=at_least(0), default=0, help="the first round's seed (default 0)")
    parser.add_argument("--callgrind", action="store_true",
                        help="also count instructions per step under valgrind (slow: a minute or two a game)")
    parser.add_argument("--counts-only", action="store_true", help="instruction counts only, no timings (implies --callgrind)")
    parser.add_argument("--json", metavar="FILE", default=None,
                        help="write the results as JSON to FILE ('-': stdout; the table then goes to stderr)")
    parser.add_argument("--format", choices=FORMATS, default=None,
                        help="the JSON's format (default github-bigger; needs --json)")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    from dimsum.bench import formats, instructions, suite

    parser = _parser()
    args = parser.parse_args(argv)
    if args.format is not None and args.json is None:
        parser.error("--format chooses the JSON's format: give --json FILE (or --json - for stdout) with it")
    callgrind = args.callgrind or args.counts_only
    if callgrind and not instructions.available():
        parser.error("--callgrind needs valgrind, which is not on the PATH (apt-get install valgrind)")
    fmt = args.format or "github-bigger"
    if args.counts_only and fmt != "github-smaller":
        parser.error("--counts-only writes instruction counts, which only --format github-smaller holds")
    mode = "quick" if args.quick else "full"
    rounds = args.rounds or (3 if args.quick else 5)
    report = sys.stderr if args.json == "-" else sys.stdout

    what = "instruction counts" if args.counts_only else f"{mode}, {rounds} rounds" + (", instruction counts" if callgrind else "")
    print(f"dimsum {dimsum.__version__} bench ({what})", file=report, flush=True)
    results = suite.run(args.game, mode, rounds, args.seed, callgrind=callgrind, times=not args.counts_only,
                        progress=formats.write_progress)
    print(formats.table(results), file=report, flush=True)
    if args.json is None:
        return 0
    text = json.dumps(formats.render(results, fmt, dimsum.__version__), indent=1) + "\n"
    if args.json == "-":
        sys.stdout.write(text)
        return 0
    from pathlib import Path

    from dimsum._files import write_atomically

    try:
        write_atomically(Path(args.json), text)
    except OSError as e:
        print(f"python -m dimsum bench: error: cannot write {args.json!r}: {e}", file=sys.stderr)
        return 1
    print(f"wrote {args.json} ({fmt})", file=report)
    return 0
