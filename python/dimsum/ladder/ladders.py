"""A ladder: the rungs of one game and player count, with their fixed ratings, and the rung
tournament they came from. Shipped ladders are ``dimsum/data/ladder-<game>-<players>p.json``;
:func:`load` finds them, :func:`load_file` reads one from a path (built by the operator with
``python -m dimsum.ladder.build --out``), refusing anything that is not a well-formed ladder.

A ladder file (``"format": "dimsum-ladder/1"``) holds: ``name`` (``pig-2p``), ``version`` (the
ladder version: cite it with a rating), ``game``, ``players``, ``options`` (every option of the game
the rungs were rated at), ``scale`` (``"elo"``: Bradley-Terry on the Elo scale, the ``anchor`` rung
fixed; ``"win_rate"``: a cooperative game's win rate against the game), ``command`` (the one that
rebuilds it), ``seed``, ``dimsum_version`` (the package that built it), ``rungs`` (name = spec,
rating, 95% interval, games) and ``matches`` (the rung tournament: each pair, or each team of a
cooperative game, its seed and games, and the first bot's score summed per round).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

FORMAT = "dimsum-ladder/1"
SCALES = ("elo", "win_rate")
DATA_DIR = Path(__file__).resolve().parent.parent / "data"
MAX_BYTES = 4 << 20  # a ladder file is tens of kilobytes


class LadderError(ValueError):
    """Not a ladder: a missing or malformed file, or no ladder for a game and player count."""


@dataclass(frozen=True)
class Rung:
    """A reference bot: ``name`` (its spec), its fixed ``rating`` on the ladder's scale, the 95%
    ``interval`` its tournament gave it, and the games it played there."""

    name: str
    rating: float
    interval: Tuple[float, float]
    games: int

    @property
    def spec(self) -> str:
        return self.name


@dataclass(frozen=True)
class Match:
    """A match of the rung tournament: ``bots`` (one rung, or two), its arena seed, games, and
    the first bot's score summed over each round's games."""

    bots: Tuple[str, ...]
    seed: int
    games: int
    round_scores: Tuple[float, ...]


@dataclass(frozen=True)
class Ladder:
    name: str
    version: int
    game: str
    players: int
    options: Dict[str, Any]
    scale: str
    anchor: Optional[Tuple[str, float]]
    command: str
    seed: int
    dimsum_version: str
    rungs: Tuple[Rung, ...]
    matches: Tuple[Match, ...]

    @property
    def cooperative(self) -> bool:
        return self.scale == "win_rate"

    def rung(self, name: str) -> Rung:
        for rung in self.rungs:
            if rung.name == name:
                return rung
        raise LadderError(f"ladder {self.name} has no rung {name!r}; its rungs are {', '.join(r.name for r in self.rungs)}")

    def make_game(self) -> Any:
        """The game the rungs were rated at: ``dimsum.make(game, **options)``."""
        import dimsum

        return dimsum.make(self.game, **self.options)

    def citation(self) -> str:
        return f"dimsum ladder {self.name} v{self.version}"

    def to_json(self) -> Dict[str, Any]:
        return {
            "format": FORMAT, "name": self.name, "version": self.version, "game": self.game,
            "players": self.players, "options": self.options, "scale": self.scale,
            "anchor": None if self.anchor is None else {"rung": self.anchor[0], "rating": self.anchor[1]},
            "command": self.command, "seed": self.seed, "dimsum_version": self.dimsum_version,
            "rungs": [{"name": r.name, "rating": r.rating, "interval": list(r.interval), "games": r.games}
                      for r in self.rungs],
            "matches": [{"bots": list(m.bots), "seed": m.seed, "games": m.games, "round_scores": list(m.round_scores)}
                        for m in self.matches],
        }

    def save(self, path: Union[str, Path]) -> None:
        from .._files import write_atomically

        write_atomically(Path(path), json.dumps(self.to_json(), indent=1) + "\n")


def shipped() -> List[str]:
    """The names of the shipped ladders (``pig-2p``), sorted."""
    return sorted(p.stem[len("ladder-"):] for p in DATA_DIR.glob("ladder-*.json"))


def shipped_path(name: str) -> Path:
    return DATA_DIR / f"ladder-{name}.json"


def load(game: str, players: Optional[int] = None) -> Ladder:
    """The shipped ladder of ``game`` at ``players`` seats (default: the game's default count);
    LadderError naming the shipped ladders when there is none."""
    import dimsum

    if not isinstance(game, str) or game not in dimsum.games():
        raise LadderError(f"unknown game {game!r}; the games are {', '.join(dimsum.games())}")
    if players is None:
        players = dimsum.make(game).players
    name = f"{game}-{players}p"
    if name not in shipped():
        raise LadderError(f"no ladder ships for {game} with {players} players (shipped: {', '.join(shipped())}); "
                          f"build one with python -m dimsum.ladder.build --game {game} --players {players} "
                          f"--out FILE and pass it as --ladder FILE")
    return load_file(shipped_path(name))


def load_file(path: Union[str, Path]) -> Ladder:
    """A ladder read from ``path``: a regular file of at most 4 MiB holding a well-formed ladder
    (LadderError saying what is wrong otherwise; OSError when it cannot be opened)."""
    from .._files import parse_json, read_regular

    data = parse_json(read_regular(path, "a ladder file", MAX_BYTES), "a ladder file")
    try:
        return from_json(data)
    except LadderError as e:
        raise LadderError(f"{path}: {e}") from None


def from_json(data: Any) -> Ladder:
    """A :class:`Ladder` from its JSON object, every field checked."""
    import dimsum

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LadderError(f"not a ladder: a JSON object with \"format\": \"{FORMAT}\" was expected")
    game = _field(data, "game", str)
    if game not in dimsum.games():
        raise LadderError(f"unknown game {game!r}; the games are {', '.join(dimsum.games())}")
    scale = _field(data, "scale", str)
    if scale not in SCALES:
        raise LadderError(f"scale is one of {', '.join(SCALES)}, got {scale!r:.40}")
    options = _field(data, "options", dict)
    try:
        made = dimsum.make(game, **options)
    except (ValueError, TypeError) as e:
        raise LadderError(f"its options are not {game}'s: {e}") from None
    players = _field(data, "players", int)
    if made.players != players:
        raise LadderError(f"players is {players} but its options say {made.players}")
    rungs = tuple(Rung(_field(r, "name", str), _number(r, "rating"), _interval(r), _field(r, "games", int))
                  for r in _items(data, "rungs", 64))
    if len(rungs) < (1 if scale == "win_rate" else 2) or len({r.name for r in rungs}) != len(rungs):
        raise LadderError("a ladder needs distinct rungs: at least two (one in a cooperative game)")
    anchor = data.get("anchor")
    if anchor is not None:
        anchor = (_field(anchor, "rung", str), _number(anchor, "rating"))
        if anchor[0] not in {r.name for r in rungs}:
            raise LadderError(f"its anchor {anchor[0]!r:.60} is not one of its rungs")
    matches = tuple(Match(tuple(_strings(m, "bots")), _field(m, "seed", int), _field(m, "games", int),
                          tuple(_numbers(m, "round_scores")))
                    for m in _items(data, "matches", 10000))
    return Ladder(_field(data, "name", str), _field(data, "version", int), game, players, dict(options), scale, anchor,
                  _field(data, "command", str), _field(data, "seed", int), _field(data, "dimsum_version", str),
                  rungs, matches)


def _field(data: Any, key: str, kind: type) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise LadderError(f"a ladder field {key!r} is missing")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise LadderError(f"the ladder field {key!r} is a {kind.__name__}, got {type(value).__name__}")
    if isinstance(value, str) and len(value) > 1000:
        raise LadderError(f"the ladder field {key!r} is longer than 1000 characters")
    if isinstance(value, int) and not 0 <= value < 1 << 64:
        raise LadderError(f"the ladder field {key!r} is out of range: {value}")
    return value


def _number(data: Any, key: str) -> float:
    if not isinstance(data, dict) or key not in data:
        raise LadderError(f"a ladder field {key!r} is missing")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise LadderError(f"the ladder field {key!r} is a finite number, got {type(value).__name__} {value!r:.40}")
    return float(value)


def _numbers(data: Any, key: str) -> List[float]:
    return [_number({key: v}, key) for v in _items(data, key, 100000)]


def _strings(data: Any, key: str) -> List[str]:
    return [_field({key: v}, key, str) for v in _items(data, key, 2)]


def _items(data: Any, key: str, most: int) -> List[Any]:
    items = _field(data, key, list)
    if not items or len(items) > most:
        raise LadderError(f"the ladder field {key!r} holds 1 to {most} items, got {len(items)}")
    return items


def _interval(rung: Any) -> Tuple[float, float]:
    values = _numbers(rung, "interval")
    if len(values) != 2 or values[0] > values[1]:
        raise LadderError("a rung's interval is [low, high]")
    return values[0], values[1]
