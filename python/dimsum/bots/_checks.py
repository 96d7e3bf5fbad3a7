"""What every bot checks before it acts (the C++ bots and the random bot alike): the same errors,
in the same words, whichever kind is asked."""

from __future__ import annotations

from typing import Any


def check_can_act(kind: str, game: Any, state: Any) -> None:
    """ValueError unless ``state`` is a state of ``game`` (same game, same options) where a player
    is to act: not terminal, not a chance node (bots act only for players)."""
    if getattr(state, "game", None) != game:
        raise ValueError(f"this {kind} bot plays {game!r}; the state is "
                         f"{'of ' + repr(state.game) if hasattr(state, 'game') else 'not a dimsum state'}")
    if state.is_terminal:
        raise ValueError(f"the {kind} bot was asked to act where nobody may act (a terminal state)")
    if state.is_chance_node:
        raise ValueError(f"the {kind} bot was asked to act at a chance node; bots act only for players")
