"""One table on the server: the game, who sits where (humans by link, bots), the game loop in its
own task, and the pages watching it.

The server is authoritative: pages send moves by id, the table checks them against the state and
plays them; bots and chance are played by the table's task in their own time (a bot thinks in a
worker thread, so the server keeps answering). Dim Sum Jam runs on the clock as in ``play``
(dimsum.play.realtime): a human's thinking time is charged to the glass, bots are charged their
moves' default cost, and when the sand runs out during a human's turn the table lets time pass
(``state.advance``) with no input: the complaint and the pause follow by the rules. Undo follows
``play``'s rule (dimsum.play.session): never on the clock, never once a step since showed the seat
anything hidden, and never past another human's move.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from fractions import Fraction
from math import lcm
from typing import Any, Callable, Dict, List, Optional

from .. import CHANCE
from .._secrets import new_secret, secret_seed
from ..play import realtime
from ..play.clock import WallClock
from ..records import Record
from ..reference.rng import Rng, derive_seed
from ..reveals import DEFAULT_SAMPLES, first_reveal
from ..play.events import seat_words
from .log import legend, seat_events
from .messages import seat_message_dict, spectator_message_dict

CHANCE_STREAM = 0xC4A7CE  # the same stream of the seed as play's session draws chance from
LOG_KEPT = 200            # log lines kept per seat
LOG_SENT = 60             # the newest of them a page is sent (it shows them all, newest last)
POLL = 0.05               # seconds between looks at the clock while a human's sand runs


class Seat:
    """A seat: a human (reached by ``token``) or a bot (``bot``, named ``name``)."""

    def __init__(self, index: int, name: str, bot: Any = None, quick: bool = False) -> None:
        self.index, self.name, self.bot = index, name, bot
        self.quick = quick  # a bot that answers at once (random, heuristic): played without a thread
        self.token = secrets.token_urlsafe(24) if bot is None else None
        self.log: List[str] = []

    @property
    def human(self) -> bool:
        return self.bot is None


class Watcher:
    """One open page. A change of the table only marks it stale; its message is drawn when its
    sender is ready to send (``take``), from the table as it is then: a slow page gets the newest
    state, never a backlog, and steps played in a burst (bots moving at once) are drawn once."""

    def __init__(self, table: "Table", seat: Optional[int]) -> None:
        self.table, self.seat = table, seat
        self.ready = asyncio.Event()

    def put(self) -> None:
        self.ready.set()

    async def take(self) -> str:
        await self.ready.wait()
        self.ready.clear()
        return self.table.message_text(self.seat)


class Table:
    def __init__(self, table_id: str, game: Any, seed: int, seats: List[Seat], clock: Any = None,
                 bot_delay: float = 0.0, on_over: Optional[Callable[["Table"], None]] = None) -> None:
        self.id, self.game, self.seed, self.seats = table_id, game, seed, seats
        self.clock = clock or WallClock()
        self.bot_delay = bot_delay
        self.on_over = on_over
        self.spectator_token = secrets.token_urlsafe(24)
        self.realtime = realtime.is_realtime(game)
        self.state = game.new_state(seed)
        self.actors: List[int] = []  # who made each step (-1: chance or time)
        self.spectator_log: List[str] = []
        self.chance_rng = Rng(derive_seed(seed, CHANCE_STREAM))
        self.undo_secret = new_secret()
        self.watchers: List[Watcher] = []
        self.moved = asyncio.Event()  # set when a human's move (or undo) changed the state
        self.turn_started: Optional[float] = None  # clock time the current human's sand started
        self.turn_top = 0
        self.turn_running = False
        self.error: Optional[str] = None
        self.task: Optional[asyncio.Task] = None
        self.legend = [list(pair) for pair in legend(game)]
        self.version = 0  # counts the changes pages are told of
        self._texts: Dict[Any, str] = {}

    # ---- who is who -----------------------------------------------------------------------------
    def seat_of(self, token: str) -> Optional[int]:
        """The seat a link's token opens, -1 for the spectator's link, None for no link of this table."""
        if secrets.compare_digest(token, self.spectator_token):
            return -1
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(token, seat.token):
                return seat.index
        return None

    @property
    def names(self) -> List[str]:
        return [s.name for s in self.seats]

    # ---- the loop -------------------------------------------------------------------------------
    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def run(self) -> None:
        try:
            while not self.state.is_terminal:
                player = self.state.current_player
                if player == CHANCE:
                    self._step(self._draw_chance(), -1)
                elif self.seats[player].human:
                    await self._human_turn(player)
                else:
                    await self._bot_turn(player)
            self._finish()
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a bot's failure ends the game with a message, never the server
            self.error = f"{type(e).__name__}: {e}"
            self._broadcast()

    async def _bot_turn(self, player: int) -> None:
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        seat = self.seats[player]
        if seat.quick:  # handing a sub-millisecond move to a thread costs more than the move
            action = seat.bot.act(self.state)
        else:  # a search or a program: in a worker thread, so the server keeps answering meanwhile
            action = await asyncio.to_thread(seat.bot.act, self.state.clone())
        if not self.state.is_legal(action):
            raise ValueError(f"the bot of seat {player} chose {action!r}, which is not a legal move")
        ticks = realtime.default_cost(self.state, action) if self.realtime else None
        self._step(action, player, ticks)

    def _draw_chance(self) -> int:
        outcomes = self.state.chance_outcomes(exact=True)
        scale = lcm(*(Fraction(p).denominator for _, p in outcomes))
        weights = [int(Fraction(p) * scale) for _, p in outcomes]
        return outcomes[self.chance_rng.draw_index(weights)][0]

    async def _human_turn(self, player: int) -> None:
        """Waits for the human's move (``self.moved``); on the clock, lets the sand run out."""
        self.moved.clear()
        self.turn_running = self.realtime and realtime.glass_running(self.state)
        self.turn_top = self.state.clock.top if self.realtime else 0
        self.turn_started = self.clock.now() if self.realtime else None
        self._broadcast()
        step = len(self.actors)
        while True:
            if self.turn_running and self._spent() >= self.turn_top:
                self._time_out()
                return
            try:
                await asyncio.wait_for(self.moved.wait(), POLL if self.turn_running else None)
            except asyncio.TimeoutError:
                continue
            self.moved.clear()
            if len(self.actors) != step or self.state.current_player != player:
                return  # the move (or an undo) was played by ``move``/``undo``

    def _spent(self) -> int:
        tps = self.game.options.get("ticks_per_second", 10)
        return realtime.elapsed_ticks(self.clock.now() - (self.turn_started or 0.0), tps)

    def _time_out(self) -> None:
        before = self.state.clone()
        self.state.advance(self.turn_top)
        self.actors.append(-1)
        self._log(before, None)
        self.turn_started = None
        self._broadcast()

    def _step(self, action: int, actor: int, ticks: Optional[int] = None) -> None:
        before = self.state.clone()
        if self.realtime:
            self.state.apply(action, 0 if ticks is None else ticks)
        else:
            self.state.apply(action)
        self.actors.append(actor)
        self._log(before, action)
        self._broadcast()

    def _log(self, before: Any, action: Optional[int]) -> None:
        for seat in self.seats:
            if seat.human:  # only a page reads a log: a bot's seat keeps none
                seat.log = (seat.log + seat_events(before, self.state, seat.index, action))[-LOG_KEPT:]
        self.spectator_log = (self.spectator_log + seat_events(before, self.state, None, action))[-LOG_KEPT:]

    def _finish(self) -> None:
        from ..arena.runner import tell_game_over

        bots = [s.bot for s in self.seats if s.bot is not None]
        tell_game_over(bots, self.state)
        self._broadcast()
        if self.on_over is not None:
            self.on_over(self)

    # ---- what a page asks -------------------------------------------------------------------------
    def move(self, seat: int, action: Any) -> Optional[str]:
        """Plays ``action`` (an id) for human ``seat``; None when played, else why not."""
        if self.state.is_terminal:
            return "The game is over."
        if self.state.current_player != seat or self.turn_started is None and self.realtime:
            return "It is not your turn."
        if isinstance(action, bool) or not isinstance(action, int) or not self.state.is_legal(action):
            legal = self.state.legal_actions()
            return f"{action!r} is not a legal move now: the legal moves' ids are {legal}."
        if self.realtime:
            spent = self._spent()
            if self.turn_running and spent >= self.turn_top:
                self._time_out()
                self.moved.set()
                return "Too late: the sand ran out before your move arrived."
            self._step(action, seat, max(spent, realtime.default_cost(self.state, action)))
            self.turn_started = None
        else:
            self._step(action, seat)
        self.moved.set()
        return None

    def undo(self, seat: int) -> Optional[str]:
        """Takes back ``seat``'s last move and the steps after it (play's rule); None when done."""
        if self.realtime:
            return ("No undo on the clock: the time already spent cannot be put back (and a take-back "
                    "would be free thinking time).")
        if self.state.is_terminal:
            return "The game is over."
        if self.state.current_player != seat:
            return "Undo on your turn only (while the others play, the table does not stop)."
        if seat not in self.actors:
            return "Nothing to undo: you have not moved yet."
        last = len(self.actors) - 1 - self.actors[::-1].index(seat)
        others = [a for a in self.actors[last + 1:] if a >= 0 and a != seat and self.seats[a].human]
        if others:
            return f"No undo: seat {others[0]} (a human) has moved since your last move."
        record = Record.of(self.state, self.seed)
        taken_back = record.steps[last:]
        record.steps = record.steps[:last]
        start = record.final_state(self.game)
        seeds = (secret_seed(self.undo_secret, last, i) for i in range(DEFAULT_SAMPLES))
        reveal = first_reveal(start, taken_back, seat, seeds)
        if reveal is not None:
            name = (lambda s: seat_words(s, seat))
            return (f"No undo: since your last move, {reveal.reason(name)}. Replayed from the seed the game "
                    "would be the same, and you would choose again knowing it (no undo once anything hidden "
                    "has been shown).")
        self.state = start
        self.actors = self.actors[:last]
        for s in self.seats:
            s.log = s.log + [seat_words(seat, s.index) + ": undo (the last move and the moves after it are "
                                                  "taken back)"]
        self.moved.set()
        self._broadcast()
        return None

    # ---- the pages --------------------------------------------------------------------------------
    def message(self, seat: Optional[int]) -> Dict[str, Any]:
        """The whole message a page of ``seat`` (None: a spectator) receives now."""
        view = spectator_message_dict(self.state) if seat is None else seat_message_dict(self.state, seat)
        if view["moves"] and not self.seats[seat].human:  # type: ignore[index]
            view["moves"] = []
        sand = None
        if self.turn_started is not None and self.turn_running:
            sand = {"running": True, "left": max(0, self.turn_top - self._spent())}
        return {"type": "state", "view": view, "step": len(self.actors), "names": self.names,
                "log": (self.spectator_log if seat is None else self.seats[seat].log)[-LOG_SENT:],
                "sand": sand, "error": self.error, "legend": self.legend,
                "undo": (not self.realtime) and seat is not None and seat in self.actors}

    def message_text(self, seat: Optional[int]) -> str:
        """``message(seat)`` as JSON, drawn once per change of the table and seat."""
        key = (self.version, seat)
        if key not in self._texts:
            if len(self._texts) > 4 * len(self.seats) + 4:
                self._texts.clear()
            self._texts[key] = json.dumps(self.message(seat), separators=(",", ":"))
        return self._texts[key]

    def watch(self, seat: Optional[int]) -> Watcher:
        watcher = Watcher(self, seat)
        self.watchers.append(watcher)
        watcher.put()
        return watcher

    def unwatch(self, watcher: Watcher) -> None:
        if watcher in self.watchers:
            self.watchers.remove(watcher)

    def _broadcast(self) -> None:
        self.version += 1
        for w in self.watchers:
            w.put()

    def record(self) -> Record:
        return Record.of(self.state, self.seed, self.names)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass
