"""fuzz/: the fuzz targets (docs/FUZZING.md). They import fuzzlib from this directory."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fuzzlib  # noqa: E402


def pytest_terminal_summary(terminalreporter):
    if not fuzzlib.RUNS:
        return
    tr = terminalreporter
    mode = (f"long run, {fuzzlib.LONG_EXAMPLES} examples per target" if fuzzlib.LONG_EXAMPLES
            else "CI budget, derandomized")
    tr.write_sep("-", f"dimsum fuzz targets ({mode})")
    for target, n in sorted(fuzzlib.RUNS.items()):
        tr.write_line(f"{n:9d} examples  {target}")
    if fuzzlib.HITS:
        tr.write_line("known findings hit (allow-listed in fuzz/fuzzlib.py, xfail in tests/test_validator_findings.py):")
        for name, n in sorted(fuzzlib.HITS.items()):
            tr.write_line(f"{n:9d}  {name}")
            for sample in fuzzlib.SAMPLES.get(name, []):
                tr.write_line(f"             e.g. {sample[:300]}")
    else:
        tr.write_line("no known finding was hit")
