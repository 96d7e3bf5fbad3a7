"""Skips for tests that need a real component (a framework, a browser, tmux, Ray), which fail instead
when DIMSUM_REQUIRE_ALL=1 (CI sets it, having installed every component): a skip in CI would be a
check that cannot fail."""

import importlib
import os

import pytest

REQUIRE_ALL = os.environ.get("DIMSUM_REQUIRE_ALL") == "1"


def need(available: bool, what: str) -> None:
    """Skips the calling test (or module) when ``available`` is false; fails under DIMSUM_REQUIRE_ALL=1."""
    if available:
        return
    if REQUIRE_ALL:
        pytest.fail(f"{what} is required (DIMSUM_REQUIRE_ALL=1) but missing", pytrace=False)
    pytest.skip(f"{what} is not available", allow_module_level=True)


def need_module(name: str):
    """The imported module ``name``; a skip (or a failure under DIMSUM_REQUIRE_ALL=1) without it."""
    try:
        return importlib.import_module(name)
    except ImportError:
        need(False, f"the Python module {name!r}")
