"""What a model is shown: its seat's view of the table as text, the legal moves, and the prompt.

Everything here is built from what the seat may see: the game's own seat view
(``dimsum.play.views.view_text``, the terminal player's screen, which reads only that seat's
observation and the public facts) and the legal actions, which are the acting seat's to know.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from ..play.views import view_text
from .parse import legal_names
from .rules import rules_summary

REPLY_RULE = ("Reply with exactly one legal move: its name as listed (case does not matter) or its id, "
              "and nothing else.")


def seat_names(players: int) -> List[str]:
    """Neutral names for the seats (every one ``player``), used where nothing better is known: the
    view shows each seat as ``seat N (player)`` and the viewer's own as ``you``."""
    return ["player"] * players


def moves_text(state: Any) -> str:
    """The legal moves, one a line: ``id: name``."""
    return "\n".join(f"{action}: {name}" for action, name in legal_names(state))


def view(state: Any, seat: int, names: Optional[Sequence[str]] = None, legal: bool = True) -> str:
    """Seat ``seat``'s view of ``state`` as text: whose turn it is, the table as the seat sees it,
    and (``legal``, on the seat's turn) its legal moves. ``names``: every seat's name (the seat's
    own is shown as "you")."""
    names = list(names) if names is not None else seat_names(state.game.players)
    parts = [f"{state.game.name}, you are seat {seat} of {state.game.players}."]
    if state.is_terminal:
        outcome = state.outcome
        parts.append(f"The game is over: {outcome.description} Returns: "
                     + ", ".join(f"seat {s}: {r:g}" for s, r in enumerate(outcome.returns)) + ".")
    elif state.current_player == seat:
        parts.append("It is your turn.")
    parts += ["", view_text(state, seat, names)]
    if legal and not state.is_terminal and state.current_player == seat:
        parts += ["", "Your legal moves (id: name):", moves_text(state)]
    return "\n".join(parts)


def build_prompt(state: Any, seat: int, names: Optional[Sequence[str]] = None, legal: bool = True,
                 history: Sequence[str] = (), error: Optional[str] = None) -> str:
    """The whole prompt for seat ``seat`` to move in ``state``: the rules summary, what happened
    lately (``history``: lines the table announced), the seat's view, and the reply rule.
    ``error``: why the previous reply was refused (a retry)."""
    parts = ["You are playing a game. The rules in brief:", rules_summary(state.game.name), ""]
    if history:
        parts += ["What happened since your last move:"] + [f"  {line}" for line in history] + [""]
    parts += [view(state, seat, names, legal), ""]
    if error:
        parts += [f"Your previous reply was refused: {error}", ""]
    parts.append(REPLY_RULE)
    return "\n".join(parts)
