"""Game records: one played game as JSON that replays exactly (the arena writes them, the replay
page and ``dimsum.testing`` read them).

A record holds the game's name and options, the seed of ``new_state``, every step as
``[action, ticks]`` and, when known, the names of the players by seat and the returns::

    {"format": "dimsum-record/1", "game": "nice_buns", "options": {"players": 2, ...},
     "seed": 17, "players": ["ismcts:simulations=1000", "random"],
     "steps": [[3, 0], [12, 0], ...], "returns": [1.0, 0.0]}

``ticks`` is the time an action was charged in Dim Sum Jam (its default tick cost unless the
player took longer), and 0 in the untimed games; action -1 is ``advance(ticks)`` (time passing
with no action, Dim Sum Jam only). Replaying checks every step and names the first bad one.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

FORMAT = "dimsum-record/1"
ADVANCE = -1  # a step that only lets time pass (Dim Sum Jam's state.advance)
SEED_LIMIT = 1 << 64  # a record's seed is the int new_state took, folded into [0, 2**64)
# A record is a flat object a few levels deep; deeper nesting is refused before json.loads
# recurses into it (a RecursionError is not an answer about a file).
MAX_DEPTH = 64
MAX_BYTES = 256 << 20  # a record file read from disk: far above the longest game's (a few MB)


class RecordError(ValueError):
    """A record that is not a record, is for another game, or holds an illegal step."""


@dataclass
class Record:
    game: str
    options: Dict[str, Any]
    seed: int
    steps: List[Tuple[int, int]] = field(default_factory=list)
    players: Optional[List[str]] = None
    returns: Optional[List[float]] = None
    # the table secret its outsiders' seeds were drawn from (dimsum._secrets), kept so that a run can
    # be repeated exactly; written at the end of a game, never shown while it runs
    secret: Optional[str] = None

    # ---- making -------------------------------------------------------------------------------
    @classmethod
    def of(cls, state: Any, seed: int, players: Optional[List[str]] = None,
           secret: Optional[str] = None) -> "Record":
        """The record of ``state``, a state made by ``game.new_state(seed)`` and played since;
        ``secret``: the table secret of the seeds its outsiders got (dimsum._secrets), if any."""
        game = state.game
        if hasattr(state, "timeline"):
            steps = [(int(a), int(t)) for a, t in state.timeline]
        else:
            steps = [(int(a), 0) for a in state.history]
        returns = [float(r) for r in state.returns()] if state.is_terminal else None
        from ._common import check_seed

        if secret is not None:
            from ._secrets import check_secret

            secret = check_secret(secret)
        return cls(game.name, dict(game.options), check_seed(seed), steps, players, returns, secret)

    # ---- JSON ---------------------------------------------------------------------------------
    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"format": FORMAT, "game": self.game, "options": self.options, "seed": self.seed}
        if self.players is not None:
            out["players"] = list(self.players)
        out["steps"] = [list(step) for step in self.steps]
        if self.returns is not None:
            out["returns"] = list(self.returns)
        if self.secret is not None:
            out["secret"] = self.secret
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    def save(self, path: Union[str, Path]) -> None:
        """Writes the record to ``path`` atomically, never through a symbolic link found there
        (an OSError: ``dimsum._files.write_atomically``)."""
        from ._files import write_atomically

        write_atomically(Path(path), self.dumps() + "\n")

    @classmethod
    def from_json(cls, data: Any, source: str = "record") -> "Record":
        """Checks the shape of ``data`` (a parsed JSON object); RecordError says what is wrong,
        naming the field (and the step or entry) at fault."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"{source} is not a dimsum record (a JSON object with \"format\": \"{FORMAT}\")")
        for key, kind in (("game", str), ("options", dict), ("seed", int), ("steps", list)):
            if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
                raise RecordError(f"{source}: {key!r} must be a {kind.__name__}, got {_short(data.get(key))}")
        if not all(isinstance(k, str) for k in data["options"]):
            raise RecordError(f"{source}: 'options' must map option names (str) to values")
        if not 0 <= data["seed"] < SEED_LIMIT:
            raise RecordError(f"{source}: 'seed' must be an int in [0, 2**64), got {_short(data['seed'])}")
        steps = []
        for i, step in enumerate(data["steps"]):
            if (not isinstance(step, list) or len(step) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in step)):
                raise RecordError(f"{source}: step {i} must be [action, ticks] (two ints), got {_short(step)}")
            steps.append((step[0], step[1]))
        players = data.get("players")
        if players is not None and not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
            raise RecordError(f"{source}: 'players' must be a list of names, got {_short(players)}")
        returns = data.get("returns")
        if returns is not None:
            if not isinstance(returns, list):
                raise RecordError(f"{source}: 'returns' must be a list of numbers, got {_short(returns)}")
            returns = [_finite(r, f"{source}: returns[{i}]") for i, r in enumerate(returns)]
        secret = data.get("secret")
        if secret is not None:
            from ._secrets import check_secret

            try:
                secret = check_secret(secret)
            except (ValueError, TypeError) as e:
                raise RecordError(f"{source}: 'secret' {e}") from None
        return cls(data["game"], data["options"], data["seed"], steps, players, returns, secret)

    @classmethod
    def loads(cls, text: Union[str, bytes], source: str = "record") -> "Record":
        if isinstance(text, (bytes, bytearray)):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError as e:
                raise RecordError(f"{source} is not a dimsum record: not UTF-8 text ({e})") from None
        if not isinstance(text, str):
            raise RecordError(f"{source} is not a dimsum record: a record is JSON text (str or UTF-8 bytes), "
                              f"got {type(text).__name__}")
        from ._files import json_depth

        depth = json_depth(text)
        if depth > MAX_DEPTH:
            raise RecordError(f"{source} is not a dimsum record: its JSON nests {depth} levels deep "
                              f"(a record nests a few; at most {MAX_DEPTH} are read)")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as e:  # RecursionError: only below MAX_DEPTH on a tiny stack
            raise RecordError(f"{source} is not a dimsum record: not JSON ({e})") from None
        return cls.from_json(data, source)

    @classmethod
    def load(cls, path: Union[str, Path]) -> "Record":
        """The record in file ``path`` (a regular file of at most MAX_BYTES: a FIFO or a device is
        refused, never waited on); RecordError saying what is wrong."""
        from ._files import read_regular

        path = Path(path)
        try:
            data = read_regular(path, "record", MAX_BYTES)
        except (OSError, ValueError) as e:
            raise RecordError(f"cannot read record {str(path)!r}: {e}") from None
        return cls.loads(data, f"record {str(path)!r}")

    # ---- replaying ----------------------------------------------------------------------------
    def make_game(self) -> Any:
        import dimsum

        try:
            return dimsum.make(self.game, **self.options)
        except (ValueError, TypeError, ArithmeticError, RecursionError) as e:  # OverflowError: a huge option
            raise RecordError(f"the record's game cannot be made: {e}") from None

    def states(self, game: Any = None) -> Iterator[Any]:
        """Every state of the game, from ``new_state(seed)`` to the last step, each a fresh copy.

        ``game``, when given, must be the record's game (same name and options). A step that is
        illegal, or a record that does not end where it says, is a RecordError naming the step."""
        from ._common import IllegalActionError

        game = self.make_game() if game is None else game
        if game.name != self.game or dict(game.options) != {**game.options, **self.options}:
            raise RecordError(f"this record is a game of {self.game} with options {self.options}, "
                              f"not of {game!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed < SEED_LIMIT:
            raise RecordError(f"the record's seed must be an int in [0, 2**64), got {_short(self.seed)}")
        state = game.new_state(self.seed)
        timed = hasattr(state, "advance")
        yield state.clone()
        for i, (action, ticks) in enumerate(self.steps):
            try:
                if timed and action == ADVANCE:
                    state.advance(ticks)
                elif timed:
                    state.apply(action, ticks)
                elif ticks != 0:
                    raise RecordError(f"step {i}: {self.game} is not timed, so ticks must be 0 (got {_short(ticks)})")
                else:
                    state.apply(action)
            except (IllegalActionError, ValueError, TypeError, ArithmeticError) as e:
                if isinstance(e, RecordError):
                    raise
                raise RecordError(f"step {i} of the record ({_short(action)}, {_short(ticks)} ticks) cannot be played: {e}") from None
            yield state.clone()
        if self.returns is not None:
            if not state.is_terminal:
                raise RecordError(f"the record gives returns but its {len(self.steps)} steps do not end the game")
            if [float(r) for r in state.returns()] != self.returns:
                raise RecordError(f"the record's returns {self.returns} are not the game's {list(state.returns())}")

    def final_state(self, game: Any = None) -> Any:
        state = None
        for state in self.states(game):
            pass
        return state


def _short(value: Any) -> str:
    """``repr(value)`` cut to 80 characters (a huge int's repr is cut before it is made whole)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return f"an int of {value.bit_length()} bits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."


def _finite(value: Any, what: str) -> float:
    """A JSON number as a finite float, or RecordError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RecordError(f"{what} must be a number, got {_short(value)}")
    try:
        number = float(value)
    except OverflowError:
        raise RecordError(f"{what} must be a finite number, got {_short(value)}") from None
    if not math.isfinite(number):
        raise RecordError(f"{what} must be a finite number, got {value!r}")
    return number
