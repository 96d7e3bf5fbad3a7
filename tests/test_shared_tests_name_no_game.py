"""Shared tests name no game: a test that runs over every registered game (parametrized over
``dimsum.games()``, or a fixture or loop over them) reads what it needs from the game's declaration
(``dimsum.game_info``, ``dimsum.testing.profile``, the Game itself) and never compares a game's
name to a registered game's: such a comparison is a habit of today's games that a new game breaks.
The shared helper modules (tests/*.py that are not test files) are shared by definition. A test of
one feature may still use one game as its example (``dimsum.make("pig")``): only comparisons count.

An AST scan of tests/*.py; it is shown to fail on planted examples."""

import ast
from pathlib import Path
from typing import Iterator, List, Set

import pytest

import dimsum

TESTS = Path(__file__).resolve().parent
NAMES = frozenset(dimsum.games())


def _calls_games(node: ast.AST) -> bool:
    """Whether ``node`` calls ``games()`` (``dimsum.games()``, ``_core.registered_games()``)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            func = sub.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("games", "registered_games"):
                return True
    return False


def _over_games(node: ast.AST, derived: Set[str]) -> bool:
    """Whether ``node`` is built from the registered games (a call, or a name built from one)."""
    return _calls_games(node) or any(isinstance(s, ast.Name) and s.id in derived for s in ast.walk(node))


def _derived_names(tree: ast.Module) -> Set[str]:
    """Module-level names built from the registered games (GAMES = dimsum.games(), CASES = [...])."""
    derived: Set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None \
                and _over_games(node.value, derived):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            derived |= {t.id for t in targets if isinstance(t, ast.Name)}
    return derived


def _decorator_over_games(function: ast.AST, derived: Set[str]) -> bool:
    for decorator in getattr(function, "decorator_list", []):
        if isinstance(decorator, ast.Call):
            func = decorator.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            values = decorator.args[1:] if name == "parametrize" else \
                [k.value for k in decorator.keywords if k.arg == "params"] if name == "fixture" else []
            if any(_over_games(v, derived) for v in values):
                return True
    return False


def _names_a_game(node: ast.Compare) -> List[str]:
    named = []
    for side in [node.left] + node.comparators:
        items = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
        named += [i.value for i in items if isinstance(i, ast.Constant) and i.value in NAMES]
    return named


def _comparisons(node: ast.AST) -> Iterator[ast.Compare]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Compare) and _names_a_game(sub):
            yield sub


def findings(source: str, filename: str) -> List[str]:
    """Where ``source`` (a test module) special-cases a registered game inside a test over the games."""
    tree = ast.parse(source, filename)
    derived = _derived_names(tree)
    shared_helper = not Path(filename).name.startswith(("test_", "conftest"))
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    fixtures = {f.name for f in functions if _decorator_over_games(f, derived)}
    scopes: List[ast.AST] = [tree] if shared_helper else []
    for f in functions:
        if _decorator_over_games(f, derived) or fixtures & {a.arg for a in f.args.args}:
            scopes.append(f)
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.comprehension)) and _over_games(node.iter, derived):
            scopes.append(node)
    found = set()
    for scope in scopes:
        for compare in _comparisons(scope):
            found.add(f"{filename}:{compare.lineno}: {ast.unparse(compare)} (names {', '.join(_names_a_game(compare))})")
    return sorted(found)


def test_no_test_over_the_games_special_cases_a_game_by_name():
    found = []
    for path in sorted(TESTS.glob("*.py")):
        found += findings(path.read_text(encoding="utf-8"), f"tests/{path.name}")
    assert not found, ("tests that run over every game compare a game's name to one game's: read the fact from "
                       "the declaration (dimsum.game_info, dimsum.testing.profile) instead:\n" + "\n".join(found))


GAME = sorted(NAMES)[0]
PLANTED = {
    "parametrized": f'''
import dimsum, pytest
@pytest.mark.parametrize("name", dimsum.games())
def test_x(name):
    if name == "{GAME}":
        return
''',
    "through a module-level list": f'''
import dimsum, pytest
GAMES = dimsum.games()
CASES = [(n, k) for n in GAMES for k in range(3)]
@pytest.mark.parametrize("name, k", CASES)
def test_x(name, k):
    assert name not in ("{GAME}",)
''',
    "a fixture over the games": f'''
import dimsum, pytest
@pytest.fixture(params=dimsum.games())
def game(request):
    return dimsum.make(request.param)
def test_x(game):
    assert game.name != "{GAME}"
''',
    "a loop": f'''
import dimsum
def test_x():
    for name in dimsum.games():
        skip = name == "{GAME}"
''',
}


@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_the_guard_fails_on_a_planted_special_case(kind):
    found = findings(PLANTED[kind], "tests/test_planted.py")
    assert len(found) == 1 and f"names {GAME}" in found[0], found


def test_the_guard_fails_on_a_shared_helper_that_names_a_game():
    found = findings(f'def check(game):\n    assert game.name == "{GAME}"\n', "tests/planted_checks.py")
    assert len(found) == 1, found


def test_a_test_of_one_feature_may_use_one_game_as_its_example():
    example = f'''
import dimsum
def test_x():
    game = dimsum.make("{GAME}")
    assert game.name == "{GAME}"
'''
    assert findings(example, "tests/test_planted.py") == []


def test_the_shared_training_reward_names_no_game():
    """A training reward is declared by its game's package (dimsum/games/<name>/shaping.py), and
    the shared shaping code reads it generically: no game's name in its string literals."""
    source = (TESTS.parent / "python" / "dimsum" / "baselines" / "shaping.py").read_text(encoding="utf-8")
    named = {n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant) and n.value in NAMES}
    assert not named, named
