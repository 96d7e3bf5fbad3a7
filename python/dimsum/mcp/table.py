"""The games the MCP server holds: one :class:`Table` a session, kept by :class:`Tables`.

Nothing here needs the MCP SDK (:mod:`.server` turns these into tools). A table seats the agent
in one seat and bots (``dimsum.bots`` specs) in the others. The bots move at once, each on a
copy of the state whose future randomness is redrawn (as in the arena: a bot cannot read the
coming draws), until it is the agent's turn or the game is over; chance is drawn by the engine
(sampled games only). The agent is shown only its seat's view (:func:`dimsum.llm.view`) and what
its seat saw happen since its last move (:func:`dimsum.play.events.events_between`: every seat's
moves by name, the cards it drew, a complaint and its cause, rounds and scores); the record, which holds the seed and so the future, is given only once the game is over.

Seeds reveal nothing: no view shows the deal's seed, and the bots' seeds and the seeds of their
copies come from a table secret (:mod:`dimsum._secrets`, a keyed hash), never from the deal's seed
(``derive_seed`` can be inverted: a bot, or an agent that learnt a bot's seed, would get the deal).
The record of the finished game keeps the secret, so that a replay is exact.

The bots' turns run on the calling thread (the server's worker thread), one move at a time: a
table being closed (``end_game``, the server shutting down) stops its bots before their next move
and closes them (``close()``: an external bot's processes end), so at most one bot move, bounded
by the server's caps (:mod:`.capabilities`), runs on after the session ended.

Dim Sum Jam on the clock: each agent move is charged a fixed number of ticks, ``move_ticks``
(declared when the game starts; default the game's ``ticks_per_action``, what a bot's play costs),
since an agent's thinking time is not the table's time. Bots are charged their moves' own cost.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

from .._secrets import check_secret, new_secret, secret_seed
from ..llm import ReplyError, parse_move, view
from ..play.realtime import is_realtime
from ..play.events import events_between
from .capabilities import Capabilities

MAX_SESSIONS = 8  # games open at once; end_game frees one
MAX_MOVES = 5000  # play_move calls a session accepts, valid or not (the longest default game asks fewer)
MAX_MOVE_TICKS = 1_000_000  # the engine's own bound on ticks in one call
# the paths under a table's secret: a bot's seed by seat, its copy's futures by step
BOT_SEEDS, COPY_SEEDS = 0, 1
END_WAIT = 5.0  # seconds end_game waits for a bot move in progress before leaving the closing to it

log = logging.getLogger(__name__)


class SessionEnded(ValueError):
    """The session was ended (end_game, the server shutting down) while its bots were moving."""


class Table:
    """One game: ``game`` (from ``dimsum.make``), the agent in ``seat``, ``bots`` by seat for the
    others, ``names`` for every seat, dealt from ``seed``; the copies the bots play on are reseeded
    from ``secret`` (a table secret, fresh if None). The bots move until the agent's turn at once,
    unless ``begin`` is False (then :meth:`begin` does)."""

    def __init__(self, session: str, game: Any, seat: int, seed: int, bots: Dict[int, Any], names: List[str],
                 move_ticks: Optional[int], max_moves: int = MAX_MOVES, secret: Optional[str] = None,
                 begin: bool = True) -> None:
        self.session, self.game, self.seat, self.seed = session, game, seat, seed
        self.bots, self.names, self.move_ticks, self.max_moves = bots, names, move_ticks, max_moves
        self.secret = check_secret(secret)
        self.state = game.new_state(seed)
        self.moves = 0  # play_move calls, valid or not
        self.invalid = 0  # play_move calls refused: no parse, ambiguous, or illegal
        self.since: Any = None  # the state before the agent's last move (None: the start)
        self.broken: Optional[str] = None  # why the game cannot go on (a bot failed)
        self.lock = threading.RLock()  # two calls on one session at once (tools run on threads) take turns
        self.ending = threading.Event()  # set when the session ends: the bots stop before their next move
        self.closed = threading.Event()  # set once every bot is closed
        self._told_over = False  # the bots heard game_over
        if begin:
            self.begin()

    def begin(self) -> None:
        """The bots' moves until the agent's first turn."""
        with self.lock:
            self._run_bots()

    # ---- what the agent sees ------------------------------------------------------------------
    def observe(self, legal: bool = True) -> str:
        """The seat's view as text, the moves announced since the agent's last move, the counts."""
        with self.lock:
            return self._observe(legal)

    def _observe(self, legal: bool) -> str:
        # no seed here: while the game runs, the seed is every hidden card and every future draw
        lines = [f"session {self.session}: {self._seats()}; "
                 f"moves {self.moves} of at most {self.max_moves}, {self.invalid} invalid"]
        if self.move_ticks is not None:
            lines.append(f"real time: each of your moves is charged {self.move_ticks} ticks "
                         f"({self.move_ticks / self.game.options['ticks_per_second']:g} s of sand)")
        events = self.events()
        if events:
            lines += ["What happened since your last move:"] + [f"  {e}" for e in events]
        if self.broken:
            lines.append(f"The game cannot go on: {self.broken}")
        return "\n".join(lines + ["", view(self.state, self.seat, self.names, legal)])

    def events(self) -> List[str]:
        """What the agent's seat saw happen since its last move (its move included), in words."""
        with self.lock:
            return events_between(self.since, self.state, self.seat)

    def picture(self) -> str:
        """The SVG picture of the seat's view (hidden cards face down)."""
        from ..render import to_svg

        with self.lock:
            return to_svg(self.state, self.seat, self.names)

    def record(self) -> str:
        """The finished game as a dimsum record (JSON); ValueError while it runs (the record holds the
        seed, which tells the deck's order and every future draw)."""
        with self.lock:
            return self._record()

    def _record(self) -> str:
        from ..records import Record

        if not self.state.is_terminal:
            raise ValueError("the record is given once the game is over: it holds the seed, and so every "
                             "hidden card and future draw")
        return Record.of(self.state, self.seed, self.names, secret=self.secret).dumps()

    def _seats(self) -> str:
        return ", ".join(("you" if s == self.seat else self.names[s]) + f" in seat {s}"
                         for s in range(self.game.players))

    # ---- moves --------------------------------------------------------------------------------
    def play(self, move: str, legal: bool = True) -> str:
        """Plays the agent's ``move`` (a legal move's name or id, strictly read: dimsum.llm.parse_move),
        lets the bots move until the agent's next turn, and returns the new view. A refused move is
        a ValueError saying why (counted in ``invalid``), the game unchanged."""
        with self.lock:
            return self._play(move, legal)

    def _play(self, move: str, legal: bool) -> str:
        if self.broken:
            raise ValueError(f"the game cannot go on: {self.broken}; end it with end_game")
        if self.state.is_terminal:
            raise ValueError("the game is over: read it with observe or get_record, end it with end_game")
        if self.moves >= self.max_moves:
            raise ValueError(f"this session has made its {self.max_moves} moves (valid or not), the most a "
                             "session may; end it with end_game")
        self.moves += 1
        try:
            action = parse_move(self.state, move)
        except (ReplyError, TypeError):
            self.invalid += 1
            raise
        self.since = self.state.clone()
        self._apply(action, self.seat, self.move_ticks)
        self._run_bots()
        return self._observe(legal)

    def _apply(self, action: int, actor: int, ticks: Optional[int]) -> None:
        if ticks is None:
            self.state.apply(action)
        else:
            self.state.apply(action, ticks)

    def _run_bots(self) -> None:
        """The bots' moves until the agent is to act or the game is over; a bot that fails (or
        returns an illegal move) stops the game, said in the view. Before each move, a session
        that was ended stops here (SessionEnded) and its bots are closed (the caller holds the lock,
        so no bot is moving)."""
        from .agent_text import hide_paths

        try:
            step = len(self.state.history)
            while not self.state.is_terminal and self.state.current_player != self.seat and not self.broken:
                if self.ending.is_set():
                    raise SessionEnded(f"session {self.session} was ended while its bots were moving")
                player = self.state.current_player
                copy = self.state.clone(secret_seed(self.secret, COPY_SEEDS, step))
                try:
                    action = self.bots[player].act(copy)
                    self._apply(action, player, None)
                except Exception as e:  # any bot failure ends the game with a message, never a crash
                    # an operator's bot may name its program or files: the agent sees no path of them
                    self.broken = hide_paths(f"the bot in seat {player} ({self.names[player]}) failed: "
                                             f"{type(e).__name__}: {e}")
                step += 1
            if self.state.is_terminal and not self._told_over:
                self._told_over = True
                for bot in self.bots.values():  # as play and the arena do: a protocol bot hears the outcome
                    _call_quietly(getattr(bot, "game_over", None), self.state)
        finally:
            if self.ending.is_set():
                self._close_bots()

    # ---- the end --------------------------------------------------------------------------------
    def close(self, wait: float = END_WAIT) -> bool:
        """Ends the session: its bots stop before their next move and are closed. Waits at most
        ``wait`` seconds for a bot move in progress; True if the bots are closed on return, False if a
        move was still running (the bot loop closes them when the move ends)."""
        self.ending.set()
        if not self.lock.acquire(timeout=max(0.0, wait)):
            return False  # _run_bots holds the lock: it sees ``ending`` and closes the bots itself
        try:
            self._close_bots()
        finally:
            self.lock.release()
        return True

    def _close_bots(self) -> None:
        """Closes every bot once (the lock held: none is moving)."""
        if self.closed.is_set():
            return
        for bot in self.bots.values():
            close = getattr(bot, "close", None)
            if callable(close):
                _call_quietly(close)
            elif not self.state.is_terminal:
                # a bot with no close() that follows the table's protocol (ExternalBot before close()
                # existed): game_over on an unfinished game ends its processes
                _call_quietly(getattr(bot, "game_over", None), self.state)
        self.closed.set()


def _call_quietly(function: Any, *args: Any) -> None:
    """Calls ``function`` (if any) for the table's own housekeeping: a failure is logged for the
    operator, never raised to the agent (the game is over or the session ending either way)."""
    if not callable(function):
        return
    try:
        function(*args)
    except Exception:
        log.warning("closing a bot failed", exc_info=True)


class Tables:
    """The sessions of one server: at most ``max_sessions`` open at once (a session being closed
    counts until its bots are), each accepting at most ``max_moves`` moves; the bots a client may
    choose and whether it may give a seed: ``capabilities`` (by default the built-in allow-list,
    no client seeds). Thread-safe (the SDK runs tools on worker threads)."""

    def __init__(self, max_sessions: int = MAX_SESSIONS, max_moves: int = MAX_MOVES,
                 capabilities: Optional[Capabilities] = None) -> None:
        for what, value in (("max_sessions", max_sessions), ("max_moves", max_moves)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{what} is an int >= 1, got {value!r}")
        self.max_sessions, self.max_moves = max_sessions, max_moves
        self.capabilities = capabilities if capabilities is not None else Capabilities()
        self._tables: Dict[str, Table] = {}
        self._closing: List[Table] = []  # ended, their bots still finishing a move
        self._started = 0
        self._shut = False
        self._lock = threading.Lock()

    def start(self, game: str, seat: int = 0, bots: str = "random", seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None, move_ticks: Optional[int] = None) -> Table:
        """A new game of ``game`` (a name; ``options`` as ``dimsum.make`` takes them) with the agent in
        ``seat`` and ``bots`` (a spec list, one a seat in seat order, the last repeated, within the
        capabilities) in the others, dealt from a fresh seed, or from ``seed`` where the
        capabilities allow a client's seed. ValueError/TypeError for bad input."""
        import dimsum

        if not isinstance(game, str):
            raise TypeError(f"game is a name, one of {', '.join(dimsum.games())}; got {type(game).__name__}")
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options is an object of game options, got {type(options).__name__}")
        if seed is not None and not self.capabilities.client_seeds:
            raise ValueError("seed is refused: this server deals every game itself, since a seed the agent knows "
                             "is the whole deal (every hidden card and future draw); leave seed out. The operator "
                             "can allow client seeds (python -m dimsum mcp --allow-seeds)")
        made = dimsum.make(game, **(options or {}))
        if made.options.get("chance", "sampled") != "sampled":
            raise ValueError("the server plays sampled games (chance='sampled'): the engine draws chance itself")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < made.players:
            raise ValueError(f"seat is an int from 0 to {made.players - 1}, got {seat!r}")
        from .._common import check_seed

        # 64 fresh bits: a deal no agent can find by trying seeds against what it sees
        seed = check_seed(seed) if seed is not None else int.from_bytes(os.urandom(8), "little")
        ticks = _move_ticks(made, move_ticks)
        secret = new_secret()
        bot_by_seat, names = seat_bots(made, bots, seat, secret, self.capabilities)
        try:
            with self._lock:
                self._closing = [t for t in self._closing if not t.closed.is_set()]
                busy = len(self._tables) + len(self._closing)
                if self._shut:
                    raise ValueError("the server is shutting down")
                if busy >= self.max_sessions:
                    closing = f", {len(self._closing)} of them still closing" if self._closing else ""
                    raise ValueError(f"{busy} games are open{closing}, the most this server holds "
                                     f"({self.max_sessions}); end one with end_game ({', '.join(self._tables)})")
                self._started += 1
                session = f"g{self._started}"
                table = Table(session, made, seat, seed, bot_by_seat, names, ticks, self.max_moves, secret,
                              begin=False)
                self._tables[session] = table  # known before its bots move: end_game and shutdown reach them
        except BaseException:
            _close_all_bots(bot_by_seat)
            raise
        try:
            table.begin()
        except BaseException:
            self._drop(table)
            raise
        return table

    def get(self, session: str) -> Table:
        with self._lock:
            if session not in self._tables:
                open_ = ", ".join(self._tables) or "none"
                raise ValueError(f"no game {session!r} is open (open: {open_}); start one with start_game")
            return self._tables[session]

    def end(self, session: str, wait: float = END_WAIT) -> Table:
        """Closes game ``session``: its bots stop before their next move and are closed (waiting at
        most ``wait`` seconds for a move in progress, after which the bots close when it ends)."""
        table = self.get(session)
        self._drop(table)
        table.close(wait)
        return table

    def _drop(self, table: Table) -> None:
        table.ending.set()
        with self._lock:
            if self._tables.get(table.session) is table:
                del self._tables[table.session]
                self._closing.append(table)

    def close_all(self, wait: float = END_WAIT) -> int:
        """Ends every session (the server is going: end of input, a signal) and refuses new ones; waits
        at most ``wait`` seconds in all for bot moves in progress. Returns how many sessions' bots are
        still finishing a move (they close when it ends)."""
        with self._lock:
            self._shut = True
            tables = list(self._tables.values()) + self._closing
            self._tables.clear()
            self._closing = tables
        for table in tables:  # every session stops first, then each is waited for
            table.ending.set()
        deadline = time.monotonic() + wait
        return sum(not table.close(deadline - time.monotonic()) for table in tables)

    def sessions(self) -> List[str]:
        with self._lock:
            return list(self._tables)


def _move_ticks(game: Any, move_ticks: Optional[int]) -> Optional[int]:
    """The ticks charged for each agent move: None in a game without a running clock (where a
    move_ticks is refused); else ``move_ticks``, by default the game's ``ticks_per_action``."""
    if not is_realtime(game):
        if move_ticks is not None:
            raise ValueError(f"move_ticks is for a game on the clock (Dim Sum Jam with ticks_per_action > 0); "
                             f"{game.name} with these options has no clock")
        return None
    if move_ticks is None:
        return int(game.options["ticks_per_action"])
    if isinstance(move_ticks, bool) or not isinstance(move_ticks, int) or not 0 <= move_ticks <= MAX_MOVE_TICKS:
        raise ValueError(f"move_ticks is an int from 0 to {MAX_MOVE_TICKS}, got {move_ticks!r}")
    return move_ticks


def seat_bots(game: Any, specs: str, seat: int, secret: str,
              capabilities: Optional[Capabilities] = None) -> Tuple[Dict[int, Any], List[str]]:
    """One bot a seat but ``seat``, from a spec list (the last spec repeated) within
    ``capabilities`` (default: the built-in allow-list), seeded from the table's ``secret`` by
    seat; and every seat's name (the agent's is ``agent``; an operator's bot is named by its name,
    never by its command or path). Every spec is checked before any bot is made."""
    import dimsum.bots

    capabilities = capabilities if capabilities is not None else Capabilities()
    if not isinstance(specs, str):
        raise TypeError(f"bots is a spec list such as 'random' or 'heuristic,ismcts:simulations=100'; "
                        f"got {type(specs).__name__}")
    chosen = [capabilities.choose(kind, params) for kind, params in dimsum.bots.parse_list(specs)]
    others = [s for s in range(game.players) if s != seat]
    if len(chosen) > len(others):
        raise ValueError(f"bots names {len(chosen)} bots but only {len(others)} seats are not yours")
    chosen += [chosen[-1]] * (len(others) - len(chosen))
    bots: Dict[int, Any] = {}
    names = ["agent"] * game.players
    try:
        for other, (name, kind, params) in zip(others, chosen):
            bots[other] = dimsum.bots.make(kind, game, seed=secret_seed(secret, BOT_SEEDS, other), **params)
            names[other] = name
    except BaseException:
        _close_all_bots(bots)
        raise
    return bots, names


def _close_all_bots(bots: Dict[int, Any]) -> None:
    """Closes bots made for a session that never opened."""
    for bot in bots.values():
        _call_quietly(getattr(bot, "close", None))
