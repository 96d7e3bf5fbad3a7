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
    info = bench.get("extra_info", {})
    units = info.get("steps_per_call") or info.get("games_per_call")
    return median / units if units else median


def peer_of(game: str):
    """The peer doing the nearest work to our ``game`` (its profile's ``peer``), or None."""
    import dimsum
    from dimsum.testing import profile

    return profile(game).peer if game in dimsum.games() else None


def batch_table(benchmarks: list) -> str:
    """Env steps per second of every batched benchmark (ours and EnvPool's), best round."""
    rows = []
    for b in benchmarks:
        env_steps = b.get("extra_info", {}).get("env_steps_per_round")
        if env_steps:
            rows.append((b.get("group") or "", b["name"].removeprefix("test_"), env_steps / b["stats"]["min"]))
    if not rows:
        return ""
    lines = ["### Batched stepping (env steps per second, best round)", "",
             "| group | benchmark | steps/s |", "| --- | --- | ---: |"]
    lines += [f"| {g} | {n} | {v:,.0f} |" for g, n, v in sorted(rows)]
    return "\n".join(lines) + "\n"


def table(benchmarks: list) -> str:
    ours = defaultdict(dict)
    peers = defaultdict(dict)
    for b in benchmarks:
        if b.get("extra_info", {}).get("env_steps_per_round"):
            continue  # batched: see batch_table
        name = b["name"].split("[")[0].removeprefix("test_")
        group = b.get("group") or ""
        if group.startswith("peer:"):
            label = name + (" +obs" if b.get("extra_info", {}).get("with_observation") else "")
            peers[group.removeprefix("peer:")][label] = ns_per_unit(b)
        elif b.get("param"):
            ours[b["param"].split("-")[0]][name] = ns_per_unit(b)
    lines = []
    for game, rows in sorted(ours.items()):
        ref, cpp = rows.get("reference_random_game"), rows.get("cpp_random_playouts")
        lines += [f"### {game}", "", "| measurement | ns per step or call | reference / this | this / C++ playout |",
                  "| --- | ---: | ---: | ---: |"]
        for name, ns in sorted(rows.items(), key=lambda kv: kv[1]):
            vs_ref = f"{ref / ns:,.0f}x" if ref and ("game" in name or "playout" in name) else ""
            vs_cpp = f"{ns / cpp:,.1f}x" if cpp else ""
            lines.append(f"| {name} | {ns:,.1f} | {vs_ref} | {vs_cpp} |")
        peer = peer_of(game)
        if peer in peers:
            py, cc = rows.get("python_api_random_game"), rows.get("cpp_random_playouts")
            lines += ["", f"Peer on the nearest work: OpenSpiel/RLCard **{peer}** (ns per step; per game for bots)", "",
                      "| peer measurement | ns | peer / ours (Python loop) | peer / ours (C++ playout) |",
                      "| --- | ---: | ---: | ---: |"]
            py_obs = rows.get("python_api_random_game_with_observation")
            for name, ns in sorted(peers[peer].items()):
                ours_py = py_obs if name.endswith("+obs") and py_obs else py
                lines.append(f"| {name} | {ns:,.1f} | {ns / ours_py:,.1f}x | {ns / cc:,.1f}x |" if ours_py and cc and
                             "bots" not in name else f"| {name} | {ns:,.1f} | | |")
        lines.append("")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-k", default="", help="pytest -k expression selecting benchmarks")
    parser.add_argument("--out", default=str(Path(__file__).with_name("REPORT.md")))
    args = parser.parse_args(argv)
    benchmarks = run_benchmarks(args.k)
    text = "# dimsum benchmark report\n\n" + table(benchmarks) + "\n" + batch_table(benchmarks)
    print(text)
    Path(args.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
