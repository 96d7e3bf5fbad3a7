"""``python -m dimsum mcp``: dimsum's games as MCP tools over stdio, for LLM agents (docs/MCP.md).

Built on the official MCP Python SDK (the ``mcp`` extra: ``pip install "dimsum-games[mcp]"``). Every
tool returns text; bad input (an unknown game or option, a move that does not parse or is not
legal, a session that is not open, a limit reached, a bot the server does not allow) is a tool
error (``isError``) whose text says what was wrong and what is allowed, and leaves every game
unchanged. Every error is bounded and gives its reason (:mod:`.agent_text`). The games themselves
are :mod:`.table`'s; what a client may choose, :mod:`.capabilities`'.

The client is not trusted (docs/SECURITY.md): each tool runs on a worker thread, so a session's
bots thinking never hold up another session's calls; when the client goes (end of input, a
signal), every session's bots stop before their next move and are closed before the server exits.
"""

from __future__ import annotations

import functools
import json
import logging
import signal
from typing import Any, Callable, Dict, List, Optional, TypeVar

from .. import make as make_game
from ..play.legend import legend_text
from .agent_text import bound, describe, strings_of
from .capabilities import Capabilities
from .ladder_tools import MAX_LADDER_GAMES, Ladders, ladder_tools
from .table import MAX_MOVES, MAX_SESSIONS, Tables

INSTRUCTIONS = """\
dimsum's tabletop games ({titles}) against bots. list_games shows the
games and their options; list_bots the bots you may choose; rules gives a game's rules in brief;
start_game seats you and returns a session id and your view; play_move plays a move by its exact name (or id) as listed, the bots then
move until your next turn; observe shows your view again; get_picture draws it (SVG); get_record
gives the finished game; end_game frees the session. start_ladder rates you on a game's rating ladder,
game after game (ladder_status for the next game and, at the end, your rating)."""

F = TypeVar("F", bound=Callable[..., str])
log = logging.getLogger(__name__)


def build(max_sessions: int = MAX_SESSIONS, max_moves: int = MAX_MOVES,
          capabilities: Optional[Capabilities] = None, max_ladder_games: int = MAX_LADDER_GAMES,
          ladder_seed: Optional[int] = None) -> Any:
    """The MCPServer with dimsum's tools over one :class:`Tables`; ``capabilities``: what a client may
    choose (default: the built-in bots with their caps, no client seeds); ``max_ladder_games``,
    ``ladder_seed``: the bound on a rating's games and the seed its deals come from (:mod:`.ladder_tools`)."""
    from mcp.server.mcpserver import MCPServer

    import dimsum

    from ..llm import rules_summary

    tables = Tables(max_sessions, max_moves, capabilities)
    allowed = tables.capabilities.allowed()
    seeds = ("`seed` fixes the deal (this server allows it; the seed is the whole deal)"
             if tables.capabilities.client_seeds else "the server deals the game itself (a `seed` is refused)")
    tools: List[Any] = []

    def tool(fn: F) -> F:
        """Makes ``fn`` a tool whose bad input is a tool error with the message, not a crash."""
        tools.append(_strict_tool(fn, max_sessions=max_sessions, max_moves=max_moves, allowed=allowed, seeds=seeds))
        return fn

    @tool
    def list_games() -> str:
        """The games, their seats and their options (name, default, allowed values), as JSON."""
        return json.dumps({name: _game_entry(name) for name in dimsum.games()}, indent=1)

    @tool
    def list_bots() -> str:
        """The bots you may choose for start_game's `bots` and their parameters' caps, the server
        operator's bots by name, and whether you may give a seed, as JSON."""
        return json.dumps(tables.capabilities.describe(), indent=1)

    @tool
    def rules(game: str) -> str:
        """A game's rules in brief, citing its rulebook by section (the full rules: docs/rules/<game>.md),
        and the legend of the words its views use (with the default options)."""
        return rules_summary(game) + "\n\nWhat the words in the views mean:\n" + legend_text(make_game(game))

    @tool
    def start_game(game: str, seat: int = 0, bots: str = "random", seed: Optional[int] = None,
                   options: Optional[Dict[str, Any]] = None, move_ticks: Optional[int] = None,
                   legal_moves: bool = True) -> str:
        """Starts a game of `game` with you in `seat` and bots in the other seats: `bots` is a spec
        list in seat order, the last repeated ('random', 'heuristic', 'ismcts:simulations=200',
        'heuristic,random'); {allowed}. {seeds}. `options`: game
        options as list_games shows them. `move_ticks` (Dim Sum Jam on the clock only): ticks each
        of your moves is charged (default the game's ticks_per_action). The bots move until your
        turn; returns the session id and your view (its legal moves listed unless legal_moves is
        false), then the legend of the view's words. At most {max_sessions} games are open at once."""
        table = tables.start(game, seat, bots, seed, options, move_ticks)
        return table.observe(legal_moves) + "\n\nWhat the words in the view mean:\n" + legend_text(table.game)

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
        """The finished game `session` as a dimsum record (JSON: game, options, seed, table secret, every step, returns),
        which `python -m dimsum replay` turns into a page. Only once the game is over."""
        return tables.get(session).record()

    @tool
    def end_game(session: str) -> str:
        """Closes game `session` (finished or not): its bots stop and are closed, its place is freed
        once they are; says how it stood."""
        table = tables.end(session)
        state = table.state
        result = state.outcome.description if state.is_terminal else "not finished"
        closing = "" if table.closed.is_set() else "; its bots close when their move in progress ends"
        return (f"session {session} ended ({result}); {table.moves} moves, {table.invalid} invalid{closing}; "
                f"{len(tables.sessions())} of {tables.max_sessions} sessions open")

    ladders = Ladders(tables, max_ladder_games, ladder_seed)
    tools.extend(_strict_tool(fn, **limits) for fn, limits in ladder_tools(ladders))

    titles = ", ".join(dimsum.game_info(name).title for name in dimsum.games())
    # WARNING: the SDK logs every refused move at INFO on stderr, which a client shows as noise
    server = MCPServer("dimsum", instructions=INSTRUCTIONS.format(titles=titles), version=dimsum.__version__,
                       log_level="WARNING", tools=tools)
    server.tables = tables  # type: ignore[attr-defined]
    server.ladders = ladders  # type: ignore[attr-defined]
    return server


def _strict_tool(fn: Callable[..., str], **limits: Any) -> Any:
    """The SDK tool of ``fn``: its docstring (with ``limits`` filled in) describes it; it runs on a
    worker thread (another session's call is answered meanwhile; a call the client cancels, or a
    client that goes, leaves it to finish on its own, the session's bots stopping at their next move
    once the session ends); a ValueError or TypeError it raises is a tool error with its message, any
    other exception one that says what happened (:func:`.agent_text.describe`), every error bounded
    in length (:func:`.agent_text.bound`); an argument it does not take is refused (the SDK's default
    drops it silently, and an agent would never learn its mistake)."""
    import anyio.to_thread
    from mcp.server.mcpserver.exceptions import ToolError

    @functools.wraps(fn)
    async def run(**kwargs: Any) -> str:
        try:
            return await anyio.to_thread.run_sync(functools.partial(fn, **kwargs), abandon_on_cancel=True)
        except (ValueError, TypeError) as e:
            raise ToolError(bound(str(e), strings_of(kwargs))) from None
        except Exception as e:  # a failure nobody anticipated: its reason, no traceback, no path
            log.warning("tool %s failed", fn.__name__, exc_info=True)  # the operator's stderr has the rest
            raise ToolError(bound(describe(e), strings_of(kwargs))) from None

    description = " ".join((fn.__doc__ or "").split()).format(**limits)
    made = _bounded_tool().from_function(run, name=fn.__name__, description=description, structured_output=False)
    loose = made.fn_metadata.arg_model
    strict: Dict[str, Any] = {**loose.model_config, "extra": "forbid"}  # pydantic's ConfigDict is this dict
    made.fn_metadata.arg_model = type(loose.__name__, (loose,), {"model_config": strict, "__module__": loose.__module__})
    made.parameters["additionalProperties"] = False
    return made


@functools.lru_cache(maxsize=None)
def _bounded_tool() -> Any:
    """The SDK's Tool, its every error (its own argument checks' too) bounded in length with paths
    the client did not give hidden. Made at first use: the SDK is an optional extra."""
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.server.mcpserver.tools import Tool

    class BoundedTool(Tool):
        async def run(self, arguments: Dict[str, Any], context: Any, convert_result: bool = False) -> Any:
            try:
                return await super().run(arguments, context, convert_result)
            except ToolError as e:
                raise ToolError(bound(str(e), strings_of(arguments))) from None

    return BoundedTool


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


def run(max_sessions: int = MAX_SESSIONS, max_moves: int = MAX_MOVES,
        capabilities: Optional[Capabilities] = None, max_ladder_games: int = MAX_LADDER_GAMES,
        ladder_seed: Optional[int] = None) -> None:
    """Serves over stdin/stdout until the client closes them (or SIGTERM, as a client ends a server
    that does not exit at once); then every session's bots stop and are closed before it returns."""
    server = build(max_sessions, max_moves, capabilities, max_ladder_games, ladder_seed)
    previous = signal.signal(signal.SIGTERM, _exit_on_signal)
    signalled = False
    try:
        server.run("stdio")
    except SystemExit:
        signalled = True
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM does not cut the closing short
        if server.tables.close_all(SHUTDOWN_WAIT) or signalled:
            # a bot still mid-move: a program is ended now (its move then fails at once and its session
            # closes its bots), since a client kills a server that lingers, which would leave it behind
            from ..protocol.process import kill_all_groups

            kill_all_groups()
        signal.signal(signal.SIGTERM, previous)
    if signalled:
        # every bot is closed or killed; the SDK's thread reading stdin would hold the exit until the
        # client closed it, so the server leaves now
        import os
        import sys

        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass  # the client closed its end
        os._exit(128 + signal.SIGTERM)


# seconds the server waits at shutdown for bot moves in progress: under the 2 s a client (the SDK's)
# gives a server between closing its input and SIGTERM
SHUTDOWN_WAIT = 1.5


def _exit_on_signal(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)

