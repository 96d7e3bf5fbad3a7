"""The bench's results as text and as JSON that CI tools read:

- ``github-bigger`` and ``github-smaller``: github-action-benchmark's ``customBiggerIsBetter`` and
  ``customSmallerIsBetter`` tools, a list of ``{"name", "unit", "value", "range", "extra"}`` (its
  range is read as ``"± X"``). Bigger: operations a second, by CPU time and by the wall clock.
  Smaller: nanoseconds an operation, and the instruction counts.
- ``pytest-benchmark``: the file ``pytest-benchmark compare`` reads (``machine_info``,
  ``commit_info``, ``benchmarks`` of ``{group, name, fullname, params, stats, ...}``, ``datetime``,
  ``version``), each round a "round" and its operations the "iterations"; times in seconds.

A timing is two entries, ``NAME [cpu]`` and ``NAME [wall]``: the CPU time is the one to compare
on a shared machine, the wall clock shows what a user waits.
"""

from __future__ import annotations

import datetime
import os
import platform
import statistics
import sys
from bisect import bisect_left, bisect_right
from typing import Any, Dict, List, Sequence

from .timing import Count, Timing, summary

FORMATS = ("github-bigger", "github-smaller", "pytest-benchmark")
CLOCKS = ("cpu", "wall")

# the pytest-benchmark file version written (its field "version"); the fields are those of 3.1 on
PYTEST_BENCHMARK_VERSION = "5.1.0"


def _number(x: float) -> float:
    return float(f"{x:.6g}")


def github(results: Sequence[Any], bigger: bool) -> List[Dict[str, Any]]:
    """github-action-benchmark's custom format (the module docstring). Counts are smaller-is-better
    only: ``bigger`` leaves them out."""
    entries = []
    for result in results:
        if isinstance(result, Count):
            if not bigger:
                entries.append({"name": result.name, "unit": result.unit, "value": _number(result.value),
                                "extra": f"{result.description}; one callgrind measurement (independent of the load)"})
            continue
        for clock in CLOCKS:
            values = result.rates(clock) if bigger else [s * 1e9 for s in result.seconds_per_op(clock)]
            s = summary(values)
            entries.append({
                "name": f"{result.name} [{clock}]",
                "unit": f"{result.op}s/s" if bigger else f"ns/{result.op}",
                "value": _number(s["median"]),
                "range": f"± {_number((s['max'] - s['min']) / 2)}",
                "extra": (f"median of {len(values)} rounds (min {_number(s['min'])}, max {_number(s['max'])}), "
                          f"{result.ops[0]} {result.op}s a round, {clock} time; {result.description}"),
            })
    return entries


def _quartiles(data: List[float]) -> tuple:
    """(q1, q3) as pytest-benchmark computes them (its Stats: Wikipedia's methods 3 and 2)."""
    n = len(data)
    if n == 1:
        return data[0], data[0]
    if n % 2:
        k, q = n // 4, n % 4
        if q == 1:
            return 0.25 * data[k - 1] + 0.75 * data[k], 0.75 * data[3 * k] + 0.25 * data[3 * k + 1]
        return 0.75 * data[k] + 0.25 * data[k + 1], 0.25 * data[3 * k + 1] + 0.75 * data[3 * k + 2]
    return statistics.median(data[: n // 2]), statistics.median(data[n // 2:])


def _stats(per_op: List[float], iterations: int) -> Dict[str, Any]:
    """pytest-benchmark's ``stats`` of rounds taking ``per_op`` seconds an iteration."""
    data = sorted(per_op)
    mean = statistics.mean(data)
    stddev = statistics.stdev(data) if len(data) > 1 else 0.0
    q1, q3 = _quartiles(data)
    iqr = q3 - q1
    stddev_outliers = sum(1 for x in data if x < mean - stddev or x > mean + stddev)
    iqr_outliers = sum(1 for x in data if x < q1 - 1.5 * iqr or x > q3 + 1.5 * iqr)
    high = bisect_right(data, q3 + 1.5 * iqr)
    return {
        "min": data[0], "max": data[-1], "mean": mean, "stddev": stddev, "rounds": len(data),
        "median": statistics.median(data), "iqr": iqr, "q1": q1, "q3": q3,
        "iqr_outliers": iqr_outliers, "stddev_outliers": stddev_outliers,
        "outliers": f"{stddev_outliers};{iqr_outliers}",
        "ld15iqr": data[bisect_left(data, q1 - 1.5 * iqr)] if len(data) > 1 else data[0],
        "hd15iqr": data[min(high, len(data) - 1)] if len(data) > 1 else data[0],
        "ops": 1.0 / mean, "total": sum(data) * iterations, "iterations": iterations,
        "data": list(per_op),
    }


def machine_info() -> Dict[str, Any]:
    """The machine, with pytest-benchmark's keys (its machine_info, without the CPU's details)."""
    return {
        "node": platform.node(), "processor": platform.processor(), "machine": platform.machine(),
        "python_compiler": platform.python_compiler(), "python_implementation": platform.python_implementation(),
        "python_implementation_version": platform.python_version(), "python_version": platform.python_version(),
        "python_build": list(platform.python_build()), "release": platform.release(), "system": platform.system(),
        "cpu": {"count": os.cpu_count()},
    }


def pytest_benchmark(results: Sequence[Any], version: str) -> Dict[str, Any]:
    """pytest-benchmark's saved-run format (the module docstring); counts are not times and are
    left out. ``version``: dimsum's, kept in each benchmark's ``extra_info``."""
    benchmarks = []
    for result in results:
        if not isinstance(result, Timing):
            continue
        for clock in CLOCKS:
            benchmarks.append({
                "group": result.name, "name": f"{result.name}[{clock}]",
                "fullname": f"dimsum bench::{result.name}[{clock}]",
                "params": {"clock": clock}, "param": clock,
                "extra_info": {"dimsum": version, "operation": result.op, "description": result.description},
                "options": {"timer": "time.process_time" if clock == "cpu" else "time.perf_counter",
                            "disable_gc": False, "warmup": False, "min_rounds": len(result.ops)},
                "stats": _stats(result.seconds_per_op(clock), result.ops[0]),
            })
    # the commit is the caller's (CI sets GITHUB_SHA); dimsum cannot know which one it is
    commit = os.environ.get("GITHUB_SHA")
    return {
        "machine_info": machine_info(),
        "commit_info": {"id": commit, "dirty": None, "project": "dimsum-bench"} if commit else {},
        "benchmarks": benchmarks,
        "datetime": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "version": PYTEST_BENCHMARK_VERSION,
    }


def render(results: Sequence[Any], fmt: str, version: str) -> Any:
    """The JSON document of ``results`` in ``fmt`` (one of FORMATS)."""
    if fmt == "pytest-benchmark":
        return pytest_benchmark(results, version)
    if fmt in ("github-bigger", "github-smaller"):
        return github(results, bigger=fmt == "github-bigger")
    raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")


def table(results: Sequence[Any]) -> str:
    """A text table: each timing's median rate by CPU time and by the wall clock, with the range
    over rounds; each count."""
    lines = [f"{'workload':34} {'per second (CPU)':>18} {'range over rounds':>22} {'per second (wall)':>18}"]
    for result in results:
        if isinstance(result, Count):
            lines.append(f"{result.name:34} {result.value:18,.1f} {result.unit}")
            continue
        cpu, wall = summary(result.rates("cpu")), summary(result.rates("wall"))
        spread = f"{cpu['min']:,.0f}..{cpu['max']:,.0f}"
        lines.append(f"{result.name:34} {cpu['median']:18,.0f} {spread:>22} {wall['median']:18,.0f} {result.op}s")
    return "\n".join(lines)


def write_progress(line: str) -> None:
    print(f"  {line}", file=sys.stderr, flush=True)
