"""Fixtures shared by every test: one rule test runs against both engines. And the end-of-session
check that the tests leave no program running (tests/processes.py)."""

import pytest

import dimsum
import dimsum.reference
from processes import pytest_sessionfinish, pytest_sessionstart, pytest_terminal_summary  # noqa: F401  (hooks)

ENGINES = ("reference", "core")


def make_game(engine: str, name: str, **options):
    if engine == "reference":
        return dimsum.reference.make(name, **options)
    return dimsum.make(name, **options)


@pytest.fixture(params=ENGINES)
def engine(request):
    """``engine("yum_cha", players=3)`` builds the game with the reference or the core."""

    def make(name, **options):
        return make_game(request.param, name, **options)

    make.kind = request.param
    return make
