"""One command for the figures of docs/PERFORMANCE.md and README.md: runs every registered
generator (benchmarks/figure_generators.py) and rewrites the text between
``<!-- figures:NAME -->`` and ``<!-- /figures:NAME -->`` with what it measured, ending in a
provenance line (UTC date, commit, rounds, the load average and the other processes' CPU).

    PYTHONPATH=python python -m benchmarks.figures                  # every generator: many minutes
    PYTHONPATH=python python -m benchmarks.figures --only goals threads --rounds 5
    python -m benchmarks.figures --list                             # the generators and what each wraps
    python -m benchmarks.figures --check                            # fast, measures nothing (CI, tests)

``--check`` runs no benchmark: every marker pair in the two files is well formed, closed, not
nested and names a registered generator, every generator has a block, and the blocks of the
deterministic generators (read from committed files, e.g. the perf guard's baselines) are what
they would generate now. The text outside the markers is never touched: a figure quoted there is
not regenerated, so the documents point at the blocks instead of quoting them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Dict, List, Optional

from .figure_blocks import BlockError, blocks, normalized, replace
from .figure_generators import GENERATORS, Generator
from .figure_provenance import ROOT

DOCUMENTS = (ROOT / "docs" / "PERFORMANCE.md", ROOT / "README.md")


def check_texts(texts: Dict[str, str], generators: Dict[str, Generator] = GENERATORS) -> List[str]:
    """The problems of documents given as {where: text} (empty: all is well): see the module's
    docstring. Pure, so that a test can plant broken markers without touching a file."""
    problems: List[str] = []
    seen: Dict[str, List[str]] = {}
    unreadable = False
    for where, text in texts.items():
        try:
            found = blocks(text, where)
        except BlockError as e:
            problems.append(str(e))
            unreadable = True
            continue
        for name, block in found.items():
            seen.setdefault(name, []).append(where)
            if name not in generators:
                problems.append(f"{where}:{block.line}: block {name!r} names no registered generator "
                                f"(registered: {', '.join(sorted(generators))})")
            elif generators[name].deterministic and block.text(text) != normalized(generators[name].make(None)):
                problems.append(f"{where}:{block.line}: block {name!r} is stale: "
                                f"`python -m benchmarks.figures --only {name}` regenerates it")
    for name in sorted(set(generators) - set(seen)) if not unreadable else ():  # else: the blocks are unknown
        problems.append(f"generator {name!r} has no block in {', '.join(texts)}: "
                        f"add '<!-- figures:{name} -->' and '<!-- /figures:{name} -->' where its figures belong")
    return problems


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def check(documents=DOCUMENTS) -> List[str]:
    return check_texts({relative(p): p.read_text(encoding="utf-8") for p in documents})


def regenerate(names: List[str], rounds: Optional[int], documents=DOCUMENTS) -> None:
    """Runs each generator and writes its block wherever it appears, one generator at a time (a
    generator that fails leaves the blocks written before it)."""
    for path in documents:  # broken or unknown markers stop the run before any benchmark runs
        try:
            unknown = sorted(set(blocks(path.read_text(encoding="utf-8"), relative(path))) - set(GENERATORS))
        except BlockError as e:
            raise SystemExit(f"figures: {e}")
        if unknown:
            raise SystemExit(f"figures: {relative(path)} has blocks no generator makes: {', '.join(unknown)}")
    for name in names:
        generator = GENERATORS[name]
        markdown = generator.make(rounds if rounds is not None and generator.rounds is not None else generator.rounds)
        print(f"<!-- figures:{name} -->\n{markdown}\n<!-- /figures:{name} -->\n", flush=True)
        for path in documents:
            text = path.read_text(encoding="utf-8")
            if name in blocks(text, relative(path)):
                path.write_text(replace(text, name, markdown, relative(path)), encoding="utf-8")
                print(f"figures: wrote {name} in {relative(path)}", file=sys.stderr)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=sorted(GENERATORS), metavar="NAME",
                        help="these generators only (default: all)")
    parser.add_argument("--rounds", type=int, default=None,
                        help="rounds for the generators that take them (default: each one's own)")
    parser.add_argument("--list", action="store_true", help="list the generators and what each wraps")
    parser.add_argument("--check", action="store_true", help="check the markers and the deterministic blocks; "
                                                             "measure nothing")
    args = parser.parse_args(argv)
    if args.rounds is not None and args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.list:
        for name, g in GENERATORS.items():
            kind = "deterministic" if g.deterministic else (f"{g.rounds} rounds" if g.rounds else "one run")
            print(f"{name} ({kind}): {g.doc}")
        return 0
    if args.check:
        problems = check()
        for p in problems:
            print(p, file=sys.stderr)
        print(f"figures --check: {len(GENERATORS)} generators, {'OK' if not problems else f'{len(problems)} problems'}")
        return 1 if problems else 0
    regenerate(args.only or list(GENERATORS), args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
