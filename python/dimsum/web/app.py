"""The web server: the lobby, the table pages and their websockets (Starlette, served by uvicorn).

Routes: ``/`` the lobby; ``POST /api/tables`` makes a table (lobby.check_request says what it
accepts) and answers its links; ``/table/{id}/{token}`` a seat's (or the spectator's) page;
``/ws/{id}/{token}`` its websocket; ``/table/{id}/{token}/record.json`` and ``.../replay.html`` once
the game is over; ``/static/...`` the pages' script and style (package files).

Every message from a page is checked: at most ``MAX_MESSAGE`` bytes, JSON, a known type, an int
move id; a page sending more than ``RATE`` messages a second is answered with an error and, if it
keeps on, closed. A bad message gets ``{"type": "error", "message": ...}``, never a crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from importlib import resources
from typing import Any, AsyncIterator, Dict, Mapping, Optional, Tuple

from .._extras import needs_extra

with needs_extra("web", "dimsum.web.app"):
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

from .lobby import LobbyError, allow_list, check_request, describe, fresh_seed, make_bots, quick
from .table import Seat, Table

MAX_MESSAGE = 1024      # bytes a page's websocket message may hold
MAX_BODY = 8192         # bytes of a table request
RATE = 20               # messages a second a page may send (a burst of 2 * RATE)
MAX_STRIKES = 50        # bad or too-fast messages before a page is closed
MAX_TABLES = 256
STATIC = {"table.js": "text/javascript", "table.css": "text/css", "lobby.js": "text/javascript"}
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def _file(name: str) -> str:
    return resources.files("dimsum.web").joinpath("static").joinpath(name).read_text(encoding="utf-8")


def _page(name: str, csp: str = CSP) -> HTMLResponse:
    return HTMLResponse(_file(name), headers={"Content-Security-Policy": csp, "Referrer-Policy": "no-referrer",
                                              "X-Content-Type-Options": "nosniff"})


class Server:
    """The tables of one server and what the operator allows."""

    def __init__(self, bots: Mapping[str, Tuple[str, Dict[str, Any]]], max_tables: int = MAX_TABLES,
                 clock: Any = None, bot_delay: float = 0.0) -> None:
        self.bots = allow_list(bots)
        self.max_tables, self.clock, self.bot_delay = max_tables, clock, bot_delay
        self.tables: Dict[str, Table] = {}

    def table(self, table_id: str, token: str) -> Tuple[Table, int]:
        """The table and the seat a link opens (-1: the spectator's); LookupError for no such link."""
        table = self.tables.get(table_id)
        seat = None if table is None else table.seat_of(token)
        if table is None or seat is None:
            raise LookupError("No such table or link.")
        return table, seat

    def _make_room(self) -> bool:
        if len(self.tables) < self.max_tables:
            return True
        over = [tid for tid, t in self.tables.items() if t.state.is_terminal or t.error]
        for tid in over[: max(1, len(over) // 2)]:
            self.tables.pop(tid)
        return len(self.tables) < self.max_tables

    async def create(self, body: Any) -> Dict[str, Any]:
        game, seats = check_request(body, self.bots)
        if not self._make_room():
            raise LobbyError(f"the server holds {self.max_tables} tables, all playing: try again later")
        seed = fresh_seed()
        bots = make_bots(game, seats, seed, self.bots)
        table_id = secrets.token_urlsafe(9)
        table = Table(table_id, game, seed,
                      [Seat(i, seats[i], bots.get(i), quick(seats[i], self.bots)) for i in range(len(seats))],
                      clock=self.clock, bot_delay=self.bot_delay)
        self.tables[table_id] = table
        table.start()
        return {"table": table_id,
                "seats": [f"/table/{table_id}/{s.token}" if s.human else None for s in table.seats],
                "spectator": f"/table/{table_id}/{table.spectator_token}"}

    async def close(self) -> None:
        for table in list(self.tables.values()):
            await table.close()
        from ..protocol import close_all

        await asyncio.to_thread(close_all)


LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]


def create_app(bots: Optional[Mapping[str, Tuple[str, Dict[str, Any]]]] = None, max_tables: int = MAX_TABLES,
               clock: Any = None, bot_delay: float = 0.0, hosts: Optional[list] = None) -> Starlette:
    """The server's ASGI app. ``bots``: the operator's named bots (NAME -> (kind, params));
    ``hosts``: the Host names a request may carry (the loopback names by default: a web page of
    another site that rebinds its name to 127.0.0.1 is refused; ``["*"]`` for any);
    ``clock``: the clock the glass runs on (``now() -> seconds``; the wall clock by default);
    ``bot_delay``: seconds a bot waits before it moves (so people can follow)."""
    server = Server(dict(bots or {}), max_tables, clock, bot_delay)

    async def lobby(request: Request) -> Response:
        return _page("lobby.html")

    async def lobby_data(request: Request) -> Response:
        return JSONResponse(describe(server.bots))

    async def create(request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_BODY:
            return JSONResponse({"error": f"a table request is at most {MAX_BODY} bytes"}, status_code=413)
        try:
            made = await server.create(json.loads(body))
        except (ValueError, LobbyError) as e:  # json's errors are ValueErrors
            return JSONResponse({"error": str(e)}, status_code=400)
        return JSONResponse(made)

    async def table_page(request: Request) -> Response:
        try:
            server.table(request.path_params["table"], request.path_params["token"])
        except LookupError as e:
            return Response(str(e), status_code=404)
        return _page("table.html")

    async def finished(request: Request) -> Response:
        try:
            table, _ = server.table(request.path_params["table"], request.path_params["token"])
        except LookupError as e:
            return Response(str(e), status_code=404)
        if not table.state.is_terminal:  # the record holds the seed: the whole deal
            return Response("The game is not over yet.", status_code=409)
        record = table.record()
        if request.path_params["what"] == "record.json":
            return Response(record.dumps(), media_type="application/json",
                            headers={"Content-Disposition": "attachment; filename=game.json"})
        from ..cli.replay import page

        return HTMLResponse(page(record), headers={"Content-Security-Policy": CSP.replace(
            "script-src 'self'", "script-src 'unsafe-inline'")})

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return Response("Not found.", status_code=404)
        return Response(_file(name), media_type=STATIC[name], headers={"X-Content-Type-Options": "nosniff"})

    async def socket(ws: WebSocket) -> None:
        try:
            table, seat = server.table(ws.path_params["table"], ws.path_params["token"])
        except LookupError:
            await ws.close(code=1008)
            return
        origin = ws.headers.get("origin")
        host = ws.headers.get("host", "")
        if origin is not None and origin not in (f"http://{host}", f"https://{host}"):  # another site's page
            await ws.close(code=1008)
            return
        await ws.accept()
        watcher = table.watch(None if seat == -1 else seat)
        sender = asyncio.get_running_loop().create_task(_send(ws, watcher))
        try:
            await _receive(ws, table, None if seat == -1 else seat)
        except WebSocketDisconnect:
            pass
        finally:
            table.unwatch(watcher)
            sender.cancel()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await server.close()  # the tables' tasks, and any external bot's program

    app = Starlette(routes=[
        Route("/", lobby), Route("/api/lobby", lobby_data), Route("/api/tables", create, methods=["POST"]),
        Route("/static/{name}", static),
        Route("/table/{table}/{token}", table_page), Route("/table/{table}/{token}/{what:str}", finished),
        WebSocketRoute("/ws/{table}/{token}", socket),
    ], lifespan=lifespan, middleware=[Middleware(TrustedHostMiddleware,
                                                 allowed_hosts=LOOPBACK_HOSTS if hosts is None else hosts)])
    app.state.server = server
    return app


async def _send(ws: WebSocket, watcher: Any) -> None:
    try:
        while True:
            await ws.send_text(await watcher.take())
    except (WebSocketDisconnect, RuntimeError, asyncio.CancelledError):
        pass


async def _receive(ws: WebSocket, table: Table, seat: Optional[int]) -> None:
    """Reads a page's messages, checks each, answers the bad ones."""
    allowance, last, strikes = 2.0 * RATE, time.monotonic(), 0
    while True:
        data = await ws.receive()
        if data["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(data.get("code", 1000))
        now = time.monotonic()
        allowance = min(2.0 * RATE, allowance + (now - last) * RATE)
        last = now
        error = None
        if allowance < 1:
            error = f"Too many messages: at most {RATE} a second."
        else:
            allowance -= 1
            error = _handle(data, table, seat)
        if error is not None:
            strikes += 1
            await ws.send_text(json.dumps({"type": "error", "message": error}))
            if strikes >= MAX_STRIKES:
                await ws.close(code=1008)
                return


def _handle(data: Mapping[str, Any], table: Table, seat: Optional[int]) -> Optional[str]:
    """One message from a page: None when done, else what was wrong and what is allowed."""
    text = data.get("text")
    if text is None:
        return "Send text messages (JSON), not bytes."
    if len(text.encode("utf-8", "replace")) > MAX_MESSAGE:
        return f"A message is at most {MAX_MESSAGE} bytes."
    try:
        message = json.loads(text)
    except ValueError:
        return 'Not JSON: send {"type": "move", "id": N}, {"type": "undo"} or {"type": "ping"}.'
    kind = message.get("type") if isinstance(message, dict) else None
    if kind == "ping":
        return None
    if seat is None:
        return "A spectator only watches."
    if kind == "move":
        move = message.get("id")
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < 1 << 31:
            return "A move is {\"type\": \"move\", \"id\": N}, N the id of one of your legal moves."
        return table.move(seat, move)
    if kind == "undo":
        return table.undo(seat)
    return 'Unknown message: send {"type": "move", "id": N}, {"type": "undo"} or {"type": "ping"}.'
