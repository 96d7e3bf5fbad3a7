"""The external bot: a program in any language that plays through the bot protocol
(docs/PROTOCOL.md) over its stdin and stdout.

``dimsum.bots.make("external", game, seed, command=["./bot", "--depth", "3"], move_seconds=10)``;
as a spec string (the arena, ``play``): ``external:command=./bot --depth 3,move_seconds=10``, the
command split into words as a POSIX shell would split them (quotes kept together) but never run
by a shell. A spec cannot hold a comma or a colon (they separate a spec's parts): give such a
command as a list from Python, or wrap it in a script.

For each seat it holds in a game the bot leases a process for its argv
(:mod:`dimsum.protocol.process`): a new one, or one that finished its last game cleanly (one bot
object seated twice, as the arena seats an object in every seat of a cooperative game, runs two
programs). At the seat's first move it sends ``new_game``, then an ``act`` message per move with
only what the seat may see; ``game_over(state)`` (called by the arena and by ``play`` when the game
ends) sends the outcome and hands the processes back. A crash, a
timeout, a malformed line or a move the rules refuse is a :class:`BotProtocolError` naming the bot,
the move and what was expected, and the process is killed with its whole process group (never
left running, never a zombie); ``close()`` ends every program the bot holds.

The program is an outsider (docs/SECURITY.md): the seeds it receives come from a table secret
(``dimsum._secrets``), never from the seed the bot was made with, which the arena and ``play``
derive from the deal's seed by an invertible step; and the bot is named, in errors, results and
records, without the machine's paths (``public_command``).
"""

from __future__ import annotations

import math
import shlex
import shutil
import time
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Union

from .._secrets import check_secret, secret_seed
from ..protocol import messages
from ..protocol.messages import BotProtocolError
from ..protocol.process import BotProcess, close_all, lease, public_command, release
from ._checks import check_can_act

MOVE_SECONDS = 60.0  # the default time limit of a move (and of the start and hello): the arena's
# The paths under the table secret of the seeds a program receives (dimsum._secrets.secret_seed):
# (NEW_GAME_SEEDS, seat, game) for new_game's seed, (DETERMINIZATION_SEEDS, seat, game, move) for
# the determinization of a move: apart from each other, and from every seed the engine uses itself.
NEW_GAME_SEEDS = 0
DETERMINIZATION_SEEDS = 1


def command_argv(command: Any, check_program: bool = True) -> List[str]:
    """``command`` as an argv list: a list of strings as it is, a string split into words (shlex, no
    shell); the program must exist (if ``check_program``). ValueError/TypeError saying what is
    allowed otherwise."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise ValueError(f"external bot command {command!r} cannot be split into words: {e}") from None
    elif isinstance(command, (list, tuple)) and all(isinstance(word, str) for word in command):
        argv = list(command)
    else:
        raise TypeError(f"the external bot's command is a list of strings (an argv) or a string of words, "
                        f"got {type(command).__name__} {command!r:.60}")
    if not argv or not argv[0]:
        raise ValueError("the external bot's command is empty; give the program to run, e.g. command=./bot")
    if check_program and shutil.which(argv[0]) is None:
        raise ValueError(f"the external bot's program {argv[0]!r} is not an executable file (nor one on PATH)")
    return argv


@dataclass
class _Seat:
    """A game in progress at one seat: its program, its number among the games this bot started
    under its secret, the moves made, the history length last seen (a shorter history at the next
    move is a new game), the observed steps sent."""

    process: BotProcess
    game: int
    moves: int = 0
    last_length: int = -1
    observed: int = 0  # steps of the seat's information state already sent (the "observed" extra)


class ExternalBot:
    """A bot that is a separate program speaking the protocol (docs/PROTOCOL.md).

    - ``command``: the program and its arguments (a list; a string is split into words, no shell);
    - ``move_seconds``: the longest the program may take for a move, and to start and say hello
      (> 0; default 60; None: no limit of its own, the arena's own limit still applies);
    - ``secret``: the table secret (``dimsum._secrets``, 32 hex digits) every seed sent to the
      program is drawn from; default a fresh one. The arena hands each game's bots a secret of its
      own (:meth:`use_table_secret`) and keeps it in the game's record, so a game replays exactly.

    ``seed`` (the arena's and ``play``'s seed for the bot) is never sent: it comes from the deal's
    seed through an invertible step, so the program could compute the deal from it. The seeds the
    program receives (``new_game``'s, the determinizations') come from the secret alone, are 53
    bits wide (exact in every JSON reader) and tell nothing of the deal nor of each other.
    ``close()`` ends every program the bot holds."""

    kind = "external"

    def __init__(self, game: Any, seed: int = 0, command: Union[str, Sequence[str]] = "",
                 move_seconds: Optional[float] = MOVE_SECONDS, secret: Optional[str] = None) -> None:
        self.game = game
        self.seed = seed
        self.argv = command_argv(command)
        self.shown = public_command(self.argv)
        if move_seconds is not None:
            if isinstance(move_seconds, bool) or not isinstance(move_seconds, (int, float)):
                raise TypeError(f"external bot parameter move_seconds is a number of seconds or None, "
                                f"got {type(move_seconds).__name__}")
            if not (0 < move_seconds <= 1e6 and math.isfinite(move_seconds)):
                raise ValueError(f"external bot parameter move_seconds must be in (0, 1000000], got {move_seconds}")
            move_seconds = float(move_seconds)
        self.move_seconds = move_seconds
        self.secret = _check_secret(secret)
        self.games = 0  # games started under the secret (new_game messages sent): a seed's path
        self.seats: Dict[int, _Seat] = {}  # the game in progress, per seat this bot holds in it

    @staticmethod
    def public_params(params: Dict[str, Any]) -> Dict[str, Any]:
        """The parameters as a spec's name shows them (in results and records, shared with
        others): the command without machine paths (``public_command``), no secret."""
        shown = {key: value for key, value in params.items() if key != "secret"}
        if "command" in shown:
            try:
                shown["command"] = public_command(command_argv(shown["command"], check_program=False))
            except (ValueError, TypeError):
                pass
        return shown

    def use_table_secret(self, secret: str) -> None:
        """Draws the seeds of the games from now on from ``secret`` (the arena's hook: one secret per
        game, drawn by the arena and kept in its record), counting games from 0 again."""
        self.secret = _check_secret(secret)
        self.games = 0

    def label(self, process: Optional[BotProcess] = None) -> str:
        name = f" ({process.name})" if process is not None and process.name else ""
        return f"external bot {self.shown!r}{name}"

    def _deadline(self) -> float:
        return time.monotonic() + (self.move_seconds if self.move_seconds is not None else math.inf)

    def act(self, state: Any) -> int:
        """Sends the seat's view and returns the legal action the program chose."""
        check_can_act(self.kind, self.game, state)
        seat = state.current_player
        length = len(state.history)
        current = self.seats.get(seat)
        if current is not None and length <= current.last_length:
            self._abandon(seat)  # a new game without game_over for the last one: the program hears new_game
            current = None
        deadline = self._deadline()
        try:
            if current is None:
                current = _Seat(lease(self.argv, deadline, holder=self, shown=self.shown), self.games)
                self.games += 1
                self.seats[seat] = current
                seed = secret_seed(self.secret, NEW_GAME_SEEDS, seat, current.game)
                current.process.send(messages.new_game(self.game, seat, seed, self.move_seconds), deadline)
            current.last_length = length
            process = current.process
            process.check_quiet()
            seed = secret_seed(self.secret, DETERMINIZATION_SEEDS, seat, current.game, current.moves)
            message = messages.view(state, seat, current.moves, process.wants, seed, current.observed)
            process.send(message, deadline)
            current.observed += len(message.get("observed", ()))
            reply = process.receive(deadline, '{"type": "action", "action": ID or NAME}')
            legal = {a: state.action_name(a) for a in state.legal_actions()}
            try:
                action = messages.action_of(reply, legal)
            except ValueError as e:
                raise BotProtocolError(str(e)) from None
        except BotProtocolError as e:
            move = current.moves if current is not None else 0
            where = f"{self.label(current.process if current is not None else None)} (seat {seat}) at its move {move}"
            self._abandon(seat, kill=True)
            raise BotProtocolError(f"{where}: {e}") from None
        except BaseException:  # the arena's move alarm, Ctrl-C: the program is mid-move, end it
            self._abandon(seat, kill=True)
            raise
        current.moves += 1
        return action

    def game_over(self, state: Any) -> None:
        """Tells the program of each seat this bot held how the game ended (``state`` is terminal)
        and keeps the processes for the next game. Never raises: a program that is gone by now is
        simply not kept."""
        seats, self.seats = self.seats, {}
        for seat, current in sorted(seats.items()):
            if not state.is_terminal:
                current.process.kill()
                continue
            try:
                current.process.send(messages.game_over(state, seat), self._deadline())
            except BotProtocolError:
                current.process.kill()
                continue
            release(current.process)

    def close(self) -> None:
        """Ends every program this bot holds (those of its games in progress, and those it handed
        back to the pool for its next game): quit, a grace period, then each one's whole process
        group killed. Safe to call more than once; the bot starts new programs if it plays again."""
        self.seats = {}
        close_all(holder=self)

    def _abandon(self, seat: int, kill: bool = False) -> None:
        """Drops the game in progress at ``seat``: its process is killed (it broke the protocol or is
        mid-move) or kept, to hear ``new_game`` next (a game left without a game_over)."""
        current = self.seats.pop(seat, None)
        if current is not None:
            current.process.kill() if kill else release(current.process)

    # A bot copied to a worker process or a Ray node starts its own program there.
    def __getstate__(self) -> Dict[str, Any]:
        return {**self.__dict__, "seats": {}}

    def __repr__(self) -> str:
        return f"ExternalBot({self.shown!r}, move_seconds={self.move_seconds})"


def _check_secret(secret: Any) -> str:
    if isinstance(secret, int) and not isinstance(secret, bool) and 0 <= secret < 10 ** 32:
        secret = f"{secret:032d}"  # a spec string's value of decimal digits only, read as an int
    try:
        return check_secret(secret)
    except (ValueError, TypeError) as e:
        raise type(e)(f"external bot parameter secret: {e}") from None
