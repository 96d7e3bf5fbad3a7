"""The messages of the bot protocol (docs/PROTOCOL.md), built and checked in one place: the
engine side (:mod:`dimsum.bots.external`) and the Python client (:mod:`.client`) share them.

Everything a seat's message holds is read from what that seat may see: its observation string and
vector, the legal actions (only ever asked of the seat to act), the hourglass (public in Dim Sum
Jam), and optionally a determinization, ``state.resample(seat, seed)``: a state drawn from what the
seat has seen, which holds nothing the seat does not know (hidden cards and future draws redrawn).
Nothing is built from ``str(state)`` or from another seat's view.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any, Dict, List, Optional, Sequence

from .._files import parse_json

PROTOCOL_VERSION = 1
MAX_LINE = 1 << 20  # bytes: a longer line from a bot is malformed (a runaway writer, not a reply)

# What a bot may ask for in its hello, beyond what every view holds.
WANTS = ("tensor", "determinization", "observed")
STEP_LINE = re.compile(r"^\d+\. ")  # a step of information_state_string: "12. seat 1 acts | what it changed"


class BotProtocolError(RuntimeError):
    """An external bot broke the protocol: it crashed, hung past its time, wrote something that is
    not a protocol message, or chose a move the rules refuse. The message names the bot, the move
    and what was expected."""


def encode(message: Dict[str, Any]) -> bytes:
    """One message as one line: compact JSON and a newline (JSON escapes every newline inside)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode() + b"\n"


def decode(line: bytes, expected: str) -> Dict[str, Any]:
    """A line received as a message object with a string ``type``; ValueError saying what was wrong
    (``expected`` names what should have come). The line is parsed to a bounded depth
    (``dimsum._files.parse_json``): ``[[[[...`` a million deep is refused, never a RecursionError."""
    shown = line[:120].decode("utf-8", errors="replace")
    try:
        message = parse_json(line, f"it wrote {shown!r}, which")  # "... which is not JSON (...)"
    except ValueError as e:
        raise ValueError(f"{e}; expected {expected}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ValueError(f"it wrote {shown!r}, which is not a JSON object with a \"type\"; expected {expected}")
    return message


def printable(text: str, keep_newlines: bool = False) -> str:
    """``text`` from a bot (its name, its stderr) made safe to print on the operator's terminal:
    every control character (an escape sequence could move the cursor, retitle the window or
    rewrite what is shown) written as its ``\\x..`` escape; newlines kept if asked."""
    return "".join(c if c.isprintable() or (keep_newlines and c == "\n") else ascii(c)[1:-1] for c in text)


def hello() -> Dict[str, Any]:
    from .. import __version__

    return {"type": "hello", "protocol": PROTOCOL_VERSION, "engine": f"dimsum {__version__}"}


def check_hello(message: Dict[str, Any]) -> List[str]:
    """A bot's hello: its wants (a list drawn from WANTS); ValueError for anything else."""
    expected = f'{{"type": "hello", "protocol": {PROTOCOL_VERSION}, "want": [...]}}'
    if message.get("type") != "hello":
        raise ValueError(f"it answered the hello with a {message.get('type')!r} message; expected {expected}")
    if message.get("protocol") != PROTOCOL_VERSION:
        raise ValueError(f"it speaks protocol {message.get('protocol')!r}; this engine speaks protocol "
                         f"{PROTOCOL_VERSION} (docs/PROTOCOL.md)")
    wants = message.get("want", [])
    if not isinstance(wants, list) or any(w not in WANTS for w in wants):
        raise ValueError(f"its want {wants!r} is not a list drawn from {list(WANTS)}")
    return list(wants)


def new_game(game: Any, seat: int, seed: int, move_seconds: Optional[float]) -> Dict[str, Any]:
    """The start of a game for ``seat``: the game, its options, the seat, the bot's own seed (for its
    own randomness; the deal's seed is never sent) and the time control."""
    # seat and seed first: a minimal reader (examples/protocol_bot.c) finds them before any option
    return {"type": "new_game", "seat": seat, "seed": seed, "game": game.name, "players": game.players,
            "options": dict(game.options), "num_actions": game.num_actions, "move_seconds": move_seconds}


def clock(state: Any) -> Optional[Dict[str, Any]]:
    """The hourglass as every seat sees it (Dim Sum Jam), None in a game without one."""
    glass = getattr(state, "clock", None)
    if glass is None:
        return None
    options = state.game.options
    return {"top": glass.top, "capacity": glass.capacity, "lying_down": glass.lying_down,
            "ticks_per_second": options.get("ticks_per_second"), "ticks_per_action": options.get("ticks_per_action")}


def observed(state: Any, seat: int) -> List[str]:
    """What ``seat`` has seen happen, one line a step, from its information state string: who acted
    (another seat's hidden action only as "seat 1 acts"), chance and time passing, and what changed
    in the seat's view. The string's title is left out: it names the deal's seed, from which the
    whole deal could be rebuilt."""
    return [line for line in state.information_state_string(seat).splitlines() if STEP_LINE.match(line)]


def view(state: Any, seat: int, move: int, wants: Sequence[str], determinization_seed: int,
         observed_from: int = 0) -> Dict[str, Any]:
    """The decision message for ``seat`` (the player to act in ``state``): only what it may see.
    ``observed_from``: how many of the seat's observed steps it was already sent this game."""
    message: Dict[str, Any] = {
        "type": "act", "move": move, "seat": seat, "observation": state.observation_string(seat),
        "legal": [{"id": a, "name": state.action_name(a)} for a in state.legal_actions()]}
    glass = clock(state)
    if glass is not None:
        message["clock"] = glass
    if "tensor" in wants:
        message["tensor"] = [float(x) for x in state.observation(seat)]
    if "observed" in wants:
        message["observed"] = observed(state, seat)[observed_from:]
    if "determinization" in wants:
        drawn = state.resample(seat, determinization_seed).to_bytes()
        message["determinization"] = base64.b64encode(drawn).decode("ascii")
    return message


def game_over(state: Any, seat: int) -> Dict[str, Any]:
    """The end of a game: the outcome (public once the game is over) and the seat's last view."""
    outcome = state.outcome
    return {"type": "game_over", "seat": seat, "returns": [float(r) for r in state.returns()],
            "winners": [int(w) for w in outcome.winners], "reason": outcome.reason,
            "observation": state.observation_string(seat)}


QUIT = {"type": "quit"}


def action_of(message: Dict[str, Any], legal: Dict[int, str]) -> int:
    """The action a bot's reply names: ``{"type": "action", "action": ID}`` or ``{"type": "action",
    "action": "exact name"}``. ValueError, saying what is allowed, for anything else."""
    few = ", ".join(f"{a} ({n!r})" for a, n in list(legal.items())[:6]) + (", ..." if len(legal) > 6 else "")
    expected = f'{{"type": "action", "action": ID or NAME}} with a legal id or exact name: {few}'
    if message.get("type") != "action":
        raise ValueError(f"it sent a {message.get('type')!r} message; expected {expected}")
    choice = message.get("action")
    if isinstance(choice, int) and not isinstance(choice, bool):
        if choice in legal:
            return choice
        raise ValueError(f"it chose action id {choice}, which is not legal here; the legal ones are {few}")
    if isinstance(choice, str):
        for action, name in legal.items():
            if name == choice:
                return action
        raise ValueError(f"it chose {choice[:80]!r}, which is not the exact name of a legal action; "
                         f"the legal ones are {few}")
    raise ValueError(f"its action {choice!r:.80} is neither an id (an int) nor a name (a string); expected {expected}")
