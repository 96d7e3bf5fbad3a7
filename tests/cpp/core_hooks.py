"""The ``core_hooks`` fixture: tests/cpp/core_hooks.cpp built once per test session.

The C++ core's test hooks (the RNG's known answers, the tick clock's checks and script driver)
live in that small program rather than in the shipped extension modules. It is compiled with
the system C++ compiler (``$CXX``, else g++, clang++ or c++) into pytest's temporary directory,
and driven through stdin/stdout: one command a line in, one line of JSON out.

Test modules that use it declare ``pytest_plugins = ["cpp.core_hooks"]``.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any, Iterable, List, Sequence, Tuple

import pytest

import processes
from benchmarks.cxx import find_compiler  # noqa: F401  (also the tests' import of it, from here)

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "core_hooks.cpp"
INCLUDE = HERE.parent.parent / "src"  # the C++ core's headers: src/dimsum_core/...


def build_check(out_dir: Path, source: Path, games: Sequence[str]) -> Path:
    """Compiles the C++ check program `source` (tests/cpp/) with the rules of `games` (their
    src/dimsum_core/<game>/*.cpp) into `out_dir`; returns the executable. Skips without a
    compiler or outside a source checkout; a build that fails fails the test with its output."""
    compiler = find_compiler()
    if compiler is None:
        pytest.skip(f"no C++ compiler ($CXX, g++, clang++ or c++) to build tests/cpp/{source.name}")
    if not (INCLUDE / "dimsum_core").is_dir():
        pytest.skip(f"the C++ sources are not here ({INCLUDE}): the check needs a source checkout")
    executable = out_dir / (source.stem + (".exe" if sys.platform == "win32" else ""))
    sources = sorted(str(p) for game in games for p in (INCLUDE / "dimsum_core" / game).glob("*.cpp"))
    build = [*compiler, "-std=c++20", "-O1", "-Wall", "-Wextra", "-Wpedantic", "-I", str(INCLUDE), str(source),
             *sources, "-o", str(executable)]
    done = processes.run(build, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"{shlex.join(build)}:\n{done.stdout}{done.stderr}", pytrace=False)
    return executable


class CoreHooks:
    """Runs commands through the built program (see core_hooks.cpp for the commands)."""

    def __init__(self, executable: Path) -> None:
        self.executable = executable

    def run(self, commands: Iterable[str]) -> List[Any]:
        """One parsed JSON answer per command; a command the program refuses raises ValueError."""
        commands = list(commands)
        done = processes.run([str(self.executable)], input="".join(c + "\n" for c in commands),
                             capture_output=True, text=True, check=True)
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(answers) == len(commands), done.stdout + done.stderr
        for answer in answers:
            if isinstance(answer, dict) and "error" in answer:
                raise ValueError(answer["error"])
        return answers

    def rng_vectors(self, seed: int, n: int, bounds: Sequence[int], counts: Sequence[int]) -> dict:
        """The C++ RNG's outputs from ``seed`` (the known-answer tests of tests/test_rng.py)."""
        numbers = [seed, n, len(bounds), *bounds, len(counts), *counts]
        return self.run(["rng_vectors " + " ".join(str(int(x)) for x in numbers)])[0]

    def clock_checks(self) -> List[str]:
        """The names of the failing C++ TickClock checks (empty: all pass)."""
        return self.run(["clock_checks"])[0]

    def clock_scripts(self, scripts: Sequence[Tuple[int, int, bool, Sequence[Tuple[int, int]]]]
                      ) -> List[List[Tuple[int, int, bool, bool]]]:
        """Runs each (capacity, top, lying, ops) script on a C++ TickClock; for each, the
        (result, top, lying, ran_out) after every op."""
        commands = []
        for capacity, top, lying, ops in scripts:
            words = [capacity, top, int(bool(lying)), len(ops)] + [int(x) for op in ops for x in op]
            commands.append("clock_script " + " ".join(str(int(w)) for w in words))
        return [[tuple(row) for row in answer] for answer in self.run(commands)]


@pytest.fixture(scope="session")
def core_hooks(tmp_path_factory) -> CoreHooks:
    compiler = find_compiler()
    if compiler is None:
        pytest.skip("no C++ compiler ($CXX, g++, clang++ or c++) to build tests/cpp/core_hooks.cpp")
    if not (INCLUDE / "dimsum_core").is_dir():
        pytest.skip(f"the C++ sources are not here ({INCLUDE}): tests/cpp needs a source checkout")
    executable = tmp_path_factory.mktemp("core_hooks") / ("core_hooks.exe" if sys.platform == "win32" else "core_hooks")
    build = [*compiler, "-std=c++20", "-O1", "-Wall", "-Wextra", "-Wpedantic", "-I", str(INCLUDE), str(SOURCE),
             "-o", str(executable)]
    done = processes.run(build, capture_output=True, text=True)  # the compiler, in its own session
    if done.returncode != 0:
        pytest.fail(f"{shlex.join(build)} failed:\n{done.stdout}{done.stderr}", pytrace=False)
    return CoreHooks(executable)
