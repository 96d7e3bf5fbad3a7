"""The documentation runs: every ```python block of README.md and docs/**/*.md is executed as a
whole program, and every link in them points inside the repository.

Conventions for writers of docs (checked here):
- A block fenced ```python is run as it stands, alone, in a subprocess whose working directory
  is an empty temporary directory: it imports what it uses and makes what it needs, with sizes
  small enough to run in about a second. Anything that is not a whole program (a signature, a
  shell line, a schema, output) is fenced as ```text, ```bash, ... instead. Every fence names
  its language, so that no Python hides in an unlabelled block.
- A block that needs an optional framework declares it in an HTML comment on the line right
  before its fence: ``<!-- needs: pyspiel -->`` (several: ``<!-- needs: pettingzoo, gymnasium -->``);
  ``command:NAME`` names a program that must be on PATH (``<!-- needs: command:tmux -->``).
  Without it the block is skipped (tests/needs.py: a failure under DIMSUM_REQUIRE_ALL=1).
- Links are relative paths to files of the repository (or web addresses); the rulebooks and
  the research notes, which the repository does not hold, are cited by name and section
  ("Yum Cha rulebook, 'Scoring'"), never linked.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List, Tuple

import pytest
from needs import need, need_module
import processes

import dimsum

ROOT = Path(__file__).resolve().parent.parent
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# dimsum as this test process imports it: the checkout's python/ or the installed wheel
DIMSUM_HOME = str(Path(dimsum.__file__).resolve().parent.parent)

FENCE = re.compile(r"^(?P<indent>\s*)(?P<ticks>`{3,}|~{3,})(?P<lang>[^\s`]*)")
NEEDS = re.compile(r"^\s*<!--\s*needs:\s*(?P<modules>[\w.,:\s-]+?)\s*-->\s*$")
LINK = re.compile(r"(?<!\\)\[[^\]]*\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)|^\s*\[[^\]]+\]:\s*(?P<ref>\S+)", re.M)
# An address with a scheme (https:, mailto:) leaves the repository by design: it is not a file.
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int          # the fence's line, 1-based
    lang: str
    code: str
    needs: Tuple[str, ...]

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> List[Block]:
    """The fenced blocks of one Markdown file, with the modules each declares it needs."""
    lines = path.read_text(encoding="utf-8").split("\n")
    out = []
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, ticks = opening["indent"], opening["ticks"]
        end = i + 1
        while end < len(lines) and not re.match(rf"^\s*{re.escape(ticks)}\s*$", lines[end]):
            end += 1
        assert end < len(lines), f"{path.relative_to(ROOT)}:{i + 1}: a fence that is never closed"
        body = "\n".join(line[len(indent):] if line.startswith(indent) else line for line in lines[i + 1:end])
        needs_line = NEEDS.match(lines[i - 1]) if i else None
        needs = tuple(m.strip() for m in needs_line["modules"].split(",")) if needs_line else ()
        out.append(Block(path, i + 1, opening["lang"], body + "\n", needs))
        i = end + 1
    return out


ALL_BLOCKS = [b for path in DOC_FILES for b in blocks(path)]
PYTHON_BLOCKS = [b for b in ALL_BLOCKS if b.lang == "python"]


def test_the_docs_have_python_blocks_to_run():
    assert len(PYTHON_BLOCKS) >= 5, [b.where for b in ALL_BLOCKS]


def test_every_fence_names_its_language():
    unnamed = [b.where for b in ALL_BLOCKS if not b.lang]
    assert not unnamed, f"fences without a language (use ```text for what is not code): {unnamed}"
    aliases = [b.where for b in ALL_BLOCKS if b.lang.lower() in ("py", "python3", "pycon", "ipython", "Python")]
    assert not aliases, f"Python fenced under another name (use ```python, which is run): {aliases}"


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=lambda b: b.where)
def test_python_block_runs_as_a_whole_program(block, tmp_path):
    for what in block.needs:
        if what.startswith("command:"):
            need(shutil.which(what[len("command:"):]) is not None, f"the program {what[len('command:'):]!r}")
        else:
            need_module(what)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (DIMSUM_HOME, env.get("PYTHONPATH", "")) if p)
    env["PYTHONHASHSEED"] = "0"
    script = tmp_path / "block.py"
    script.write_text(block.code, encoding="utf-8")
    run = processes.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                        timeout=120)
    assert run.returncode == 0, f"{block.where} failed:\n{block.code}\n--- stderr:\n{run.stderr[-3000:]}"


def links(path: Path) -> List[Tuple[int, str]]:
    """(line, target) of every Markdown link outside code blocks (inline and reference style)."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    for b in blocks(path):  # blank out code blocks: `[x](y)` in code is not a link
        end = b.line + len(b.code.split("\n")) - 1
        for k in range(b.line, min(end, len(lines))):
            lines[k] = ""
    text = "\n".join(lines)
    return [(text.count("\n", 0, m.start()) + 1, m["target"] or m["ref"]) for m in LINK.finditer(text)]


@pytest.mark.parametrize("path", DOC_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_point_to_files_in_the_repository(path):
    bad = []
    for line, target in links(path):
        if SCHEME.match(target) or target.startswith("#"):
            continue
        file_part = target.split("#", 1)[0]
        resolved = (path.parent / file_part).resolve()
        if "shared/" in target or ROOT not in (resolved, *resolved.parents):
            bad.append(f"line {line}: {target} leaves the repository (cite the rulebook by section instead)")
        elif not resolved.exists():
            bad.append(f"line {line}: {target} does not exist")
    assert not bad, f"{path.relative_to(ROOT)}:\n" + "\n".join(bad)


def test_the_link_check_sees_links_outside_the_repository_and_not_in_code(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("See [RESEARCH](../../shared/rules/RESEARCH.md).\n\n```text\n[r](nowhere.md)\n```\n"
                    "[ref]: ../x.md\n", encoding="utf-8")
    assert links(page) == [(1, "../../shared/rules/RESEARCH.md"), (6, "../x.md")]


def test_a_block_reads_what_it_needs_from_the_comment_before_its_fence(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("<!-- needs: pyspiel, command:tmux -->\n```python\nprint(1)\n```\n\n```text\nplain\n```\n",
                    encoding="utf-8")
    first, second = blocks(page)
    assert (first.lang, first.line, first.code, first.needs) == ("python", 2, "print(1)\n", ("pyspiel", "command:tmux"))
    assert (second.lang, second.needs) == ("text", ())
