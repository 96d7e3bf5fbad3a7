"""dimsum: fast, exact engines for three dim-sum tabletop games.

    import dimsum
    game = dimsum.make("yum_cha", players=4)
    state = game.new_state(seed=7)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])

See docs/ARCHITECTURE.md for the contract and docs/RULES.md for every rule and ruling.
"""

from __future__ import annotations

from typing import Any, Tuple

from ._common import TERMINAL, IllegalActionError
from ._version import __version__
from .games import GAMES


def games() -> Tuple[str, ...]:
    """The names ``make`` accepts."""
    return GAMES


def make(name: str, **options: Any):
    """The C++ engine of game ``name`` with validated rule options (unknown ones are refused)."""
    from . import _core  # imported here so that `import dimsum` stays cheap

    return _core.make(name, **options)


__all__ = ["IllegalActionError", "TERMINAL", "__version__", "games", "make"]
