"""The Python side of a protocol bot: ``run_bot(choose)`` reads the engine's messages from stdin,
calls ``choose(view)`` at each decision and writes its answer, until ``quit`` or end of input.

    from dimsum.protocol import run_bot
    run_bot(lambda view: view.legal[0].id)          # a whole protocol bot: the first legal move

While ``choose`` runs, ``sys.stdout`` is the process's stderr, so a ``print`` in a bot cannot
corrupt the protocol (docs/PROTOCOL.md).
"""

from __future__ import annotations

import base64
import sys
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Dict, List, Optional, Sequence, Union

from .messages import PROTOCOL_VERSION, WANTS, decode, encode


@dataclass(frozen=True)
class Legal:
    """A legal action: its id and its exact name."""

    id: int
    name: str


@dataclass(frozen=True)
class NewGame:
    """The ``new_game`` message: the game and its options, the bot's seat and seed, the time control."""

    game: str
    options: Dict[str, Any]
    players: int
    seat: int
    seed: int
    num_actions: int
    move_seconds: Optional[float]

    def make_game(self) -> Any:
        """The game as ``dimsum.make`` builds it (needs dimsum; a bot need not use it)."""
        import dimsum

        return dimsum.make(self.game, **self.options)


@dataclass(frozen=True)
class View:
    """An ``act`` message: what the seat sees when it is to move."""

    move: int
    seat: int
    observation: str
    legal: List[Legal]
    clock: Optional[Dict[str, Any]] = None
    tensor: Optional[List[float]] = None
    determinization: Optional[bytes] = None  # state.to_bytes() of a state drawn from the seat's view
    observed: Optional[List[str]] = None  # the steps the seat saw since its last view
    message: Dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameOver:
    """A ``game_over`` message: the returns, the winning seats, why it ended, the seat's last view."""

    seat: int
    returns: List[float]
    winners: List[int]
    reason: str
    observation: str


Choice = Union[int, str]


def run_bot(choose: Callable[[View], Choice], *, name: str = "python protocol bot", want: Sequence[str] = (),
            new_game: Optional[Callable[[NewGame], None]] = None,
            game_over: Optional[Callable[[GameOver], None]] = None,
            input: Optional[IO[bytes]] = None, output: Optional[IO[bytes]] = None) -> int:
    """Plays through the protocol until ``quit`` or end of input; returns 0 (an exit code).

    ``choose(view)`` returns an action id (int) or an exact action name (str). ``want``: extras
    each view should carry, from ``"tensor"``, ``"determinization"`` and ``"observed"``. ``new_game`` and
    ``game_over`` are called with those messages. A message this client does not understand is a
    ValueError (the engine then sees the bot exit and names it)."""
    bad = [w for w in want if w not in WANTS]
    if bad:
        raise ValueError(f"run_bot: want {bad} is not among {list(WANTS)}")
    source = input if input is not None else sys.stdin.buffer
    sink = output if output is not None else sys.stdout.buffer
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # a print() in the bot goes to stderr, never into the protocol
    try:
        for line in source:
            message = decode(line, "an engine message")
            kind = message["type"]
            if kind == "hello":
                if message.get("protocol") != PROTOCOL_VERSION:
                    raise ValueError(f"the engine speaks protocol {message.get('protocol')!r}, this client "
                                     f"{PROTOCOL_VERSION}")
                reply: Dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name,
                                         "want": list(want)}
            elif kind == "new_game":
                if new_game is not None:
                    new_game(NewGame(**{k: message[k] for k in NewGame.__dataclass_fields__}))
                continue
            elif kind == "act":
                reply = {"type": "action", "action": choose(_view(message))}
            elif kind == "game_over":
                if game_over is not None:
                    game_over(GameOver(**{k: message[k] for k in GameOver.__dataclass_fields__}))
                continue
            elif kind == "quit":
                return 0
            else:
                raise ValueError(f"unknown engine message type {kind!r} (protocol {PROTOCOL_VERSION})")
            sink.write(encode(reply))
            sink.flush()
    finally:
        sys.stdout = real_stdout
    return 0


def _view(message: Dict[str, Any]) -> View:
    drawn = message.get("determinization")
    return View(message["move"], message["seat"], message["observation"],
                [Legal(item["id"], item["name"]) for item in message["legal"]], message.get("clock"),
                message.get("tensor"), base64.b64decode(drawn) if drawn is not None else None,
                message.get("observed"), message)
