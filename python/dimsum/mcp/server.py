"""``python -m dimsum mcp``: dimsum's games as MCP tools over stdio, for LLM agents (docs/MCP.md).

Built on the official MCP Python SDK (the ``mcp`` extra: ``pip install "dimsum-games[mcp]"``). Every
tool returns text; bad input (an unknown game or option, a move that does not parse or is not
legal, a session that is not open, a limit reached) is a tool error (``isError``) whose text says
what was wrong and what is allowed, and leaves every game unchanged. The games themselves are
:mod:`.table`'s.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Callable, Dict, List, Optional, TypeVar

from .table import MAX_MOVES, MAX_SESSIONS, Tables

INSTRUCTIONS = """\
dimsum's tabletop games ({titles}) against bots. list_games shows the
games and their options; rules gives a game's rules in brief; start_game seats you and returns a
session id and your view; play_move plays a move by its exact name (or id) as listed, the bots then
move until your next turn; observe shows your view again; get_picture draws it (SVG); get_record
gives the finished game; end_game frees the session."""

F = TypeVar("F", bound=Callable[..., str])


def build(max_sessions: int = MAX_SESSIONS, max_moves: int = MAX_MOVES) -> Any:
    """The MCPServer with dimsum's tools over one :class:`Tables`."""
    from mcp.server.mcpserver import MCPServer

    import dimsum

    from ..llm import rules_summary

    tables = Tables(max_sessions, max_moves)
    tools: List[Any] = []

    def tool(fn: F) -> F:
        """Makes ``fn`` a tool whose bad input is a tool error with the message, not a crash."""
        tools.append(_strict_tool(fn, max_sessions=max_sessions, max_moves=max_moves))
        return fn

    @tool
    def list_games() -> str:
        """The games, their seats and their options (name, default, allowed values), as JSON."""
        return json.dumps({name: _game_entry(name) for name in dimsum.games()}, indent=1)

    @tool
    def rules(game: str) -> str:
        """A game's rules in brief, citing its rulebook by section (the full rules: docs/rules/<game>.md)."""
        return rules_summary(game)

    @tool
    def start_game(game: str, seat: int = 0, bots: str = "random", seed: Optional[int] = None,
                   options: Optional[Dict[str, Any]] = None, move_ticks: Optional[int] = None,
                   legal_moves: bool = True) -> str:
        """Starts a game of `game` with you in `seat` and bots in the other seats: `bots` is a spec
        list in seat order, the last repeated ('random', 'heuristic', 'ismcts:simulations=200',
        'heuristic,random'). `seed` fixes the deal (default: a fresh one, shown). `options`: game
        options as list_games shows them. `move_ticks` (Dim Sum Jam on the clock only): ticks each
        of your moves is charged (default the game's ticks_per_action). The bots move until your
        turn; returns the session id and your view (its legal moves listed unless legal_moves is
        false). At most {max_sessions} games are open at once."""
        table = tables.start(game, seat, bots, seed, options, move_ticks)
        return table.observe(legal_moves)

    @tool
    def observe(session: str, legal_moves: bool = True) -> str:
        """Your seat's view of game `session`: what happened since your last move, the table as your
        seat sees it, and your legal moves (id: name) when it is your turn, unless legal_moves is false."""
        return tables.get(session).observe(legal_moves)

    @tool
    def play_move(session: str, move: str, legal_moves: bool = True) -> str:
        """Plays `move` in game `session`: a legal move's exact name as listed (case and spaces do not
        matter) or its id, and nothing else. The bots then move until your next turn; returns your
        new view. A move that does not parse, is ambiguous or is not legal now is an error saying
        why (the game unchanged), counted in the session's invalid moves. A session takes at most
        {max_moves} moves, valid or not."""
        return tables.get(session).play(move, legal_moves)

    @tool
    def get_picture(session: str) -> str:
        """The SVG picture of game `session` as your seat sees it (hidden cards face down)."""
        return tables.get(session).picture()

    @tool
    def get_record(session: str) -> str:
        """The finished game `session` as a dimsum record (JSON: game, options, seed, every step, returns),
        which `python -m dimsum replay` turns into a page. Only once the game is over."""
        return tables.get(session).record()

    @tool
    def end_game(session: str) -> str:
        """Closes game `session` (finished or not) and frees its place; says how it stood."""
        table = tables.end(session)
        state = table.state
        result = state.outcome.description if state.is_terminal else "not finished"
        return (f"session {session} ended ({result}); {table.moves} moves, {table.invalid} invalid; "
                f"{len(tables.sessions())} of {tables.max_sessions} sessions open")

    titles = ", ".join(dimsum.game_info(name).title for name in dimsum.games())
    # WARNING: the SDK logs every refused move at INFO on stderr, which a client shows as noise
    server = MCPServer("dimsum", instructions=INSTRUCTIONS.format(titles=titles), version=dimsum.__version__,
                       log_level="WARNING", tools=tools)
    server.tables = tables  # type: ignore[attr-defined]
    return server


def _strict_tool(fn: Callable[..., str], **limits: int) -> Any:
    """The SDK tool of ``fn``: its docstring (with ``limits`` filled in) describes it; a ValueError or
    TypeError it raises is a tool error with its message; an argument it does not take is refused
    (the SDK's default drops it silently, and an agent would never learn its mistake)."""
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.server.mcpserver.tools import Tool
    from pydantic import ConfigDict

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> str:
        try:
            return fn(*args, **kwargs)
        except (ValueError, TypeError) as e:
            raise ToolError(str(e)) from None

    description = " ".join((fn.__doc__ or "").split()).format(**limits)
    made = Tool.from_function(run, name=fn.__name__, description=description, structured_output=False)
    loose = made.fn_metadata.arg_model
    made.fn_metadata.arg_model = type(loose.__name__, (loose,), {
        "model_config": ConfigDict(**{**loose.model_config, "extra": "forbid"}), "__module__": loose.__module__})
    made.parameters["additionalProperties"] = False
    return made


def _game_entry(name: str) -> Dict[str, Any]:
    import dimsum

    game = dimsum.make(name)
    options = []
    for spec in game.option_specs:
        entry: Dict[str, Any] = {"name": spec.name, "default": spec.default, "doc": spec.doc}
        if spec.choices:
            entry["choices"] = list(spec.choices)
        if spec.minimum is not None or spec.maximum is not None:
            entry["range"] = [spec.minimum, spec.maximum]
        options.append(entry)
    return {"title": dimsum.game_info(name).title, "default_players": game.players, "options": options}


def run(max_sessions: int = MAX_SESSIONS, max_moves: int = MAX_MOVES) -> None:
    """Serves over stdin/stdout until the client closes them."""
    build(max_sessions, max_moves).run("stdio")
