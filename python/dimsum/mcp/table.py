"""The games the MCP server holds: one :class:`Table` a session, kept by :class:`Tables`.

Nothing here needs the MCP SDK (:mod:`.server` turns these into tools). A table seats the agent
in one seat and bots (``dimsum.bots`` specs) in the others. The bots move at once, each on a
copy of the state whose future randomness is redrawn (as in the arena: a bot cannot read the
coming draws), until it is the agent's turn or the game is over; chance is drawn by the engine
(sampled games only). The agent is shown only its seat's view (:func:`dimsum.llm.view`) and the
moves the table announces (every seat's moves by name, as the terminal player announces them);
the record, which holds the seed and so the future, is given only once the game is over.

Dim Sum Jam on the clock: each agent move is charged a fixed number of ticks, ``move_ticks``
(declared when the game starts; default the game's ``ticks_per_action``, what a bot's play costs),
since an agent's thinking time is not the table's time. Bots are charged their moves' own cost.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Dict, List, Optional, Tuple

from ..llm import ReplyError, parse_move, view
from ..play.realtime import is_realtime
from ..play.views import seat_name
from ..reference.rng import MASK64, derive_seed

MAX_SESSIONS = 8  # games open at once; end_game frees one
MAX_MOVES = 5000  # play_move calls a session accepts, valid or not (the longest default game asks fewer)
MAX_MOVE_TICKS = 1_000_000  # the engine's own bound on ticks in one call
BOT_STREAM = 0xB075  # the bots' copies of the state draw their futures from this stream of the seed


class Table:
    """One game: ``game`` (from ``dimsum.make``), the agent in ``seat``, ``bots`` by seat for the
    others, ``names`` for every seat, dealt from ``seed``."""

    def __init__(self, session: str, game: Any, seat: int, seed: int, bots: Dict[int, Any], names: List[str],
                 move_ticks: Optional[int], max_moves: int = MAX_MOVES) -> None:
        self.session, self.game, self.seat, self.seed = session, game, seat, seed
        self.bots, self.names, self.move_ticks, self.max_moves = bots, names, move_ticks, max_moves
        self.state = game.new_state(seed)
        self.moves = 0  # play_move calls, valid or not
        self.invalid = 0  # play_move calls refused: no parse, ambiguous, or illegal
        self.events: List[str] = []  # what the table announced since the agent's last move
        self.broken: Optional[str] = None  # why the game cannot go on (a bot failed)
        self.lock = threading.RLock()  # two calls on one session at once (tools run on threads) take turns
        self._run_bots()

    # ---- what the agent sees ------------------------------------------------------------------
    def observe(self, legal: bool = True) -> str:
        """The seat's view as text, the moves announced since the agent's last move, the counts."""
        with self.lock:
            return self._observe(legal)

    def _observe(self, legal: bool) -> str:
        lines = [f"session {self.session}: {self._seats()}; seed {self.seed}; "
                 f"moves {self.moves} of at most {self.max_moves}, {self.invalid} invalid"]
        if self.move_ticks is not None:
            lines.append(f"real time: each of your moves is charged {self.move_ticks} ticks "
                         f"({self.move_ticks / self.game.options['ticks_per_second']:g} s of sand)")
        if self.events:
            lines += ["What happened since your last move:"] + [f"  {e}" for e in self.events]
        if self.broken:
            lines.append(f"The game cannot go on: {self.broken}")
        return "\n".join(lines + ["", view(self.state, self.seat, self.names, legal)])

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
        return Record.of(self.state, self.seed, self.names).dumps()

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
        self.events = []
        self._apply(action, self.seat, self.move_ticks)
        self._run_bots()
        return self._observe(legal)

    def _apply(self, action: int, actor: int, ticks: Optional[int]) -> None:
        name = self.state.action_name(action)
        if ticks is None:
            self.state.apply(action)
        else:
            self.state.apply(action, ticks)
        self.events.append(f"{seat_name(actor, self.seat, self.names)}: {name}")

    def _run_bots(self) -> None:
        """The bots' moves until the agent is to act or the game is over; a bot that fails (or
        returns an illegal move) stops the game, said in the view."""
        step = len(self.state.history)
        while not self.state.is_terminal and self.state.current_player != self.seat and not self.broken:
            player = self.state.current_player
            copy = self.state.clone(derive_seed(self.seed ^ BOT_STREAM, step) & MASK64)
            try:
                action = self.bots[player].act(copy)
                self._apply(action, player, None)
            except Exception as e:  # any bot failure ends the game with a message, never a crash
                self.broken = f"the bot in seat {player} ({self.names[player]}) failed: {type(e).__name__}: {e}"
            step += 1


class Tables:
    """The sessions of one server: at most ``max_sessions`` open at once, each accepting at most
    ``max_moves`` moves. Thread-safe (the SDK runs tools on worker threads)."""

    def __init__(self, max_sessions: int = MAX_SESSIONS, max_moves: int = MAX_MOVES) -> None:
        for what, value in (("max_sessions", max_sessions), ("max_moves", max_moves)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{what} is an int >= 1, got {value!r}")
        self.max_sessions, self.max_moves = max_sessions, max_moves
        self._tables: Dict[str, Table] = {}
        self._started = 0
        self._lock = threading.Lock()

    def start(self, game: str, seat: int = 0, bots: str = "random", seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None, move_ticks: Optional[int] = None) -> Table:
        """A new game of ``game`` (a name; ``options`` as ``dimsum.make`` takes them) with the agent in
        ``seat`` and ``bots`` (a spec list, one a seat in seat order, the last repeated) in the
        others, dealt from ``seed`` (default: a fresh one). ValueError/TypeError for bad input."""
        import dimsum

        if not isinstance(game, str):
            raise TypeError(f"game is a name, one of {', '.join(dimsum.games())}; got {type(game).__name__}")
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options is an object of game options, got {type(options).__name__}")
        made = dimsum.make(game, **(options or {}))
        if made.options.get("chance", "sampled") != "sampled":
            raise ValueError("the server plays sampled games (chance='sampled'): the engine draws chance itself")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < made.players:
            raise ValueError(f"seat is an int from 0 to {made.players - 1}, got {seat!r}")
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "little")
        from .._common import check_seed

        seed = check_seed(seed)
        ticks = _move_ticks(made, move_ticks)
        bot_by_seat, names = seat_bots(made, bots, seat, seed)
        with self._lock:
            if len(self._tables) >= self.max_sessions:
                raise ValueError(f"{len(self._tables)} games are open, the most this server holds "
                                 f"({self.max_sessions}); end one with end_game ({', '.join(self._tables)})")
            self._started += 1
            session = f"g{self._started}"
        table = Table(session, made, seat, seed, bot_by_seat, names, ticks, self.max_moves)
        with self._lock:
            self._tables[session] = table
        return table

    def get(self, session: str) -> Table:
        with self._lock:
            if session not in self._tables:
                open_ = ", ".join(self._tables) or "none"
                raise ValueError(f"no game {session!r} is open (open: {open_}); start one with start_game")
            return self._tables[session]

    def end(self, session: str) -> Table:
        table = self.get(session)
        with self._lock:
            self._tables.pop(session, None)
        return table

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


def seat_bots(game: Any, specs: str, seat: int, seed: int) -> Tuple[Dict[int, Any], List[str]]:
    """One bot a seat but ``seat``, from a spec list (the last spec repeated), seeded from ``seed``
    by seat; and every seat's name (the agent's is ``agent``)."""
    import dimsum.bots

    if not isinstance(specs, str):
        raise TypeError(f"bots is a spec list such as 'random' or 'heuristic,ismcts:simulations=100'; "
                        f"got {type(specs).__name__}")
    parsed = dimsum.bots.parse_list(specs)
    others = [s for s in range(game.players) if s != seat]
    if len(parsed) > len(others):
        raise ValueError(f"bots names {len(parsed)} bots but only {len(others)} seats are not yours")
    parsed += [parsed[-1]] * (len(others) - len(parsed))
    bots, names = {}, ["agent"] * game.players
    for other, (kind, params) in zip(others, parsed):
        bots[other] = dimsum.bots.make(kind, game, seed=derive_seed(seed, other), **params)
        from ..arena.players import spec_name

        names[other] = spec_name(kind, params)
    return bots, names
