"""A model's free-text reply read as one legal action, strictly.

A reply names a move in one of two ways, and only these: the move's exact name as the engine
writes it (``state.action_name``), ignoring case and runs of spaces, or its action id as a
decimal integer (ASCII digits, no sign, no leading zero). Surrounding white space and one pair
of matching quotes or backticks around the whole reply are dropped; nothing else is: no prefix,
no sentence around the move, no trailing full stop. A reply that could mean two legal moves (a legal move named like another's id, two
names alike but for case) is refused rather than guessed. What is refused says why and what is
allowed, so that a harness can hand the message back to the model.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from .._common import IllegalActionError

QUOTES = ('"', "'", "`")
MAX_REPLY_CHARS = 2000  # a longer reply is refused before it is read (a move name is a few words)


class ReplyError(ValueError):
    """A reply that names no legal move. ``kind``: ``"unparsed"`` (it names no move of the game),
    ``"ambiguous"`` (it could name more than one legal move) or ``"illegal"`` (a real move, not
    legal now)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class IllegalReply(ReplyError, IllegalActionError):
    """A reply naming a move of the game that is not legal now (also a dimsum.IllegalActionError)."""

    def __init__(self, message: str) -> None:
        ReplyError.__init__(self, "illegal", message)


def normalize(text: str) -> str:
    """``text`` with case folded and every run of white space one space (how names are compared)."""
    return " ".join(text.split()).casefold()


def unwrap(reply: str) -> str:
    """The reply without surrounding white space and one pair of matching quotes or backticks."""
    text = reply.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in QUOTES:
        text = text[1:-1].strip()
    return text


def legal_names(state: Any) -> List[Tuple[int, str]]:
    """``(id, name)`` of each legal action of ``state``, in id order."""
    return [(int(a), state.action_name(a)) for a in state.legal_actions()]


def parse_move(state: Any, reply: Any) -> int:
    """The legal action of ``state`` that ``reply`` names (see the module's rules).

    TypeError for a reply that is not a str; :class:`ReplyError` (a ValueError) for one that names
    no legal move, :class:`IllegalReply` (also an IllegalActionError) for a move not legal now."""
    if not isinstance(reply, str):
        raise TypeError(f"a reply is a str (a move's name or id), got {type(reply).__name__}")
    if state.is_terminal:
        raise ReplyError("unparsed", "the game is over: no move can be played")
    if state.is_chance_node:
        raise ReplyError("unparsed", "chance is to move here, not a player: no move can be played")
    if len(reply) > MAX_REPLY_CHARS:
        raise ReplyError("unparsed", f"the reply has {len(reply)} characters; a move is its name or id "
                                     f"alone (at most {MAX_REPLY_CHARS} characters)")
    text = unwrap(reply)
    legal = legal_names(state)
    by_name: Dict[str, List[int]] = {}
    for action, name in legal:
        by_name.setdefault(normalize(name), []).append(action)
    candidates = set(by_name.get(normalize(text), []))
    if _is_id(text):
        candidates |= {action for action, _ in legal if action == int(text)}
    if len(candidates) == 1:
        return candidates.pop()
    if len(candidates) > 1:
        names = ", ".join(f"{a} ({state.action_name(a)!r})" for a in sorted(candidates))
        raise ReplyError("ambiguous", f"{text!r} could be any of the legal moves {names}; "
                                      "reply with one move's exact name")
    raise _not_legal(state, text, legal)


def _not_legal(state: Any, text: str, legal: List[Tuple[int, str]]) -> ReplyError:
    """Why ``text`` names no legal move: a move that is not legal now, or no move at all."""
    allowed = "reply with the exact name or the id of one of the legal moves"
    if not text:
        return ReplyError("unparsed", f"the reply is empty; {allowed}")
    action = None
    if _is_id(text) and int(text) < state.game.num_actions:
        action = int(text)
    else:
        try:
            action = state.parse_action(text)  # the engine's own names, case and spaces ignored
        except ValueError as e:
            return ReplyError("unparsed", f"{_short(text)} is not a move of {state.game.name} ({e}); {allowed}")
    return IllegalReply(f"{state.action_name(action)!r} (id {action}) is not legal now; {allowed} "
                        f"({len(legal)} legal: {_some(legal)})")


def _is_id(text: str) -> bool:
    """An action id as written by ``str(int)``: ASCII digits, no sign, no leading zero."""
    return text.isascii() and text.isdigit() and text == str(int(text))


def _short(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _some(legal: List[Tuple[int, str]], limit: int = 12) -> str:
    shown = ", ".join(f"{a}: {n}" for a, n in legal[:limit])
    return shown + (f", ... and {len(legal) - limit} more" if len(legal) > limit else "")
