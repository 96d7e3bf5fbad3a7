"""Golden playthroughs: a readable seeded game per registered game (its profile's golden options), compared line by line, so that any
change of behaviour, naming or display shows up in review. Regenerate on purpose with
DIMSUM_REGENERATE_GOLDEN=1 python -m pytest tests/test_golden_playthroughs.py"""

import os
from pathlib import Path

import pytest

import dimsum
from dimsum.testing import playthrough, profile

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", dimsum.games())
def test_golden_playthrough(name):
    text = playthrough(dimsum.make(name, **profile(name).golden), seed=2026, max_steps=40)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("DIMSUM_REGENERATE_GOLDEN") == "1":
        path.write_text(text)
    assert path.exists(), f"no golden file {path}; regenerate with DIMSUM_REGENERATE_GOLDEN=1"
    expected = path.read_text().splitlines()
    for i, (got, want) in enumerate(zip(text.splitlines(), expected)):
        assert got == want, f"{path.name} line {i + 1} differs:\n  got:  {got}\n  want: {want}"
    assert len(text.splitlines()) == len(expected), f"{path.name}: the playthrough changed length"


@pytest.mark.parametrize("name", dimsum.games())
def test_reference_engine_gives_the_same_playthrough(name):
    """The golden file is not the core's private output: the reference engine writes it too."""
    import dimsum.reference

    import re

    golden = (GOLDEN / f"{name}.txt").read_text().split("\n", 1)[1]
    reference = playthrough(dimsum.reference.make(name, **profile(name).golden), seed=2026, max_steps=40).split("\n", 1)[1]
    assert reference == re.sub(r", hash [0-9a-f]{16}", "", golden)
