"""Pictures of game states as SVG: ``state.to_svg(player=None)`` and Jupyter's ``_repr_svg_``.

``to_svg(state, None)`` draws the whole table, every hidden card face up; ``to_svg(state, p)``
draws exactly what seat ``p`` may see (hidden cards face down), from ``state.observation(p)``
and what is public, so two states that ``p`` cannot tell apart give ``p`` the same picture.
Each game draws itself: ``draw(state, seat, names)`` in its package's ``picture`` module
(``dimsum.games.<name>.picture``), built on the shared builder :mod:`dimsum.render.svg`; see
docs/PICTURES.md.
"""

from __future__ import annotations

import importlib
from typing import Any, List, Optional, Sequence

__all__ = ["to_svg", "svg_pieces", "check_player"]


def check_player(state: Any, player: Optional[int]) -> Optional[int]:
    """``player`` as a seat of ``state``'s game, or None (the whole table); TypeError or
    ValueError saying what is allowed otherwise."""
    if player is None:
        return None
    players = state.game.players
    if isinstance(player, bool) or not hasattr(player, "__index__"):
        raise TypeError(f"to_svg: player must be None (the whole table) or a seat 0..{players - 1}, "
                        f"got {type(player).__name__}")
    seat = player.__index__()
    if not 0 <= seat < players:
        raise ValueError(f"to_svg: player must be None (the whole table) or a seat 0..{players - 1}, got {seat}")
    return seat


def to_svg(state: Any, player: Optional[int] = None, names: Optional[Sequence[str]] = None) -> str:
    """The SVG picture of ``state`` (a str): the whole table, or seat ``player``'s view.

    ``names``: optional player names by seat (a record's players), shown next to the seats."""
    return str(_draw(state, player, names))


def svg_pieces(state: Any, player: Optional[int] = None, names: Optional[Sequence[str]] = None) -> List[str]:
    """``to_svg``'s text cut into its zones (``"".join(pieces) == to_svg(...)``): a replay page
    stores each distinct zone once."""
    return _draw(state, player, names).pieces()


def _draw(state: Any, player: Optional[int], names: Optional[Sequence[str]]) -> Any:
    seat = check_player(state, player)
    name = state.game.name  # check_player has read state.game
    try:
        module = importlib.import_module(f"dimsum.games.{name}.picture")
    except ModuleNotFoundError as e:
        if e.name != f"dimsum.games.{name}.picture":
            raise
        raise ValueError(f"to_svg: the game {name!r} declares no picture (dimsum/games/{name}/picture.py)") from None
    return module.draw(state, seat, names)
