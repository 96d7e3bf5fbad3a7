"""Test-only C++ programs over the core headers (built by the tests, never shipped)."""
