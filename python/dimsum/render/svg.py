"""A small SVG builder shared by the three games' pictures: escaping, shapes, text and the few
composite pieces every picture uses (a labelled panel, a count badge, a banner).

Output is deterministic: elements are written in the order they are added, numbers are
rounded to one decimal place and written without trailing zeros, and nothing depends on the
clock, the locale or dict order. The picture is self-contained: generic font families only
(``sans-serif``, ``monospace``), every shape drawn in SVG, no external reference.
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Sequence, Tuple

FONT = "sans-serif"
INK = "#2b2118"          # text and outlines
PAPER = "#fbf6ec"        # the background, a tablecloth
MUTED = "#8a7f72"        # secondary text
HIGHLIGHT = "#d9480f"    # whose turn it is, the required table

# XML's five special characters escaped; the control characters XML 1.0 forbids dropped
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
                          **{chr(c): None for c in range(32) if chr(c) not in "\t\n\r"}})
_ATTR_NAMES: dict = {}  # python keyword -> SVG attribute name ("stroke_width" -> "stroke-width")


def esc(text: object) -> str:
    """``text`` made safe for SVG text and attribute values (XML's five special characters).
    Characters XML 1.0 forbids (control characters) are dropped."""
    return str(text).translate(_ESCAPES)


def num(value: float) -> str:
    """A coordinate as short, deterministic text: one decimal place at most."""
    if type(value) is int:
        return str(value)
    r = round(float(value), 1)
    if r == int(r):
        return str(int(r))
    return f"{r:.1f}"


def _attrs(attrs: dict) -> str:
    parts = []
    for key, value in attrs.items():  # insertion order: callers pass attributes in a fixed order
        if value is None:
            continue
        name = _ATTR_NAMES.get(key)
        if name is None:
            name = _ATTR_NAMES[key] = key.rstrip("_").replace("_", "-")
        kind = type(value)
        text = num(value) if kind is int or kind is float else esc(value)
        parts.append(f' {name}="{text}"')
    return "".join(parts)


class Svg:
    """An SVG document built element by element; ``str(svg)`` is the document."""

    def __init__(self, width: float, height: float, title: str = "") -> None:
        self.width = width
        self.height = height
        self.title = title
        self._chunks: List[List[str]] = [[]]

    # -- primitives --------------------------------------------------------------------------
    def add(self, tag: str, text: Optional[str] = None, **attrs: object) -> None:
        if text is None:
            self._chunks[-1].append(f"<{tag}{_attrs(attrs)}/>")
        else:
            self._chunks[-1].append(f"<{tag}{_attrs(attrs)}>{esc(text)}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: Optional[str] = INK,
             rx: float = 0, stroke_width: float = 1, **attrs: object) -> None:
        self.add("rect", x=x, y=y, width=w, height=h, rx=rx or None, fill=fill, stroke=stroke,
                 stroke_width=stroke_width if stroke else None, **attrs)

    def circle(self, cx: float, cy: float, r: float, fill: str = "none", stroke: Optional[str] = INK,
               stroke_width: float = 1, **attrs: object) -> None:
        self.add("circle", cx=cx, cy=cy, r=r, fill=fill, stroke=stroke,
                 stroke_width=stroke_width if stroke else None, **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK, stroke_width: float = 1,
             **attrs: object) -> None:
        self.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=stroke_width, **attrs)

    def polygon(self, points: Iterable[Tuple[float, float]], fill: str = "none", stroke: Optional[str] = INK,
                stroke_width: float = 1, **attrs: object) -> None:
        text = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        self.add("polygon", points=text, fill=fill, stroke=stroke,
                 stroke_width=stroke_width if stroke else None, **attrs)

    def path(self, d: str, fill: str = "none", stroke: Optional[str] = INK, stroke_width: float = 1,
             **attrs: object) -> None:
        self.add("path", d=d, fill=fill, stroke=stroke, stroke_width=stroke_width if stroke else None, **attrs)

    def text(self, x: float, y: float, content: object, size: float = 12, fill: str = INK,
             anchor: str = "start", weight: Optional[str] = None, family: Optional[str] = None,
             **attrs: object) -> None:
        self.add("text", str(content), x=x, y=y, font_size=size, fill=fill,
                 text_anchor=None if anchor == "start" else anchor, font_weight=weight,
                 font_family=family, **attrs)

    def open_group(self, **attrs: object) -> None:
        self._chunks[-1].append(f"<g{_attrs(attrs)}>")

    def close_group(self) -> None:
        self._chunks[-1].append("</g>")

    def zone(self) -> None:
        """Starts a new zone of the table (a seat, the centre, the dice): what follows, up to the
        next zone, is one of ``pieces()``. A replay page stores each distinct piece once
        (dimsum.cli.replay), and most zones do not change from one step to the next."""
        if self._chunks[-1]:
            self._chunks.append([])

    # -- composite pieces shared by the games -----------------------------------------------
    def panel(self, x: float, y: float, w: float, h: float, label: str, fill: str = "#ffffff",
              stroke: str = "#c9bba5", label_fill: str = MUTED, stroke_width: float = 1) -> None:
        """A rounded box with a small caption in its top-left corner: a new zone of the table."""
        self.zone()
        self.rect(x, y, w, h, fill=fill, stroke=stroke, rx=8, stroke_width=stroke_width)
        if label:
            self.text(x + 8, y + 14, label, size=11, fill=label_fill, weight="bold")

    def badge(self, x: float, y: float, count: int, fill: str = INK, color: str = "#ffffff") -> None:
        """A small round count ("x3") at (x, y), for several identical pieces drawn once."""
        self.circle(x, y, 8, fill=fill, stroke="#ffffff", stroke_width=1)
        self.text(x, y + 3.5, count, size=9, fill=color, anchor="middle", weight="bold")

    def paragraph(self, x: float, y: float, content: str, size: float = 12, max_chars: int = 120,
                  **attrs: object) -> float:
        """``content`` wrapped at ``max_chars`` characters a line from baseline ``y``; returns the
        y below the last line (so a picture can grow to fit it)."""
        self.zone()
        lines = wrap_words(content, max_chars)
        for i, line in enumerate(lines):
            self.text(x, y + i * size * 1.3, line, size=size, **attrs)
        return y + len(lines) * size * 1.3

    def banner(self, lines: Sequence[str], y: float = 20) -> None:
        """The picture's heading: the first line bold, the others smaller, left-aligned."""
        self.zone()
        for i, line in enumerate(lines):
            self.text(12, y + 18 * i, line, size=15 if i == 0 else 12, weight="bold" if i == 0 else None,
                      fill=INK if i == 0 else MUTED)

    def pieces(self) -> List[str]:
        """The document in pieces: the opening, then one piece a zone, then the closing;
        ``"".join(svg.pieces()) == str(svg)``."""
        return [self._head()] + ["".join(chunk) for chunk in self._chunks if chunk] + ["</svg>"]

    def __str__(self) -> str:
        return "".join(self.pieces())

    def _head(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(self.width)} {num(self.height)}" '
                f'width="{num(self.width)}" height="{num(self.height)}" font-family="{FONT}" role="img">')
        title = f"<title>{esc(self.title)}</title>" if self.title else ""
        background = f'<rect x="0" y="0" width="{num(self.width)}" height="{num(self.height)}" fill="{PAPER}"/>'
        return head + title + background


def wrap_words(content: str, max_chars: int) -> List[str]:
    """Words of ``content`` in lines of at most ``max_chars`` characters (a longer word alone)."""
    lines: List[str] = []
    for word in content.split():
        if lines and len(lines[-1]) + 1 + len(word) <= max_chars:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def wrap(items: Sequence[object], per_row: int) -> List[Sequence[object]]:
    """``items`` cut into rows of ``per_row`` (the last row shorter): a layout helper."""
    per_row = max(1, per_row)
    return [items[i:i + per_row] for i in range(0, len(items), per_row)] or [[]]


def seat_label(seat: int, viewer: Optional[int], names: Optional[Sequence[str]] = None) -> str:
    """"Seat 2", "Seat 2 (you)" in a player's view, or a player's name when the record has one."""
    base = f"Seat {seat}"
    if names is not None and seat < len(names) and names[seat]:
        base += f" · {names[seat]}"
    return base + (" (you)" if viewer == seat else "")
