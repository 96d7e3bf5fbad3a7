"""The rating ladder over MCP: an agent rated on a game's shipped ladder (docs/LADDER.md), game
after game, playing its seat with the server's ordinary move tools (docs/MCP.md, "Rating an agent").

``start_ladder`` opens a rating (a :class:`dimsum.ladder.Rater`, which picks the rungs near the
agent's strength) and seats the agent in its first game, a session like start_game's, played with
``play_move``; ``ladder_status``, once that game is over, records it and seats the agent in the
next, until the rating's 95% interval is narrower than asked or the game budget is spent; it then
reports the rating with its interval, the games played and the results against each rung.

The server's trust rules hold (docs/MCP.md, "Security"):

- The client names a game and a player count, never a file: the ladders are those the package
  ships. The rungs are the ladder's, made here from its specs, beyond the client's choosing (and
  beyond the caps of the bots a client may choose: they are the operator's).
- No seed reaches the client. A rating's games are dealt from a ladder secret: 128 fresh bits, or,
  when the operator gives the server a ladder seed, a keyed hash of it and the ladder's number (the
  same seed and the same moves give the same rating); a client's ``seed`` only where the operator
  allows client seeds (``--allow-seeds``), as for start_game. Each game's deal seed and table
  secret are keyed hashes of the ladder secret (:mod:`dimsum._secrets`): a finished game's record,
  which holds both, tells nothing of another game.
- The budget is bounded by the server: ``max_games`` at most ``max_ladder_games``; each game is a
  session (counted in the sessions open at once, bounded in moves like any other).

Two departures from ``dimsum.ladder.rate``, both because the candidate is an agent that remembers:
it holds one seat a game (a mind in several seats would see several hands: ``Rater(one_seat=True)``;
at two players the rounds are the arena's), and each game is dealt on its own rather than a round
sharing one deal (an agent that played a deal from one seat would know its cards from the next). A
cooperative ladder, which rates a team in every seat, is refused.
"""

from __future__ import annotations

import hashlib
import struct
import threading
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Optional, Tuple

from .._secrets import derived_secret, new_secret, secret_seed
from .table import BOT_SEEDS, Table, Tables, _move_ticks

MAX_LADDER_GAMES = 400  # the server's default bound on a rating's games (the command's default budget)
MAX_KEPT = 64  # ladders a server remembers; the oldest with no game open is forgotten first
RATER, DEALS = 0, 1  # paths under a ladder's secret: the Rater's seed, each game's deal


class LadderRun:
    """One agent's rating: ``name`` (``L1``), the ladder, its Rater and secret; the match being
    played, the results of its finished games, and the game open now (``table``)."""

    def __init__(self, name: str, ladder: Any, rater: Any, secret: str) -> None:
        self.name, self.ladder, self.rater, self.secret = name, ladder, rater, secret
        self.lock = threading.RLock()  # two calls on one ladder at once take turns
        self.plan: Any = None  # the Rater's match being played
        self.results: List[Dict[str, Any]] = []  # its finished games, in order
        self.table: Optional[Table] = None  # the game open now
        self.current: Any = None  # its PlannedGame
        self.failure: Optional[str] = None  # why the rating stopped short
        self.over = False

    def live(self) -> bool:
        """Whether a game of this rating is open (the ladder is then not forgotten)."""
        return self.table is not None and not self.table.ending.is_set()


class Ladders:
    """The ratings of one server over its :class:`Tables`: each at most ``max_games`` games;
    dealt from ``seed`` (the operator's; None: fresh secrets). Thread-safe."""

    def __init__(self, tables: Tables, max_games: int = MAX_LADDER_GAMES, seed: Optional[int] = None) -> None:
        from .._common import check_seed

        if isinstance(max_games, bool) or not isinstance(max_games, int) or max_games < 1:
            raise ValueError(f"max_ladder_games is an int >= 1, got {max_games!r}")
        self.tables, self.max_games = tables, max_games
        self.secret = new_secret() if seed is None else seed_secret(check_seed(seed))
        self._runs: "OrderedDict[str, LadderRun]" = OrderedDict()
        self._count = 0
        self._lock = threading.Lock()

    def ladders(self) -> List[str]:
        """The shipped ladders an agent may be rated on (the competitive ones)."""
        import dimsum.ladder

        return [name for name in dimsum.ladder.shipped()
                if not dimsum.game_info(name.rsplit("-", 1)[0]).cooperative]

    def start(self, game: str, players: Optional[int] = None, max_games: Optional[int] = None,
              width: Optional[float] = None, seed: Optional[int] = None) -> LadderRun:
        """A new rating of the agent on ``game``'s shipped ladder at ``players`` seats, its first game
        open. ValueError/TypeError, nothing opened, for bad input."""
        import dimsum.ladder
        from .._common import check_seed
        from ..ladder.rater import DEFAULT_MAX_GAMES

        if not isinstance(game, str):
            raise TypeError(f"game is a name, one of {', '.join(dimsum.games())}; got {type(game).__name__}")
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
            raise TypeError(f"players is an int, got {type(players).__name__}")
        if seed is not None and not self.tables.capabilities.client_seeds:
            raise ValueError("seed is refused: this server deals every game itself, since a seed the agent knows "
                             "is every deal of the rating; leave seed out. The operator can allow client seeds "
                             "(python -m dimsum mcp --allow-seeds)")
        ladder = dimsum.ladder.load(game, players)
        if ladder.cooperative:
            raise ValueError(f"{ladder.name} rates a team (one bot in every seat) by its win rate against the game: "
                             f"an agent holds one seat, so it cannot be rated there; the ladders an agent can be "
                             f"rated on are {', '.join(self.ladders())}")
        if max_games is None:
            max_games = min(DEFAULT_MAX_GAMES, self.max_games)
        if isinstance(max_games, bool) or not isinstance(max_games, int) or not 1 <= max_games <= self.max_games:
            raise ValueError(f"max_games is an int from 1 to {self.max_games} (this server's bound), got {max_games!r}")
        if seed is not None:
            seed = check_seed(seed)
        dimsum.ladder.Rater(ladder, 0, width, max_games, one_seat=True)  # checks width and max_games first
        with self._lock:  # a rating's number (and so its secret) counts the ratings that passed the checks
            self._count += 1
            number = self._count
        secret = seed_secret(seed) if seed is not None else derived_secret(self.secret, number)
        rater = dimsum.ladder.Rater(ladder, secret_seed(secret, RATER), width, max_games, one_seat=True)
        run = LadderRun(f"L{number}", ladder, rater, secret)
        with run.lock:
            self._advance(run)  # its first game: refused (nothing kept) when no session is free
        with self._lock:
            self._runs[run.name] = run
            for name in [n for n, r in self._runs.items() if not r.live()][:max(0, len(self._runs) - MAX_KEPT)]:
                del self._runs[name]
        return run

    def get(self, name: str) -> LadderRun:
        if not isinstance(name, str):
            raise TypeError(f"ladder is a rating's id such as 'L1' (start_ladder gives it), got {type(name).__name__}")
        with self._lock:
            if name not in self._runs:
                known = ", ".join(self._runs) or "none"
                raise ValueError(f"no rating {name!r} (known: {known}); start one with start_ladder")
            return self._runs[name]

    def status(self, name: str, legal_moves: bool = True) -> str:
        """The rating's state; a finished game recorded and the next one opened first."""
        run = self.get(name)
        with run.lock:
            if not run.over:
                self._advance(run)
            return status_text(run, legal_moves)

    # ---- the games ------------------------------------------------------------------------------
    def _advance(self, run: LadderRun) -> None:
        """Records the open game if it is over and opens the next; stops the rating if the game was
        ended unfinished or cannot go on. A game that cannot open (no session free) is opened by the
        next call: nothing is recorded twice, and the games' seeds do not depend on retries."""
        table = run.table
        if table is not None:
            with table.lock:
                state = table.state
                if not state.is_terminal:
                    if table.ending.is_set():
                        return self._stop(run, f"game {table.session} was ended before it finished")
                    if table.broken:
                        self._end(table)
                        return self._stop(run, f"game {table.session} cannot go on: {table.broken}")
                    return  # the agent is still playing it
                run.results.append({"index": run.current.index, "returns": state.returns(),
                                    "winners": list(state.outcome.winners)})
            self._end(table)
            run.table = run.current = None
        if run.plan is not None and len(run.results) == run.plan.game_count:
            run.rater.record(run.plan, run.results)
            run.plan, run.results = None, []
        if run.plan is None:
            run.plan = run.rater.next_match()
            if run.plan is None:
                run.over = True
                return
        planned = run.plan.games()[len(run.results)]
        run.table = self._seat(run, planned)
        run.current = planned

    def _seat(self, run: LadderRun, planned: Any) -> Table:
        """The game ``planned``: the agent in its seat, the rung in every other, dealt and seeded from
        the ladder's secret by (match, game)."""
        import dimsum.bots

        game = run.ladder.make_game()
        seat = planned.candidate_seats[0]
        key = (run.plan.number << 32) | planned.index
        secret = derived_secret(run.secret, key)
        deal = secret_seed(run.secret, DEALS, run.plan.number, planned.index)
        rung = run.plan.rung
        kind, params = dimsum.bots.parse_spec(rung.spec)
        names = [rung.name if s != seat else "agent" for s in range(game.players)]
        ticks = _move_ticks(game, None)

        def make(session: str) -> Table:
            bots = {s: dimsum.bots.make(kind, game, seed=secret_seed(secret, BOT_SEEDS, s), **params)
                    for s in range(game.players) if s != seat}
            return Table(session, game, seat, deal, bots, names, ticks, self.tables.max_moves, secret, begin=False)

        return open_table(self.tables, make)

    def _end(self, table: Table) -> None:
        if not table.ending.is_set():
            try:
                self.tables.end(table.session)
            except ValueError:
                pass  # the agent ended it meanwhile

    @staticmethod
    def _stop(run: LadderRun, reason: str) -> None:
        run.failure, run.over, run.table, run.current = reason, True, None, None


def open_table(tables: Tables, make: Callable[[str], Table]) -> Table:
    """A table made by ``make(session)`` opened in ``tables`` as :meth:`Tables.start` opens one (the
    same bound on sessions open or closing, the same refusal once the server is shutting down),
    its bots moving until the agent's turn."""
    with tables._lock:
        tables._closing = [t for t in tables._closing if not t.closed.is_set()]
        busy = len(tables._tables) + len(tables._closing)
        if tables._shut:
            raise ValueError("the server is shutting down")
        if busy >= tables.max_sessions:
            raise ValueError(f"{busy} games are open, the most this server holds ({tables.max_sessions}); end one "
                             f"with end_game ({', '.join(tables._tables) or 'some are still closing'}), then call "
                             f"ladder_status to open this rating's game")
        tables._started += 1
        table = make(f"g{tables._started}")
        tables._tables[table.session] = table
    try:
        table.begin()
    except BaseException:
        tables._drop(table)
        raise
    return table


def seed_secret(seed: int) -> str:
    """The ladder secret of a seed (the operator's, or a client's where allowed): a hash of it, so
    that the secrets of the games below it are keyed hashes as for a fresh secret."""
    return hashlib.blake2b(b"dimsum-ladder" + struct.pack("<Q", seed), digest_size=16).hexdigest()


# ---- what the agent reads -----------------------------------------------------------------------
def status_text(run: LadderRun, legal_moves: bool = True) -> str:
    from ..ladder.report import Report

    rater, ladder = run.rater, run.ladder
    lines = [f"rating {run.name} on {ladder.citation()} ({ladder.game}, {ladder.players} players; Elo scale, "
             f"random = 1000): {rater.games_played} games of at most {rater.max_games} played; it stops once the "
             f"95% interval is narrower than {rater.width:g} points or the budget is spent"]
    if run.over:
        report = Report.of(rater, "agent", run.failure is None, run.failure, None, show_seed=False)
        return "\n".join(lines + ["The rating is over." if run.failure is None else "The rating stopped short.",
                                  report.text()])
    if rater.games_played:
        estimate = rater.estimate()
        lines.append(f"rating so far: {estimate.value:.0f}, 95% interval [{estimate.low:.0f}, {estimate.high:.0f}]")
    table = run.table
    assert table is not None and run.plan is not None
    number = rater.games_played + len(run.results) + 1
    lines.append(f"Game {number}: session {table.session}, you in seat {table.seat} and {run.plan.rung.name} in every "
                 f"other seat. Play it with play_move (session={table.session!r}); once it is over, call ladder_status "
                 f"(ladder={run.name!r}) for the next game. Ending the session with end_game before it is over stops "
                 f"the rating.")
    return "\n".join(lines + ["", table.observe(legal_moves)])


def ladder_tools(ladders: Ladders) -> List[Tuple[Callable[..., str], Dict[str, Any]]]:
    """The ladder's tools and the limits their descriptions name, for the server to register."""
    limits = {"max_ladder_games": ladders.max_games, "ladders": ", ".join(ladders.ladders()),
              "seeds": ("`seed` fixes every deal of the rating (this server allows it)"
                        if ladders.tables.capabilities.client_seeds else "the server deals every game (a `seed` is refused)")}

    def start_ladder(game: str, players: Optional[int] = None, max_games: Optional[int] = None,
                     width: Optional[float] = None, seed: Optional[int] = None, legal_moves: bool = True) -> str:
        """Rates you on `game`'s rating ladder (at `players` seats; default the game's): game after game
        against reference bots with fixed ratings (Elo scale, random = 1000), chosen near your strength,
        you in one seat and the reference bot in the others. The ladders: {ladders}. `max_games`: the
        budget (default 400 or this server's bound if lower; at most {max_ladder_games}); `width`: stop once the 95% interval is narrower
        (default 100 points). {seeds}. Returns the rating's id and your first game's session and view:
        play it with play_move, then call ladder_status for the next game and, at the end, the rating
        with its interval and your results against each reference bot."""
        run = ladders.start(game, players, max_games, width, seed)
        return status_text(run, legal_moves)

    def ladder_status(ladder: str, legal_moves: bool = True) -> str:
        """Where rating `ladder` (start_ladder's id) stands. Once your game is over, it records it and
        opens your next game (its session and your view); once the budget is spent or the interval is
        narrow enough, it gives the rating with its 95% interval, the games played and your results
        against each reference bot."""
        return ladders.status(ladder, legal_moves)

    return [(start_ladder, limits), (ladder_status, limits)]
