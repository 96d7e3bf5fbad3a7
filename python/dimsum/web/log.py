"""The move log and the legend of the table page, from the views' shared mechanisms.

A seat's log is ``dimsum.play.events`` (the words the terminal, the MCP view and the ``llm`` prompt
use, built from the seat's own information state); the legend is ``dimsum.play.legend`` (what each
game declares its components mean), with a line for the page's own buttons.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

from .. import CHANCE
from ..play.events import events_between
from ..play.legend import legend as game_legend


def seat_events(before: Any, after: Any, seat: Optional[int], action: Optional[int]) -> List[str]:
    """The log lines seat ``seat`` reads for the step from ``before`` to ``after`` (``action``
    played by ``before``'s player, or None when only time passed): what the seat saw happen, its
    own draws and every complaint with its cause among them.

    A spectator (``seat`` None) sits in no seat, so no seat's information state is its own: it is
    told what every seat is told, the moves by name (public in every game here) and the end."""
    if seat is not None:
        return events_between(before, after, seat)
    lines = []
    if action is not None and before.current_player != CHANCE:
        lines.append(f"seat {before.current_player}: {before.action_name(action)}")
    if after.is_terminal and not before.is_terminal:
        lines.append(f"Game over: {after.outcome.description}")
    return lines


def legend(game: Any) -> List[Tuple[str, str]]:
    """What the components on the table mean, as the game declares them (Yum Cha's tiers and teas,
    Dim Sum Jam's token codes, ...), and the page's buttons."""
    return list(game_legend(game)) + [("glowing button", "a legal move: click it to play it")]
