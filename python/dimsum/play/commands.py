"""What the human typed: a move (by number or by name), or one of the player's commands.

Moves by name go through ``state.parse_action``, the engine's own parser, which answers a near
miss with the names it resembles; nothing typed here can raise past :func:`interpret`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Tuple

COMMANDS = {"help": "help", "h": "help", "?": "help",
            "undo": "undo", "u": "undo",
            "legend": "legend", "l": "legend", "key": "legend",
            "quit": "quit", "q": "quit", "exit": "quit"}


@dataclass(frozen=True)
class Shortcut:
    """A short word for one of a game's moves, declared by the game's view module as
    ``SHORTCUTS`` (``dimsum.games.<name>.view``): typing one of ``keys`` plays the move named
    ``action``; when it is not legal, ``refused`` says when it is. ``realtime``: only while the
    clock runs (a quick key for a move that must be made fast)."""

    keys: Tuple[str, ...]
    action: str
    help: str
    refused: str
    realtime: bool = False


def active_shortcuts(shortcuts: Sequence[Shortcut], realtime: bool) -> List[Shortcut]:
    return [sc for sc in shortcuts if realtime or not sc.realtime]


@dataclass(frozen=True)
class Command:
    kind: str  # "move", "help", "legend", "undo", "quit", "again" (nothing typed) or "error"
    action: Optional[int] = None
    message: str = ""


def interpret(line: str, state: Any, legal: List[int], realtime: bool = False,
              shortcuts: Sequence[Shortcut] = ()) -> Command:
    """``line`` as a Command for ``state``, whose legal actions are ``legal`` (numbered from 1);
    ``shortcuts``: the game's (its view module's ``SHORTCUTS``)."""
    text = " ".join(line.strip().split())
    if not text:
        return Command("again")
    lowered = text.lower()
    if lowered in COMMANDS:
        return Command(COMMANDS[lowered])
    shortcut = next((sc for sc in active_shortcuts(shortcuts, realtime) if lowered in sc.keys), None)
    if shortcut is not None:
        text = shortcut.action
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(legal):
            return Command("move", legal[number - 1])
        return Command("error", message=f"There is no move {number}: type a number from 1 to {len(legal)}, "
                                        f"a move's name, or help.")
    try:
        action = state.parse_action(text)
    except ValueError as e:  # IllegalActionError is a ValueError; its text lists near misses
        if shortcut is not None:
            return Command("error", message=shortcut.refused)
        return Command("error", message=f"{text!r} is not a move here ({e}). Type a number from 1 to "
                                        f"{len(legal)}, a move's name, or help.")
    if action not in legal:
        if shortcut is not None:
            return Command("error", message=shortcut.refused)
        return Command("error", message=f"{state.action_name(action)!r} is not legal now: type a number from "
                                        f"1 to {len(legal)} or the name of one of the moves listed.")
    return Command("move", action)


def help_text(realtime: bool, undo_note: str, shortcuts: Sequence[Shortcut] = ()) -> str:
    lines = ["Type the number of a move, or its name (as listed; case does not matter), then Enter.",
             "  help     this text",
             "  legend   what the words and marks on the screen mean (tiers, teas, token codes...)",
             f"  undo     {undo_note}",
             "  quit     leave the game (Ctrl-D and Ctrl-C leave too)"]
    lines += [f"  {sc.keys[0]:<8} {sc.help}" for sc in active_shortcuts(shortcuts, realtime)]
    if realtime:
        lines += ["The clock runs while you think: the time you take is charged to it (at least a "
                  "move's usual cost)."]
    return "\n".join(lines)


def moves_text(state: Any, legal: List[int], width: int) -> str:
    """The legal moves, numbered from 1 and named, in as many columns as fit in ``width``."""
    cells = [f"{i:>3}. {state.action_name(a)}" for i, a in enumerate(legal, start=1)]
    cell_width = max(len(c) for c in cells) + 3
    columns = max(1, min(len(cells), width // cell_width))
    rows = -(-len(cells) // columns)
    lines = []
    for r in range(rows):  # numbered down each column, like `ls`
        row = [cells[c * rows + r] for c in range(columns) if c * rows + r < len(cells)]
        lines.append("".join(cell.ljust(cell_width) for cell in row).rstrip())
    return "\n".join(lines)
