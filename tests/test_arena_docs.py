"""Every ```python block of docs/ARENA.md and docs/DISTRIBUTED.md runs as a whole program, and the
arena's pages are linked from the README."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("ARENA.md", "DISTRIBUTED.md")
BLOCKS = [(page, i, code) for page in PAGES
          for i, code in enumerate(re.findall(r"```python\n(.*?)```", (ROOT / "docs" / page).read_text(), re.S))]


@pytest.mark.parametrize("page, number, code", BLOCKS, ids=[f"{p}-{i}" for p, i, _ in BLOCKS])
def test_the_python_examples_of_the_arena_pages_run(page, number, code, capsys):
    exec(compile(code, f"docs/{page} block {number}", "exec"), {"__name__": "__main__"})
    assert capsys.readouterr().out, f"docs/{page} block {number} shows nothing"


def test_the_readme_links_the_arena_pages():
    readme = (ROOT / "README.md").read_text()
    for page in PAGES:
        assert f"(docs/{page})" in readme
