"""The generated blocks of a markdown file: the text between ``<!-- figures:NAME -->`` and
``<!-- /figures:NAME -->``, found and replaced by one mechanism for every generator
(benchmarks/figures.py).

The parser is strict on purpose: a marker it does not understand is an error, not text. A typo
(``<!-- figure:goals -->``, ``<!-- figures: goals -->``) would otherwise leave a block that no run
regenerates while the file looks generated, which is how a stale figure survives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict

# Any HTML comment that mentions "figures" must be a well-formed marker: <!-- figures:NAME -->
# or <!-- /figures:NAME -->, NAME of letters, digits and underscores, one space inside each end.
COMMENT = re.compile(r"<!--(.*?)-->", re.S)
MARKER = re.compile(r"^ (/?)figures:([a-z][a-z0-9_]*) $")


class BlockError(ValueError):
    """A file's markers are not a set of well-formed, closed, non-nested, uniquely named pairs."""


@dataclass(frozen=True)
class Block:
    name: str
    start: int  # offset just after the opening marker
    end: int    # offset of the closing marker
    line: int   # the opening marker's line, 1-based

    def text(self, document: str) -> str:
        return document[self.start:self.end]


def _line(document: str, offset: int) -> int:
    return document.count("\n", 0, offset) + 1


def blocks(document: str, where: str = "<text>") -> Dict[str, Block]:
    """Every block of ``document`` by name; BlockError (naming ``where`` and the line) if a
    figures marker is malformed, unclosed, closed without being opened, closed under another
    name, nested in another block, or a name is used twice."""
    found: Dict[str, Block] = {}
    open_name, open_end, open_line = None, 0, 0
    for comment in COMMENT.finditer(document):
        inside = comment.group(1)
        if "figures" not in inside:
            continue  # another comment (<!-- needs: ... -->): not ours
        line = _line(document, comment.start())
        marker = MARKER.match(inside)
        if marker is None:
            raise BlockError(f"{where}:{line}: malformed figures marker {comment.group(0)!r} "
                             "(expected '<!-- figures:NAME -->' or '<!-- /figures:NAME -->')")
        closing, name = marker.group(1) == "/", marker.group(2)
        if not closing:
            if open_name is not None:
                raise BlockError(f"{where}:{line}: block {name!r} opened inside block {open_name!r} "
                                 f"(opened at line {open_line}): blocks do not nest")
            if name in found:
                raise BlockError(f"{where}:{line}: block {name!r} appears twice (first at line {found[name].line})")
            open_name, open_end, open_line = name, comment.end(), line
        else:
            if open_name is None:
                raise BlockError(f"{where}:{line}: closing marker for {name!r} with no block open")
            if name != open_name:
                raise BlockError(f"{where}:{line}: closing marker for {name!r} inside block {open_name!r} "
                                 f"(opened at line {open_line})")
            found[name] = Block(name, open_end, comment.start(), open_line)
            open_name = None
    if open_name is not None:
        raise BlockError(f"{where}:{open_line}: block {open_name!r} is never closed "
                         f"(no '<!-- /figures:{open_name} -->' after it)")
    return found


def normalized(markdown: str) -> str:
    """A block's content as it is stored: a blank line after the opening marker and before the
    closing one, so that the markdown inside renders as its own paragraphs and tables."""
    return "\n\n" + markdown.strip("\n") + "\n\n"


def replace(document: str, name: str, markdown: str, where: str = "<text>") -> str:
    """``document`` with block ``name``'s text replaced by ``markdown`` (the markers kept)."""
    block = blocks(document, where).get(name)
    if block is None:
        raise BlockError(f"{where}: no block {name!r}")
    return document[:block.start] + normalized(markdown) + document[block.end:]
