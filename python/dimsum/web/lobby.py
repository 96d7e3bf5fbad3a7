"""What the lobby accepts from a page: a game, its options and who sits where, checked before
anything is made. A page is not trusted (docs/SECURITY.md): it names a game from ``dimsum.games()``,
options as JSON scalars that ``dimsum.make`` checks, and for each seat ``"human"`` or the name of a
bot on the operator's allow-list; it never names a command, a path or a bot's parameters.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Mapping, Tuple

import dimsum
import dimsum.bots

MAX_OPTIONS = 32
MAX_TEXT = 64
DEFAULT_BOTS: Dict[str, Tuple[str, Dict[str, Any]]] = {
    "random": ("random", {}),
    "heuristic": ("heuristic", {}),
    "ismcts": ("ismcts", {"simulations": 300}),
}


class LobbyError(ValueError):
    """A table request the lobby refuses; the message says what is allowed."""


def allow_list(named: Mapping[str, Tuple[str, Dict[str, Any]]]) -> Dict[str, Tuple[str, Dict[str, Any]]]:
    """The bots a page may seat: the defaults (which run no program and open no file) and the
    operator's named bots (``--bot NAME=SPEC``, parsed by dimsum.mcp.capabilities.parse_named)."""
    out = dict(DEFAULT_BOTS)
    out.update(named)
    return out


def describe(bots: Mapping[str, Any]) -> Dict[str, Any]:
    """What the lobby page shows: each game's default seats and small options, the bots by name."""
    from ..testing import profile

    games = {}
    for name in dimsum.games():
        game = dimsum.make(name)
        small = dict(profile(name).small or {})
        games[name] = {"title": dimsum.game_info(name).title, "players": game.players,
                       "small": {k: v for k, v in small.items() if _scalar(v)}}
    return {"games": games, "bots": sorted(bots)}


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float)) or (isinstance(value, str) and len(value) <= MAX_TEXT)


def check_request(body: Any, bots: Mapping[str, Tuple[str, Dict[str, Any]]]) -> Tuple[Any, List[str]]:
    """``{"game": NAME, "options": {...}, "seats": ["human", "random", ...]}`` -> (game, seats).
    LobbyError saying what is allowed otherwise."""
    if not isinstance(body, dict) or set(body) - {"game", "options", "seats"}:
        raise LobbyError('a table request is {"game": NAME, "options": {NAME: VALUE}, "seats": [...]}')
    name = body.get("game")
    if name not in dimsum.games():
        raise LobbyError(f"game must be one of {', '.join(dimsum.games())}")
    options = body.get("options", {})
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS:
        raise LobbyError(f"options is an object of at most {MAX_OPTIONS} name: value pairs")
    for key, value in options.items():
        if not isinstance(key, str) or len(key) > MAX_TEXT or not _scalar(value):
            raise LobbyError("each option is a name and a number, true/false, null or a short text")
    seats = body.get("seats")
    if not isinstance(seats, list) or not seats or len(seats) > 16:
        raise LobbyError("seats is a list: for each seat \"human\" or the name of an allowed bot")
    if "players" not in options:
        options = dict(options, players=len(seats))
    try:
        game = dimsum.make(name, **options)
    except (ValueError, TypeError) as e:
        raise LobbyError(f"options: {e}") from None
    if len(seats) != game.players:
        raise LobbyError(f"the game has {game.players} seats; seats names {len(seats)}")
    allowed = ["human"] + sorted(bots)
    for seat in seats:
        if seat not in allowed:
            raise LobbyError(f"a seat is one of {', '.join(allowed)} (bots by the names the operator allows)")
    if "human" not in seats:
        raise LobbyError("at least one seat is a human's")
    return game, list(seats)


def make_bots(game: Any, seats: List[str], seed: int, bots: Mapping[str, Tuple[str, Dict[str, Any]]]
              ) -> Dict[int, Any]:
    """The bots of a checked request, each seeded from the game's seed and its seat (as in play)."""
    from ..reference.rng import derive_seed

    made = {}
    for index, seat in enumerate(seats):
        if seat != "human":
            kind, params = bots[seat]
            made[index] = dimsum.bots.make(kind, game, seed=derive_seed(seed, index), **params)
    return made


QUICK_KINDS = ("random", "heuristic")  # bots that answer within a millisecond or so


def quick(seat: str, bots: Mapping[str, Tuple[str, Dict[str, Any]]]) -> bool:
    """Whether the bot named ``seat`` answers at once (its move is played without a thread)."""
    return seat in bots and bots[seat][0] in QUICK_KINDS


def fresh_seed() -> int:
    return int.from_bytes(os.urandom(4), "little")
