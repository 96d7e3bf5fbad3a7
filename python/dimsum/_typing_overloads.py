"""``dimsum.make``'s typing overloads, generated from the registry.

A type checker cannot ask the compiled registry which names give a ``TimedGame``, so
``dimsum/__init__.py`` spells them out between ``# <generated: make overloads>`` markers; this
module writes that block from ``dimsum.games()`` and tests/test_typing.py checks the two agree.
Only timed games are named: any other name falls through to ``make(name: str) -> Game``, so a
new game without a clock needs no edit there.
"""

from __future__ import annotations

from pathlib import Path

BEGIN = "# <generated: make overloads>\n"
END = "# </generated: make overloads>\n"


def make_overloads() -> str:
    """The block between the markers, for the games compiled into this build."""
    import dimsum
    from dimsum import _core

    timed = [name for name in dimsum.games() if isinstance(dimsum.make(name), _core.TimedGame)]
    lines = []
    if timed:
        names = ", ".join(f'"{name}"' for name in timed)
        lines += ["@overload", f"def make(name: Literal[{names}], **options: Any) -> TimedGame: ..."]
    lines += ["@overload", "def make(name: str, **options: Any) -> Game: ..."]
    return "\n".join(lines) + "\n"


def current_block(init_py: Path) -> str:
    """The block as written in ``init_py`` (``dimsum/__init__.py``)."""
    text = init_py.read_text(encoding="utf-8")
    return text[text.index(BEGIN) + len(BEGIN):text.index(END)]
