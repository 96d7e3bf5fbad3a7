"""Each game's rules in brief, for a model (or a person) about to play.

A game declares its summary in its own package, ``SUMMARY`` in ``dimsum.games.<name>.summary``
(as it declares its picture and its terminal view), written from its page of docs/rules and
citing the rulebook by section and the rulings by id. It says what a player needs to choose
moves: the goal, a turn, what is hidden, how the game ends; move names are not repeated, since
the view lists the legal moves by name. A game without one gets a pointer to its rules page.
"""

from __future__ import annotations

import importlib


def rules_summary(game: str) -> str:
    """The rules summary of game ``game`` (a name from ``dimsum.games()``); ValueError for another name."""
    import dimsum

    names = dimsum.games()
    if not isinstance(game, str):
        raise TypeError(f"a game is named by a str, one of {', '.join(names)}; got {type(game).__name__}")
    if game not in names:
        raise ValueError(f"unknown game {game!r}; the games are {', '.join(names)}")
    try:
        module = importlib.import_module(f"dimsum.games.{game}.summary")
    except ModuleNotFoundError as e:
        if e.name != f"dimsum.games.{game}.summary":
            raise
        return f"{game}: no summary is declared; the rules are in docs/rules/{game}.md."
    summary: str = module.SUMMARY
    return summary
