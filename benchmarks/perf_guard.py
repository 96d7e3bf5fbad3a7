"""The throughput guard CI can trust on a noisy shared machine.

Two checks, both deterministic:

1. **Bench signature**: a SHA-256 over fixed seeded games of every game (C++ playouts and
   games driven through the per-move API). It changes only when behaviour changes; a change
   on purpose is recorded with ``--update``.
2. **Instruction counts**: each fixed workload runs under ``valgrind --tool=callgrind`` twice,
   at size N and at size 0, and the difference (the workload alone, without interpreter
   start-up and imports) is divided by the number of game steps. Instruction counts do not
   depend on what else the machine is doing (PYTHONHASHSEED is pinned). A count more than
   ``--margin`` above the committed baseline fails; one well below it is reported so the
   baseline can be tightened with ``--update``. The workloads and the counting are
   dimsum.bench.instructions, shared with ``python -m dimsum bench --callgrind`` (docs/BENCH.md).

The committed baseline is one file per game, ``benchmarks/perf_baseline/<name>.json`` (its bench
signature and its instruction counts), so that adding a game adds a file and edits none.
``--baseline`` also takes a single ``.json`` file holding every game (a scratch baseline).

    python benchmarks/perf_guard.py --quick      # what .ci/run runs
    python benchmarks/perf_guard.py --update     # record a new baseline (commit the JSON files)
    python benchmarks/perf_guard.py --quick --update --game nice_buns   # one game's entries only

Instruction counts depend on the compiler and the Python version, so the committed baseline
holds for machines like this project's. Elsewhere (GitHub's runners, bench.yml) the workflow
measures the base commit first into a scratch baseline (``--update --baseline base.json``) and
then the change against it (``--baseline base.json``); the bench signature does not depend on
the machine and is always checked against the committed file (``--signature-only``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import random
import sys
from pathlib import Path

if __package__:  # python -m benchmarks.perf_guard
    from .workloads import CONFIGS
else:  # python benchmarks/perf_guard.py: this folder is on sys.path
    from workloads import CONFIGS


def _instructions():
    """The instruction-count code, dimsum.bench.instructions: the installed package's, or for an
    installed dimsum that predates it (bench.yml measures the base commit with this guard) the
    checkout's file, which imports nothing of dimsum."""
    try:
        from dimsum.bench import instructions
    except ImportError:
        import importlib.util

        path = Path(__file__).resolve().parent.parent / "python" / "dimsum" / "bench" / "instructions.py"
        spec = importlib.util.spec_from_file_location("dimsum_bench_instructions", path)
        instructions = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(instructions)
    return instructions


instructions = _instructions()
BASELINE = Path(__file__).with_name("perf_baseline")  # a folder: <name>.json per game
SIZES = instructions.SIZES  # games per workload run, by mode

# -- signature ----------------------------------------------------------------------------------

def signature(name: str) -> str:
    import dimsum

    game = dimsum.make(name, **CONFIGS[name])
    h = hashlib.sha256()
    returns, lengths = dimsum.random_playouts(game, 200, seed=12345)
    h.update(returns.astype("<f8").tobytes())
    h.update(lengths.astype("<i8").tobytes())
    rng = random.Random(99)
    for seed in range(10):
        state = game.new_state(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        h.update(state.to_bytes())
    return h.hexdigest()


# -- instruction counts (dimsum.bench.instructions: the same code as python -m dimsum bench --callgrind) --

def per_step(name: str, kind: str, size: int) -> float:
    return instructions.per_step(name, CONFIGS[name], kind, size)


# -- the baseline: one file per game, or one scratch file for all -----------------------------------

def load_baseline(path: Path) -> dict:
    """The baseline as one dict: ``{"signature": {name: sha}, "instructions_per_step": {mode: {"name/kind":
    count}}, "machine": {...}}``, from a single ``.json`` file or merged from a folder of per-game files."""
    if path.suffix == ".json":
        return json.loads(path.read_text()) if path.exists() else {}
    merged: dict = {"signature": {}, "instructions_per_step": {}}
    for file in sorted(path.glob("*.json")) if path.is_dir() else []:
        name, entry = file.stem, json.loads(file.read_text())
        if "signature" in entry:
            merged["signature"][name] = entry["signature"]
        for mode, counts in entry.get("instructions_per_step", {}).items():
            merged["instructions_per_step"].setdefault(mode, {}).update(
                {f"{name}/{kind}": value for kind, value in counts.items()})
        merged.setdefault("machine", entry.get("machine"))
    return merged


def save_baseline(path: Path, baseline: dict) -> None:
    """Writes ``baseline`` (load_baseline's form) as one ``.json`` file, or as a file per game."""
    if path.suffix == ".json":
        path.write_text(json.dumps(baseline, indent=1, sort_keys=True) + "\n")
        return
    path.mkdir(exist_ok=True)
    names = set(baseline.get("signature", {}))
    for counts in baseline.get("instructions_per_step", {}).values():
        names |= {key.split("/")[0] for key in counts}
    for name in sorted(names):
        entry: dict = {"machine": baseline.get("machine")}
        if name in baseline.get("signature", {}):
            entry["signature"] = baseline["signature"][name]
        per_mode = {mode: {key.split("/", 1)[1]: value for key, value in counts.items() if key.split("/")[0] == name}
                    for mode, counts in baseline.get("instructions_per_step", {}).items()}
        entry["instructions_per_step"] = {mode: counts for mode, counts in per_mode.items() if counts}
        (path / f"{name}.json").write_text(json.dumps(entry, indent=1, sort_keys=True) + "\n")


# -- main ----------------------------------------------------------------------------------------

def machine() -> dict:
    return {"python": platform.python_version(), "machine": platform.machine(), "system": platform.system()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small workloads (CI)")
    parser.add_argument("--update", action="store_true", help="write the measured values as the new baseline")
    parser.add_argument("--margin", type=float, default=0.05, help="allowed instruction-count growth (0.05 = 5%%)")
    parser.add_argument("--baseline", type=Path, default=BASELINE,
                        help="the baseline to compare with or write: a folder of <name>.json (the committed one) or "
                             "one .json file for every game")
    parser.add_argument("--signature-only", action="store_true", help="check the bench signatures only")
    parser.add_argument("--counts-only", action="store_true", help="check the instruction counts only")
    parser.add_argument("--game", action="append", choices=list(CONFIGS), metavar="NAME",
                        help="measure only this game (repeatable); with --update the other games' entries "
                             "are kept as they are")
    args = parser.parse_args(argv)
    mode = "quick" if args.quick else "full"
    baseline = load_baseline(args.baseline)
    if not args.signature_only and not instructions.available():
        print("perf_guard: valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2

    failures = []
    # per-step counts depend on which games a workload plays, so quick and full keep their own
    games = args.game or list(CONFIGS)

    def others(entries: dict) -> dict:
        """The entries of the games not measured now (--game): --update keeps them as they are."""
        return {k: v for k, v in entries.items() if k.split("/")[0] not in games}

    counts = baseline.get("instructions_per_step", {})
    measured = {"machine": machine(), "signature": others(baseline.get("signature", {})),
                "instructions_per_step": dict(counts, **{mode: others(counts.get(mode, {}))})}
    print(f"{'workload':32} {'instr/step':>12} {'baseline':>12} {'ratio':>7}")
    for name in games:  # every registered game (or those of --game), its profile's bench options
        sig = signature(name)
        measured["signature"][name] = sig
        expected = baseline.get("signature", {}).get(name)
        if args.counts_only:
            pass
        elif expected is None:
            failures.append(f"{name}: no bench signature in the baseline (run --update)")
        elif expected != sig:
            failures.append(f"{name}: bench signature changed ({sig[:12]} != {expected[:12]}): behaviour changed; "
                            "if on purpose, run --update and commit")
        for kind, size in ([] if args.signature_only else SIZES[mode].items()):
            key = f"{name}/{kind}"
            value = per_step(name, kind, size)
            measured["instructions_per_step"][mode][key] = round(value, 1)
            ref = baseline.get("instructions_per_step", {}).get(mode, {}).get(key)
            ratio = value / ref if ref else float("nan")
            print(f"{key:32} {value:12.1f} {ref or float('nan'):12.1f} {ratio:7.3f}")
            if ref is None:
                failures.append(f"{key}: no instruction baseline (run --update)")
            elif value > ref * (1 + args.margin):
                failures.append(f"{key}: {value:.0f} instructions/step, {100 * (ratio - 1):.1f}% over the baseline "
                                f"{ref:.0f} (margin {100 * args.margin:.0f}%)")
            elif value < ref * (1 - 2 * args.margin):
                print(f"  note: {key} is {100 * (1 - ratio):.1f}% below its baseline; --update to tighten it")

    if args.update:
        save_baseline(args.baseline, measured)
        print(f"wrote {args.baseline}")
        return 0
    if failures:
        print("\nperf_guard FAILED:\n  " + "\n  ".join(failures))
        return 1
    print("\nperf_guard: signatures unchanged, instruction counts within the margin")
    return 0


if __name__ == "__main__":
    sys.exit(main())
