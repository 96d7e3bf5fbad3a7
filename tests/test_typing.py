"""The public API describes itself and is typed: dimsum.options and game.option_specs list what
each game declares; the stubs (_core.pyi, _batch.pyi) name only what exists at runtime, and the
runtime classes nothing the stubs omit; make's overloads give each game its class; examples/
runs and passes ``mypy --strict`` and pyright, and every mistake planted in
tests/typing/planted_mistakes.py is rejected by both."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Set

import pytest
from needs import need_module
import processes

import dimsum
from dimsum import _batch, _core
from dimsum._common import COMMON_OPTIONS

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(dimsum.__file__).resolve().parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
PLANTED = ROOT / "tests" / "typing" / "planted_mistakes.py"
NEEDS = re.compile(r"^# needs: (?P<modules>[\w., ]+)$", re.M)


def _env() -> Dict[str, str]:
    """The environment of a subprocess that must import the same dimsum as this process."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PACKAGE.parent), env.get("PYTHONPATH", "")) if p)
    return env


# ---------------------------------------------------------------------------------------------
# dimsum.options and game.option_specs

@pytest.mark.parametrize("name", dimsum.games())
def test_options_lists_what_the_game_declares_then_the_common_options(name):
    declared = importlib.import_module(f"dimsum.games.{name}").OPTIONS
    specs = dimsum.options(name)
    assert [o.name for o in specs] == [*declared, *COMMON_OPTIONS]
    assert all(isinstance(o, dimsum.OptionSpec) for o in specs)
    assert specs[: len(declared)] == tuple(declared.values())  # the declarations themselves, not copies
    assert dimsum.make(name).option_specs == specs


@pytest.mark.parametrize("name", dimsum.games())
def test_every_option_default_is_accepted_and_documented(name):
    game = dimsum.make(name, **{o.name: o.default for o in dimsum.options(name)})
    for o in dimsum.options(name):
        assert o.doc.strip(), f"{name} option {o.name} has no doc"
        assert o.choices is not None or o.kind is not None, f"{name} option {o.name} says nothing of its values"
        assert o.name in game.options


def test_an_option_spec_is_frozen():
    spec = dimsum.options("yum_cha")[0]
    assert dataclasses.is_dataclass(spec)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.default = 5  # type: ignore[misc]


def test_options_of_an_unknown_game_names_the_closest():
    with pytest.raises(ValueError, match="did you mean 'yum_cha'"):
        dimsum.options("yumcha")
    with pytest.raises(TypeError, match="a game name is a str"):
        dimsum.options(3)  # type: ignore[arg-type]


def test_help_of_make_points_to_the_games_and_their_options():
    """help(dimsum.make) does not list the games by hand (a new game would be missing): it points
    to dimsum.games() and dimsum.options(name)."""
    doc = dimsum.make.__doc__ or ""
    assert "dimsum.games()" in doc and "dimsum.options(name)" in doc


# ---------------------------------------------------------------------------------------------
# make's overloads and the stubs against the runtime

def _make_overloads() -> Dict[str, str]:
    """Game name -> the class make's overload promises for it (from __init__.py's source)."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    promised = {}
    for node in tree.body:
        if not (isinstance(node, ast.FunctionDef) and node.name == "make"
                and any(isinstance(d, ast.Name) and d.id == "overload" for d in node.decorator_list)):
            continue
        annotation = node.args.args[0].annotation
        if isinstance(annotation, ast.Subscript) and ast.unparse(annotation.value) == "Literal":
            names = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
            for n in names:
                promised[ast.literal_eval(n)] = ast.unparse(node.returns)
    return promised


def test_make_overloads_are_generated_from_the_registry():
    """The block of make's overloads in __init__.py is what the registry generates: every timed
    game's name (and only those) gives a TimedGame; the rest fall through to Game."""
    from dimsum import _typing_overloads

    expected = _typing_overloads.make_overloads()
    assert _typing_overloads.current_block(PACKAGE / "__init__.py") == expected, (
        "make's overloads in dimsum/__init__.py are out of date; put this between the markers:\n" + expected)


def test_make_overloads_give_every_game_the_class_make_returns():
    promised = _make_overloads()
    for name in dimsum.games():
        cls = promised.get(name, "Game")  # a name no Literal overload names falls through to Game
        assert type(dimsum.make(name)).__name__ == cls, f"make({name!r}) is not a {cls} as its overloads say"
    assert set(promised) <= set(dimsum.games()), "make's Literal overloads name a game that is not registered"


def _stub_members(stub: Path) -> Dict[str, Set[str]]:
    """Class name -> the members its stub declares (own ones; "" holds the module's functions)."""
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    members: Dict[str, Set[str]] = {"": set()}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            members[""].add(node.name)
        elif isinstance(node, ast.ClassDef):
            own = members.setdefault(node.name, set())
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    own.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    own.add(item.target.id)
    return members


def _stub_bases(stub: Path) -> Dict[str, List[str]]:
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    return {n.name: [ast.unparse(b) for b in n.bases] for n in tree.body if isinstance(n, ast.ClassDef)}


def _with_inherited(members: Dict[str, Set[str]], bases: Dict[str, List[str]], cls: str) -> Set[str]:
    out = set(members[cls])
    for base in bases.get(cls, []):
        if base in members:
            out |= _with_inherited(members, bases, base)
    return out


def _runtime_classes() -> Dict[str, List[type]]:
    """Each stubbed class and the runtime classes it describes: a timed game's state class may be
    its package's STATE_CLASS, so TimedState is checked against each timed game's."""
    timed_states = [type(g.new_state(0)) for g in map(dimsum.make, dimsum.games()) if isinstance(g, _core.TimedGame)]
    assert timed_states, "no timed game is registered: the TimedState stub describes nothing"
    return {"Game": [_core.Game], "State": [_core.State], "TimedGame": [_core.TimedGame], "TimedState": timed_states,
            "Clock": [_core.Clock],
            "_BatchEnv": [_batch._BatchEnv], "IllegalAction": [_batch.IllegalAction], "PolicyNet": [_batch.PolicyNet]}


def _public(cls: type) -> Set[str]:
    """The public names of ``cls`` not inherited from a built-in type (ValueError's args ...)."""
    builtin = set().union(*(dir(b) for b in cls.__mro__ if b.__module__ == "builtins"))
    return {n for n in dir(cls) if not n.startswith("_")} - builtin


@pytest.mark.parametrize("stub, module", [("_core.pyi", _core), ("_batch.pyi", _batch)])
def test_every_stub_member_exists_at_runtime_and_every_public_runtime_member_is_stubbed(stub, module):
    members, bases = _stub_members(PACKAGE / stub), _stub_bases(PACKAGE / stub)
    runtime = _runtime_classes()
    problems = [f"{module.__name__}.{f} is in {stub} but not at runtime" for f in members[""] if not hasattr(module, f)]
    for cls in (c for c in members if c):
        declared = _with_inherited(members, bases, cls)
        for target in runtime[cls]:
            problems += [f"{cls}.{m} is in {stub} but not on {target.__name__}" for m in sorted(declared)
                         if m not in ("__init__",) and not hasattr(target, m)]
            problems += [f"{target.__name__}.{m} exists but {stub} does not declare it" for m in
                         sorted(_public(target) - declared)]
    assert not problems, "\n".join(problems)


def test_the_stub_check_sees_a_member_the_runtime_lacks(tmp_path):
    stub = tmp_path / "x.pyi"
    stub.write_text("class State:\n    def observatoin(self) -> None: ...\n    size: int\n", encoding="utf-8")
    declared = _stub_members(stub)["State"]
    assert declared == {"observatoin", "size"} and not hasattr(_core.State, "observatoin")


def test_the_package_is_marked_typed_and_exports_its_types():
    assert (PACKAGE / "py.typed").is_file()
    for name in ("BatchEnv", "Game", "State", "TimedGame", "TimedState", "Slice", "OptionSpec", "Outcome"):
        assert name in dir(dimsum) and name in dimsum.__all__ and isinstance(getattr(dimsum, name), type)


# ---------------------------------------------------------------------------------------------
# examples/, mypy and pyright

def test_there_are_examples():
    assert {p.stem for p in EXAMPLES} >= {"random_agent", "batch_env", "pettingzoo_env", "gymnasium_env",
                                          "openspiel_game", "bots"}


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(example, tmp_path):
    declared = NEEDS.search(example.read_text(encoding="utf-8"))
    for module in declared["modules"].split(",") if declared else ():
        need_module(module.strip())
    run = processes.run([sys.executable, str(example)], cwd=tmp_path, env=_env(), capture_output=True, text=True,
                        timeout=120)
    assert run.returncode == 0, f"{example.name} failed:\n{run.stderr[-3000:]}"
    assert run.stdout.strip(), f"{example.name} printed nothing"


def _mypy(workdir: Path) -> "subprocess.Popen[str]":
    """mypy --strict over examples/ and the planted mistakes, in one run (a run costs seconds); the
    paths are relative, so that the ``path:line: error:`` lines have no drive letter's colon."""
    return processes.start([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(workdir / "cache"),
                             "--config-file", "pyproject.toml", *(str(p.relative_to(ROOT)) for p in (*EXAMPLES, PLANTED))],
                           cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _mypy_errors(run: "subprocess.Popen[str]", stdout: str, stderr: str) -> Dict[str, object]:
    assert run.returncode in (0, 1), f"mypy did not run:\n{stdout}\n{stderr}"
    errors: Dict[str, Set[int]] = {}
    found = list(re.finditer(r"^(?P<file>[^:\n]+\.py):(?P<line>\d+): error:", stdout, re.M))
    assert len(found) == stdout.count(": error:"), f"mypy error lines this test cannot read:\n{stdout}"
    for m in found:
        errors.setdefault(Path(m["file"]).name, set()).add(int(m["line"]))
    return {"by_file": {f: sorted(lines) for f, lines in errors.items()}, "output": stdout}


def _pyright(workdir: Path) -> "subprocess.Popen[str]":
    """pyright (basedpyright) in its "standard" mode over the same files: its strict mode also
    flags every call into the untyped frameworks the adapter examples use."""
    config = workdir / "pyrightconfig.json"
    config.write_text(json.dumps({"typeCheckingMode": "standard", "pythonVersion": "3.10"}), encoding="utf-8")
    return processes.start([sys.executable, "-m", "basedpyright", "--project", str(config), "--pythonpath",
                             sys.executable, "--outputjson", *map(str, EXAMPLES), str(PLANTED)],
                           cwd=workdir, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _pyright_errors(run: "subprocess.Popen[str]", stdout: str, stderr: str) -> Dict[str, object]:
    assert run.returncode in (0, 1) and stdout.lstrip().startswith("{"), f"pyright did not run:\n{stdout}\n{stderr}"
    report = json.loads(stdout)
    assert report["summary"]["filesAnalyzed"] == len(EXAMPLES) + 1, report["summary"]
    errors: Dict[str, Set[int]] = {}
    for d in report["generalDiagnostics"]:
        if d["severity"] == "error":
            errors.setdefault(Path(d["file"]).name, set()).add(d["range"]["start"]["line"] + 1)
    output = "\n".join(f"{Path(d['file']).name}:{d['range']['start']['line'] + 1}: {d['message']}"
                       for d in report["generalDiagnostics"])
    return {"by_file": {f: sorted(lines) for f, lines in errors.items()}, "output": output}


CHECKS = {"mypy": ("mypy", _mypy, _mypy_errors), "pyright": ("basedpyright", _pyright, _pyright_errors)}


class CheckRuns:
    """The checkers started side by side (on 2 cores); ``errors(name)`` waits for one's result:
    {"by_file": {file name: sorted lines with an error}, "output": the checker's report}."""

    def __init__(self, workdir: Path) -> None:
        self.runs: Dict[str, "subprocess.Popen[str]"] = {}
        self.results: Dict[str, Dict[str, object]] = {}
        try:
            for name, (module, start, _) in CHECKS.items():
                try:
                    importlib.import_module(module)
                except ImportError:
                    continue  # its tests skip (or fail under DIMSUM_REQUIRE_ALL=1) through need_module
                (workdir / name).mkdir()
                self.runs[name] = start(workdir / name)
        except BaseException:  # the one already started does not outlive a failed start
            self.stop()
            raise

    def errors(self, name: str) -> Dict[str, object]:
        need_module(CHECKS[name][0])
        if name not in self.results:
            run = self.runs[name]
            stdout, stderr = run.communicate(timeout=300)
            self.results[name] = CHECKS[name][2](run, stdout, stderr)
        return self.results[name]

    def stop(self) -> None:
        for name, run in self.runs.items():
            processes.stop(run)  # with what it started (basedpyright runs node)
            if name not in self.results:
                run.communicate()  # closes its pipes


@pytest.fixture(scope="module")
def type_check_runs(tmp_path_factory):
    runs = CheckRuns(tmp_path_factory.mktemp("type_checks"))
    try:
        yield runs
    finally:
        runs.stop()


CHECKERS = list(CHECKS)


@pytest.mark.parametrize("checker", CHECKERS)
def test_examples_pass_the_type_checker(checker, type_check_runs):
    errors = type_check_runs.errors(checker)
    in_examples = {f: lines for f, lines in errors["by_file"].items() if f != PLANTED.name}
    assert not in_examples, errors["output"]


@pytest.mark.parametrize("checker", CHECKERS)
def test_the_type_checker_rejects_every_planted_mistake_and_nothing_else(checker, type_check_runs):
    errors = type_check_runs.errors(checker)
    lines = PLANTED.read_text(encoding="utf-8").split("\n")
    planted = [i + 1 for i, line in enumerate(lines) if "# planted:" in line]
    assert len(planted) >= 10
    reported = errors["by_file"].get(PLANTED.name, [])
    missed = [f"line {n}: {lines[n - 1].strip()}" for n in planted if n not in reported]
    assert not missed, f"{checker}: planted mistakes accepted:\n" + "\n".join(missed)
    unplanned = [n for n in reported if n not in planted]
    assert not unplanned, f"{checker}: errors on lines with no planted mistake: {unplanned}\n{errors['output']}"
