"""Plays the games of a tournament: :func:`play_chunk` is what a worker process or a Ray task runs.

A chunk is a list of game indices; everything a game needs derives from the tournament's seed and
the game's index (:mod:`.schedule`), so a chunk gives the same results wherever it runs.

Each bot acts on a copy of the game's state whose future randomness is redrawn
(``state.clone(seed)``): a bot can neither change the game nor read the coming draws from its
copy. A bot that raises (SystemExit too), returns an action the rules refuse, or takes longer than
the move time limit stops the tournament (no forfeit: a broken bot's results would mean nothing):
the chunk returns the games it finished and a :class:`BotFailure` naming the bot, the game and the
seeds.

The move time limit (``move_seconds``) is kept by an alarm (SIGALRM, :mod:`.move_timer`) in the
process that plays the games, so that a bot that hangs in Python, or in native code that checks
for signals, is stopped in its move; where no alarm can be set (Windows, a thread other than the
main one) a move that returns late still fails; with worker processes the parent also watches
each worker's current move (:mod:`.watchdog`), for a bot stuck where no signal reaches.

A worker that is interrupted (SIGINT in a Ray task; a worker process's ``STOP`` event, set by the
parent on Ctrl-C and read between games) hands back the games it finished and says so
(:class:`Chunk`); playing in this process, each game is handed over as it ends.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Tuple, Union

from .._common import IllegalActionError
from .._secrets import derived_secret
from ..reference.rng import MASK64
from .move_timer import MoveTimeout, MoveTimer, move_timer
from .players import Entrant
from .schedule import Schedule


# In a worker process: an event the parent sets to stop the chunks between two games, and the
# beacon that shows the parent which move this worker is in (local_backend, watchdog).
STOP: Optional[Any] = None
BEACON: Optional[Any] = None


@dataclass(frozen=True)
class GameResult:
    """One finished game. ``lineup``: the bot index in each seat; ``winners``: seats, from
    ``state.outcome``; ``record``: the game as a ``dimsum.records.Record`` JSON object, when asked;
    ``replies``: per seat, the model replies its bot read and how many were invalid, for bots that
    count them (``replies`` and ``invalid_replies`` attributes: the llm bot), None when no seat's does."""

    index: int
    round: int
    seed: int
    lineup: Tuple[int, ...]
    returns: Tuple[float, ...]
    winners: Tuple[int, ...]
    reason: str
    length: int
    record: Optional[Dict[str, Any]] = None
    replies: Optional[Tuple[Tuple[int, int], ...]] = None


@dataclass(frozen=True)
class BotFailure:
    """A bot that raised or played an illegal action: the tournament stops there."""

    index: int
    seat: int
    bot: str
    seed: int
    bot_seed: int
    step: int
    message: str

    def describe(self) -> str:
        return (f"bot {self.bot!r} (seat {self.seat}) failed in game {self.index} (deal seed {self.seed}, "
                f"bot seed {self.bot_seed}) at step {self.step}: {self.message}")


@dataclass(frozen=True)
class Task:
    """What a worker needs to play some games: small, and cheap to pickle. ``move_seconds``: the
    longest a bot may take for one move (None: no limit). ``secret``: the tournament's table secret,
    from which each game's is drawn (:func:`table_secret`)."""

    game: str
    options: Dict[str, Any]
    entrants: Tuple[Entrant, ...]
    schedule: Schedule
    indices: Tuple[int, ...]
    record: bool
    move_seconds: Optional[float] = None
    secret: Optional[str] = None  # the tournament's table secret: each game's is drawn from it (table_secret)


class Chunk(NamedTuple):
    """What a chunk gives back: the games it finished (in order), the bot failure that stopped it,
    and whether it was interrupted (SIGINT in the worker) before it finished."""

    finished: List[GameResult]
    failure: Optional[BotFailure]
    interrupted: bool = False


def play_games(task: Task) -> Iterator[Union[GameResult, BotFailure]]:
    """Plays ``task.indices`` in order, yielding each game as it ends; a bot failure is the last."""
    import dimsum

    from ..protocol import close_all

    game = dimsum.make(task.game, **task.options)
    makers = [entrant.maker(game) for entrant in task.entrants]
    try:
        with move_timer(task.move_seconds) as timer:
            for index in task.indices:
                if STOP is not None and STOP.is_set():
                    raise KeyboardInterrupt("the arena was interrupted")
                if BEACON is not None:
                    BEACON.playing(index)
                outcome = play_game(game, task.entrants, makers, task.schedule, index, task.record, timer,
                                    task.secret)
                yield outcome
                if isinstance(outcome, BotFailure):
                    return
    finally:  # external bots' programs live for a chunk: ended and waited for here, whatever happened
        if BEACON is not None:
            BEACON.playing(-1)
        close_all()


def play_chunk(task: Task) -> Chunk:
    """Plays ``task.indices`` in order (what a worker process or a Ray task runs); stops at the
    first bot failure. Interrupted, it returns the games it finished, ``interrupted`` set."""
    results: List[GameResult] = []
    try:
        for outcome in play_games(task):
            if isinstance(outcome, BotFailure):
                return Chunk(results, outcome)
            results.append(outcome)
    except KeyboardInterrupt:
        return Chunk(results, None, True)
    return Chunk(results, None)


def tell_game_over(bots: List[Any], state: Any) -> Optional[Tuple[int, str]]:
    """Calls ``game_over(state)`` once on each bot that has that method (an external bot tells its
    program the outcome and keeps the program for the next game; docs/PROTOCOL.md). Every bot is
    told; the first that raised is returned as (its index in ``bots``, what it raised), else None."""
    told, failed = set(), None
    for seat, bot in enumerate(bots):
        if id(bot) not in told and callable(getattr(bot, "game_over", None)):
            told.add(id(bot))
            try:
                bot.game_over(state)
            except Exception as e:  # the bot's failure, named by the caller, never a crash
                failed = failed or (seat, f"game_over() raised {type(e).__name__}: {e}")
    return failed


def table_secret(secret: str, index: int) -> str:
    """Game ``index``'s table secret, drawn from the tournament's ``secret``
    (``dimsum._secrets.derived_secret``)."""
    return derived_secret(secret, index)


def hand_out_secret(seats: List[Any], secret: Optional[str], index: int) -> Tuple[Optional[str], Optional[Tuple[int, str]]]:
    """Gives game ``index``'s table secret to every bot that draws the seeds it hands to outsiders
    from one (the ``use_table_secret(secret)`` hook: the external bot, whose program must learn
    nothing of the deal from its seeds). Returns the secret, for the game's record, if any bot took
    it, and the first bot whose hook raised (its seat, what it raised). Bots seeded by the schedule
    keep their seeds: their games are the same with or without a secret."""
    takers = [(seat, bot.use_table_secret) for seat, bot in enumerate(seats)
              if callable(getattr(bot, "use_table_secret", None))]
    if not takers or secret is None:
        return None, None
    game_secret = table_secret(secret, index)
    for seat, hook in takers:  # a bot in two seats hears it twice: the same secret, no harm
        try:
            hook(game_secret)
        except Exception as e:  # the bot's failure, named by the caller
            return game_secret, (seat, f"use_table_secret() raised {type(e).__name__}: {e}")
    return game_secret, None


def play_game(game: Any, entrants: Tuple[Entrant, ...], makers: List[Callable[[int], Any]], schedule: Schedule,
              index: int, record: bool = False, timer: Optional[MoveTimer] = None,
              secret: Optional[str] = None) -> "GameResult | BotFailure":
    lineup = schedule.lineup_of(index)
    seed = schedule.deal_seed(index)
    bot_seeds = [schedule.bot_seed(index, seat) for seat in range(len(lineup))]
    seats = []
    for seat, b in enumerate(lineup):
        try:
            seats.append(makers[b](bot_seeds[seat]))
        except Exception as e:  # a factory that fails for some seed is the bot's failure too
            return BotFailure(index, seat, entrants[b].name, seed, bot_seeds[seat], 0,
                              f"the bot could not be made: {type(e).__name__}: {e}")
    game_secret, refused = hand_out_secret(seats, secret, index)
    if refused is not None:
        at, why = refused
        return BotFailure(index, at, entrants[lineup[at]].name, seed, bot_seeds[at], 0, why)
    timer = timer if timer is not None else MoveTimer(None)
    state = game.new_state(seed)
    step = 0
    counted = [hasattr(bot, "invalid_replies") for bot in seats]  # bots that count their model's replies
    replies = [[0, 0] for _ in seats]
    while not state.is_terminal:
        seat = state.current_player
        # the copy's future is reseeded (through splitmix64 in the engine, so neighbouring seeds
        # give unrelated streams): the bot's seed plus the step, cheaper than a derive_seed a move
        view = state.clone((bot_seeds[seat] + step) & MASK64)
        failed = None
        if BEACON is not None:
            BEACON.moving(index, seat, step)
        before = (seats[seat].replies, seats[seat].invalid_replies) if counted[seat] else (0, 0)
        try:
            with timer:
                action = seats[seat].act(view)
        except MoveTimeout:
            failed = timer.too_slow(time.monotonic() - timer.started)
        except (Exception, SystemExit) as e:  # anything a bot does wrong is its failure, named, never a crash
            failed = f"act() raised {type(e).__name__}: {e}"
        else:
            if timer.limit is not None and time.monotonic() - timer.started > timer.limit:
                failed = timer.too_slow(time.monotonic() - timer.started)  # late, where no alarm stopped it
            else:
                try:
                    state.apply(action)
                except (IllegalActionError, TypeError, ValueError) as e:  # refused, the state unchanged
                    failed = f"it returned {action!r:.80}, which the rules refuse: {e}"
        if BEACON is not None:
            BEACON.idle()
        if counted[seat]:  # the move's own replies (a bot object may play several seats and games)
            replies[seat][0] += seats[seat].replies - before[0]
            replies[seat][1] += seats[seat].invalid_replies - before[1]
        if failed is not None:
            return BotFailure(index, seat, entrants[lineup[seat]].name, seed, bot_seeds[seat], step, failed)
        step += 1
    failed_at_end = tell_game_over(seats, state)
    if failed_at_end is not None:
        seat, failed = failed_at_end
        return BotFailure(index, seat, entrants[lineup[seat]].name, seed, bot_seeds[seat], step, failed)
    out = state.outcome
    saved = None
    if record:
        from ..records import Record

        saved = Record.of(state, seed, [entrants[b].name for b in lineup], secret=game_secret).to_json()
    return GameResult(index, schedule.round_of(index), seed, tuple(lineup), tuple(float(r) for r in state.returns()),
                      tuple(int(w) for w in out.winners), out.reason, step, saved,
                      tuple((r, i) for r, i in replies) if any(counted) else None)
