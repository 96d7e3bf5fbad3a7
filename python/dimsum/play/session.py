"""One game between a human at the terminal and bots in the other seats.

The loop asks each seat in turn: a bot's ``act(state)``, or the human through the screen and the
prompt. Chance nodes (``chance="explicit"``) are drawn by the session's own seeded generator.
Undo replays the game from its seed without the human's last move and the moves after it. It
is refused once those steps showed the human anything they could not see before (a card, a die or
a token drawn, by anyone or by chance; another seat's card from a hidden hand): replayed from the
seed the game would be the same, and the human would choose again knowing it (Board Game Arena's
rule: no undo once anything hidden has been shown; ``dimsum.reveals`` decides it for every game).
In a game played on the clock it is refused too (the time already spent cannot be put back, and a
take-back would let a player think for free). What is particular to a game comes from its package:
its view and shortcut keys (``dimsum.games.<name>.view``), its legend (``legend``: shown by the
``legend`` command) and its notes on what happened (``events``). What happened since the human's
last screen is told by ``dimsum.play.events`` (the steps and their words, as ``events_between``
gives them, with the bots' names and the sand each move cost), from what the human's seat saw only.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from pathlib import Path
from typing import Any, Dict, List, Optional

from .. import CHANCE
from .._secrets import new_secret, secret_seed
from ..arena.runner import tell_game_over
from ..records import Record
from ..reference.rng import Rng, derive_seed
from ..reveals import DEFAULT_SAMPLES, first_reveal
from . import realtime
from .commands import help_text, interpret, moves_text
from .events import describe, events_module, seat_words, steps_between
from .legend import legend_text
from .terminal import Terminal
from .views import game_view_module, sand_text, seat_name, view_text

EVENTS_SHOWN = 8
CHANCE_STREAM = 0xC4A7CE  # the session's chance draws: a stream of the game's seed apart from the bots'


class Quit(Exception):
    """The human left (quit, end of input, Ctrl-C); ``message`` says how."""

    def __init__(self, message: str, code: int = 0) -> None:
        super().__init__(message)
        self.message, self.code = message, code


class Session:
    """``game`` from ``dimsum.make``; ``bots`` maps every other seat to a bot; ``names`` names each
    seat (the human's by ``"human"``); ``clock`` has ``now() -> seconds`` (real-time games only)."""

    def __init__(self, game: Any, seed: int, human: int, bots: Dict[int, Any], names: List[str],
                 terminal: Terminal, clock: Any = None, record_path: Optional[Path] = None,
                 undo_secret: Optional[str] = None) -> None:
        self.game, self.seed, self.human, self.bots, self.names = game, seed, human, bots, names
        self.terminal, self.clock, self.record_path = terminal, clock, record_path
        self.realtime = realtime.is_realtime(game)
        view = game_view_module(game.name)
        self.shortcuts = getattr(view, "SHORTCUTS", ())
        self.events_hook = events_module(game.name)  # the game's notes on a step (dimsum.play.events)
        self.state = game.new_state(seed)
        self.seen: Any = None  # the state at the human's last screen (None: the start)
        self.actors: List[int] = []  # who made each step of the record (-1: chance or time)
        self.events: List[str] = []
        self.chance_rng = Rng(derive_seed(seed, CHANCE_STREAM))
        # the worlds an undo check samples: from a secret of the session's own, not from the deal
        # (a human who knows the seed cannot tell which worlds are tried), and the same for the
        # same undo asked twice (asking again cannot draw luckier worlds)
        self.undo_secret = new_secret() if undo_secret is None else undo_secret

    # ---- the game loop ------------------------------------------------------------------------
    def run(self) -> int:
        """Plays to the end (or until the human leaves); writes the record; returns an exit code."""
        try:
            while not self.state.is_terminal:
                player = self.state.current_player
                if player == CHANCE:
                    self._step(self._draw_chance(), -1)
                elif player == self.human:
                    self._human_turn()
                else:
                    self._bot_turn(player)
        except KeyboardInterrupt:  # Ctrl-C while a bot thinks (the prompt turns its own into Quit)
            return self._leave(Quit("Interrupted: you left the game.", 130))
        except Quit as q:
            return self._leave(q)
        seats = sorted(self.bots)
        failed = tell_game_over([self.bots[seat] for seat in seats], self.state)
        if failed is not None:
            return self._leave(Quit(f"The bot of {self._name(seats[failed[0]])} failed: {failed[1]}", 1))
        self._save_record()
        self._catch_up()
        self.terminal.screen(self._result_screen())
        return 0

    def _leave(self, q: Quit) -> int:
        self._save_record()
        self.terminal.write(f"\n{q.message}\n{self._record_note()}")
        return q.code

    def _step(self, action: int, actor: int, ticks: Optional[int] = None) -> None:
        """Plays ``action`` for ``actor`` (-1: chance), charging ``ticks`` in a timed game (the screen tells
        it at the human's next turn: ``_catch_up``)."""
        if self.realtime:
            self.state.apply(action, 0 if ticks is None else ticks)  # chance takes no time
        else:
            self.state.apply(action)
        self.actors.append(actor)

    def _bot_turn(self, player: int) -> None:
        try:
            action = self.bots[player].act(self.state)
            legal = self.state.is_legal(action)
        except (KeyboardInterrupt, Quit):
            raise
        except Exception as e:  # a bot's bug ends the game with a message, never a traceback
            raise Quit(f"The bot of {self._name(player)} failed: {type(e).__name__}: {e}", 1) from None
        if not legal:
            raise Quit(f"The bot of {self._name(player)} chose {action!r}, which is not a legal move; "
                       "the game stops here.", 1)
        ticks = realtime.default_cost(self.state, action) if self.realtime else None
        self._step(action, player, ticks)

    def _draw_chance(self) -> int:
        """A chance outcome drawn by its exact probability from the session's generator."""
        outcomes = self.state.chance_outcomes(exact=True)
        scale = lcm(*(Fraction(p).denominator for _, p in outcomes))
        weights = [int(Fraction(p) * scale) for _, p in outcomes]
        return outcomes[self.chance_rng.draw_index(weights)][0]

    def _name(self, seat: int) -> str:
        return seat_name(seat, self.human, self.names)

    def _log(self, line: str) -> None:
        self.events.append(line)

    def _catch_up(self) -> None:
        """Logs what the human's seat saw happen since the last time (moves, draws, complaints): the
        shared events, each move's line with the bot's name and, on the clock, the sand it cost."""
        for step in steps_between(self.seen, self.state, self.human):
            lines = describe(step, self.events_hook)
            if step.kind == "move" and lines and step.actor is not None:
                head = f"{seat_words(step.actor, self.human)}: "
                if step.actor != self.human and lines[0].startswith(head):
                    lines[0] = f"{seat_name(step.actor, self.human, self.names)}: " + lines[0][len(head):]
                if self.realtime and step.ticks:
                    lines[0] += f" ({step.ticks / self._tps():.1f} s of sand)"
            for line in lines:
                self._log(line)
        self.seen = self.state.clone()

    # ---- the human's turn ---------------------------------------------------------------------
    def _human_turn(self) -> None:
        legal = self.state.legal_actions()
        message = ""
        self._catch_up()
        started = self.clock.now() if self.realtime else 0.0
        running = self.realtime and realtime.glass_running(self.state)
        top = self.state.clock.top if self.realtime else 0
        self.terminal.screen(self._screen(legal, message))
        while True:
            line = self._read(started, running, top)
            if line is None:  # the sand ran out while the human was thinking
                self._time_out(top)
                return
            command = interpret(line, self.state, legal, self.realtime, self.shortcuts)
            if command.kind == "move":
                if self.realtime:
                    spent = realtime.elapsed_ticks(self.clock.now() - started, self._tps())
                    if running and spent >= top:  # typed after the glass had already emptied
                        self._time_out(top)
                        return
                    self._step(command.action, self.human,
                               max(spent, realtime.default_cost(self.state, command.action)))
                else:
                    self._step(command.action, self.human)
                return
            if command.kind == "quit":
                raise Quit("You left the game.")
            if command.kind == "undo":
                message = self._undo()
                if message is None:
                    return
            elif command.kind == "legend":
                message = "What the words and marks mean:\n" + legend_text(self.game)
            elif command.kind == "help":
                message = help_text(self.realtime, self._undo_note(), self.shortcuts)
            elif command.kind == "again":
                message = "Type a move's number or name (help lists the commands)."
            else:
                message = command.message
            self.terminal.screen(self._screen(legal, message))

    def _read(self, started: float, running: bool, top: int) -> Optional[str]:
        """The human's next line; in real time, None once the sand has run out (the status line
        shows the sand left meanwhile). EOF and Ctrl-C become Quit."""
        try:
            if not self.realtime:
                return self.terminal.read_line()
            while True:
                spent = realtime.elapsed_ticks(self.clock.now() - started, self._tps())
                if running and spent >= top:
                    return None
                self.terminal.status(self._sand_status(top - spent, spent) if running else self._paused_status())
                line = self.terminal.read_line(timeout=0.1)
                if line is not None:
                    return line
        except EOFError:
            raise Quit("End of input: you left the game.") from None
        except KeyboardInterrupt:
            raise Quit("Interrupted: you left the game.", 130) from None

    def _time_out(self, top: int) -> None:
        """The glass emptied during the human's turn: time passes to zero and the rules follow."""
        self._catch_up()
        self.state.advance(top)
        self.actors.append(-1)
        self._log(f"The sand ran out while you were thinking ({top / self._tps():.1f} s).")
        self._catch_up()

    # ---- undo ---------------------------------------------------------------------------------
    def _undo_note(self) -> str:
        if self.realtime:
            return ("not in a game played on the clock: the time already spent cannot be put back "
                    "(and a take-back would be free thinking time)")
        return ("take back your last move and the bots' moves after it, unless they showed you something "
                "you could not see before (a card, a die or a token drawn; a card from a hidden hand)")

    def _undo(self) -> Optional[str]:
        """Takes back the human's last move and everything after it; None when done, else why not."""
        if self.realtime:
            return "No undo here: " + self._undo_note() + "."
        if self.human not in self.actors:
            return "Nothing to undo: you have not moved yet."
        last = len(self.actors) - 1 - self.actors[::-1].index(self.human)
        record = Record.of(self.state, self.seed)
        taken_back = record.steps[last:]
        record.steps = record.steps[:last]
        start = record.final_state(self.game)  # replayed from the seed: the same draws as before
        seeds = (secret_seed(self.undo_secret, last, i) for i in range(DEFAULT_SAMPLES))
        reveal = first_reveal(start, taken_back, self.human, seeds)
        if reveal is not None:
            return (f"No undo: since your last move, {reveal.reason(self._name)}. Replayed from the seed the "
                    "game would be the same, and you would choose again knowing it (no undo once anything "
                    "hidden has been shown).")
        self.state = start
        self.seen = start.clone()
        self.actors = self.actors[:last]
        self._log(f"{seat_words(self.human, self.human)}: undo (your last move and the moves after it are taken back)")
        return None

    # ---- screens ------------------------------------------------------------------------------
    def _tps(self) -> int:
        return self.game.options.get("ticks_per_second", 10)

    def _sand_status(self, left: int, spent: int) -> str:
        clock = self.state.clock
        return (f"{sand_text(max(0, left), clock.capacity, self._tps(), clock.lying_down)}   "
                f"your thinking time: {spent / self._tps():.1f} s")

    def _paused_status(self) -> str:
        clock = self.state.clock
        return (f"{sand_text(clock.top, clock.capacity, self._tps(), clock.lying_down)}   "
                "the game is paused: no sand runs now")

    def _title(self) -> str:
        # never the seed while the game runs: from it the deal and every future draw can be
        # computed (the record written at the end has it)
        return (f"{self.game.name}, you are seat {self.human}; "
                + ", ".join(f"seat {s}: {n}" for s, n in enumerate(self.names) if s != self.human))

    def _screen(self, legal: List[int], message: str) -> str:
        if self.realtime:
            first = self._sand_status(self.state.clock.top, 0) if realtime.glass_running(self.state) \
                else self._paused_status()
        else:
            first = self._title()
        parts = [first, "", view_text(self.state, self.human, self.names), ""]
        if self.events:
            parts += ["What happened:"] + [f"  {e}" for e in self.events[-EVENTS_SHOWN:]] + [""]
        parts += ["Your moves:", moves_text(self.state, legal, self.terminal.width), ""]
        if message:
            parts += [message, ""]
        return "\n".join(parts) + "\n" + self._prompt(legal)

    def _prompt(self, legal: List[int]) -> str:
        extra = "f = flip, " if self.realtime else "undo, "
        return f"[step {len(self.actors)}] your move (1-{len(legal)} or a name; {extra}legend, help, quit): "

    def _result_screen(self) -> str:
        outcome = self.state.outcome
        returns = ", ".join(f"{seat_name(s, self.human, self.names)}: {r:g}" for s, r in enumerate(outcome.returns))
        winners = ", ".join(seat_name(s, self.human, self.names) for s in outcome.winners) or "nobody"
        lines = ["GAME OVER: " + outcome.description, f"Returns: {returns}", f"Winners: {winners}", "",
                 view_text(self.state, self.human, self.names), ""]
        if self.events:
            lines += ["Last moves:"] + [f"  {e}" for e in self.events[-EVENTS_SHOWN:]] + [""]
        return "\n".join(lines) + self._record_note()

    # ---- the record ---------------------------------------------------------------------------
    def _save_record(self) -> None:
        if self.record_path is not None:
            Record.of(self.state, self.seed, self.names).save(self.record_path)

    def _record_note(self) -> str:
        return f"The game is recorded in {self.record_path}.\n" if self.record_path else ""
