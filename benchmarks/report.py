"""One markdown table of what the benchmarks measured, as ratios side by side from one run.

    python -m benchmarks.report [-k EXPR] [--out benchmarks/REPORT.md]

Runs the pytest-benchmark suites once, then prints (and writes) per game: ns per step for each
engine, ns per call for each API function, and ratios against the reference engine and any peer
that was measured in the same run (peers are benchmarks whose name starts with test_peer_).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path


def run_benchmarks(expr: str) -> list:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench.json"
        cmd = [sys.executable, "-m", "pytest", str(Path(__file__).parent), "-q", "-p", "no:cacheprovider",
               f"--benchmark-json={out}"]
        if expr:
            cmd += ["-k", expr]
        subprocess.run(cmd, check=True)
        return json.loads(out.read_text())["benchmarks"]


def ns_per_unit(bench: dict) -> float:
    """Median time per step where the benchmark says how many steps a call made, else per call."""
    median = bench["stats"]["median"] * 1e9
    steps = bench.get("extra_info", {}).get("steps_per_call")
    return median / steps if steps else median


def table(benchmarks: list) -> str:
    per_game = defaultdict(dict)
    for b in benchmarks:
        game = b.get("param") or "?"
        per_game[game][b["name"].split("[")[0].removeprefix("test_")] = ns_per_unit(b)
    lines = []
    for game, rows in sorted(per_game.items()):
        ref = rows.get("reference_random_game")
        lines += [f"### {game}", "", "| measurement | ns per step or call | vs reference | vs C++ playout |",
                  "| --- | ---: | ---: | ---: |"]
        cpp = rows.get("cpp_random_playouts")
        for name, ns in sorted(rows.items(), key=lambda kv: kv[1]):
            vs_ref = f"{ref / ns:,.0f}x faster" if ref and "game" in name or ref and "playout" in name else ""
            vs_cpp = f"{ns / cpp:,.1f}x" if cpp else ""
            lines.append(f"| {name} | {ns:,.1f} | {vs_ref} | {vs_cpp} |")
        lines.append("")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-k", default="", help="pytest -k expression selecting benchmarks")
    parser.add_argument("--out", default=str(Path(__file__).with_name("REPORT.md")))
    args = parser.parse_args(argv)
    text = "# dimsum benchmark report\n\n" + table(run_benchmarks(args.k))
    print(text)
    Path(args.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
