"""What a model is shown: its seat's view of the table as text, the legal moves, and the prompt.

Everything here is built from what the seat may see: the game's own seat view
(``dimsum.play.views.view_text``, the terminal player's screen, which reads only that seat's
observation and the public facts), the game's legend (``dimsum.play.legend``: what the view's words
mean), the history the seat has seen (``dimsum.play.events``, the last ``HISTORY_LIMIT`` events with
the number of older ones) and the legal actions, which are the acting seat's to know.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from ..play.events import history_text
from ..play.legend import legend_text
from ..play.views import view_text
from .parse import legal_names
from .rules import rules_summary

HISTORY_LIMIT = 40  # events of the history in a prompt: a long game's prompt stays bounded

REPLY_RULE = ("Reply with exactly one legal move: its name as listed (case does not matter) or its id, "
              "and nothing else.")


def seat_names(players: int) -> List[str]:
    """Neutral names for the seats (every one ``player``), used where nothing better is known: the
    view shows each seat as ``seat N (player)`` and the viewer's own as ``you (seat N)``."""
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
                 history: Optional[Sequence[str]] = None, error: Optional[str] = None,
                 history_limit: int = HISTORY_LIMIT) -> str:
    """The whole prompt for seat ``seat`` to move in ``state``: the rules summary, the legend of the
    view's words, the history the seat has seen (``history``: lines to show instead; by default the
    game so far from the seat's information state, its last ``history_limit`` events and the number
    of older ones), the seat's view, and the reply rule. ``error``: why the previous reply was
    refused (a retry)."""
    parts = ["You are playing a game. The rules in brief:", rules_summary(state.game.name), "",
             "What the words in the view mean:", legend_text(state.game), ""]
    if history is None:
        history = history_text(state, seat, history_limit)
    if history:
        parts += ["What you have seen happen so far (oldest first):"] + [f"  {line}" for line in history] + [""]
    parts += [view(state, seat, names, legal), ""]
    if error:
        parts += [f"Your previous reply was refused: {error}", ""]
    parts.append(REPLY_RULE)
    return "\n".join(parts)
