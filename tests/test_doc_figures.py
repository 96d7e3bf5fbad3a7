"""The generated figure blocks of docs/PERFORMANCE.md and README.md (benchmarks/figures.py): the
committed documents pass ``--check`` (markers and registry agree, the deterministic blocks are
current), and the marker parser refuses what would let a block silently stop being regenerated."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import figures  # the project root is on sys.path (pyproject's pythonpath)
from benchmarks.figure_blocks import BlockError, blocks, replace
from benchmarks.figure_generators import GENERATORS

ROOT = Path(__file__).resolve().parent.parent

GOOD = "intro\n<!-- figures:goals -->\nold table\n<!-- /figures:goals -->\noutro\n"


def test_the_committed_documents_pass_the_check():
    assert figures.check() == []


def test_every_generator_says_what_it_wraps():
    for name, generator in GENERATORS.items():
        assert "python" in generator.doc, f"{name}'s docstring names no command"


def test_replace_rewrites_only_the_inside_of_its_block():
    out = replace(GOOD, "goals", "| new | table |")
    assert out == "intro\n<!-- figures:goals -->\n\n| new | table |\n\n<!-- /figures:goals -->\noutro\n"
    assert replace(out, "goals", "| new | table |") == out  # idempotent: a re-run changes nothing


@pytest.mark.parametrize("document, message", [
    ("<!-- figures:goals -->\ntext\n", "never closed"),
    ("text\n<!-- /figures:goals -->\n", "no block open"),
    ("<!-- figures:goals -->\n<!-- figures:threads -->\n<!-- /figures:threads -->\n<!-- /figures:goals -->\n",
     "do not nest"),
    ("<!-- figures:goals -->\n<!-- /figures:threads -->\n", "inside block 'goals'"),
    ("<!-- figures:goals -->a<!-- /figures:goals -->\n<!-- figures:goals -->b<!-- /figures:goals -->\n", "twice"),
    ("<!-- figures: goals -->\n<!-- /figures:goals -->\n", "malformed"),
    ("<!--figures:goals-->\n<!-- /figures:goals -->\n", "malformed"),
    ("<!-- figures:Goals -->\n<!-- /figures:Goals -->\n", "malformed"),
    ("<!-- figures:goals extra -->\n<!-- /figures:goals -->\n", "malformed"),
])
def test_broken_markers_are_refused_with_the_line(document, message):
    with pytest.raises(BlockError, match=message):
        blocks("line one\n" + document, "doc.md")
    with pytest.raises(BlockError, match=r"doc\.md:\d+"):
        blocks("line one\n" + document, "doc.md")


def test_the_check_refuses_an_unknown_block_a_missing_one_and_a_broken_file():
    texts = {"a.md": GOOD + "<!-- figures:no_such_generator -->x<!-- /figures:no_such_generator -->\n"}
    problems = figures.check_texts(texts, {"goals": GENERATORS["goals"], "threads": GENERATORS["threads"]})
    assert any("'no_such_generator' names no registered generator" in p for p in problems)
    assert any("generator 'threads' has no block" in p for p in problems)
    unclosed = figures.check_texts({"a.md": "<!-- figures:goals -->\n"}, {"goals": GENERATORS["goals"]})
    assert len(unclosed) == 1 and "never closed" in unclosed[0]


def test_the_check_finds_a_stale_deterministic_block():
    path = ROOT / "docs" / "PERFORMANCE.md"
    text = path.read_text(encoding="utf-8")
    stale = replace(text, "perf_baseline", "| game | hand-edited |")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    problems = figures.check_texts({"PERFORMANCE.md": stale, "README.md": readme})
    assert len(problems) == 1 and "'perf_baseline' is stale" in problems[0]


def test_a_run_with_broken_markers_stops_before_measuring(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("<!-- figures:goals -->\nunclosed\n")
    with pytest.raises(SystemExit, match="never closed"):
        figures.regenerate(["goals"], 1, documents=(doc,))
    assert doc.read_text() == "<!-- figures:goals -->\nunclosed\n"
