"""Error text fit for an MCP client: bounded in length, always with its reason, and naming no path
of the server's machine that the client did not give.

An error often quotes its input ("unknown game 'xxx'"), and a client's input can be megabytes: an
argument quoted in full would be echoed back whole (and into the model's context). A message is
therefore cut: each long argument it quotes to its start and its length, and the whole message to
``MAX_ERROR`` characters. An exception nobody anticipated (an OSError, a bug) is described by its
kind and reason instead of the SDK's bare "Error executing tool", without a traceback; a path in
it that the client did not give (an operator's bot program, a policy file, the server's own
files) is written ``<path>``.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, List

MAX_ERROR = 1500  # characters of an error message: a few sentences and the lists of what is allowed
LONG = 100  # an argument longer than this is quoted cut
QUOTED = 60  # characters of a long argument kept in its quote
_MAX_STRINGS = 1000  # arguments' strings looked at (an object of a million keys is not walked whole)

# An absolute path: POSIX (/usr/bin/x, ~/x) or Windows (C:\x), not preceded by a word character
# or a colon (so "1/2", "and/or" and a URL's "https://" are not paths).
_PATH = re.compile(r"(?<![\w/~.:\\-])(?:~?/[^\s'\"`,;()\[\]{}<>]+|[A-Za-z]:\\[^\s'\"`,;()\[\]{}<>]+)")


def strings_of(arguments: Any) -> List[str]:
    """The strings in a tool's arguments (values and keys, nested), at most ``_MAX_STRINGS``."""
    found: List[str] = []
    stack = [arguments]
    while stack and len(found) < _MAX_STRINGS:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(list(item.keys())[:_MAX_STRINGS])
            stack.extend(list(item.values())[:_MAX_STRINGS])
        elif isinstance(item, (list, tuple)):
            stack.extend(item[:_MAX_STRINGS])
    return found


def hide_paths(message: str, given: Iterable[str] = ()) -> str:
    """``message`` with every absolute path written ``<path>``, but those inside a string the client
    gave (it knows them already)."""
    given = [text for text in given if "/" in text or "\\" in text]

    def replace(match: "re.Match[str]") -> str:
        path = match.group(0)
        return path if any(path in text for text in given) else "<path>"

    return _PATH.sub(replace, message)


def bound(message: str, given: Iterable[str] = ()) -> str:
    """``message`` with each long string of ``given`` it quotes cut to its start and its length, paths
    hidden, and the whole at most ``MAX_ERROR`` characters."""
    given = list(given)
    for text in sorted({t for t in given if len(t) > LONG}, key=len, reverse=True):
        if text not in message:
            continue
        cut = f"{text[:QUOTED]!r}... ({len(text):,} characters)"
        message = message.replace(repr(text), cut).replace(text, cut)
    message = hide_paths(message, given)
    if len(message) > MAX_ERROR:
        tail = f"... (cut: the message had {len(message):,} characters)"
        message = message[:MAX_ERROR - len(tail)] + tail
    return message


def describe(error: BaseException) -> str:
    """An exception's kind and reason in a sentence, for one nobody anticipated: an OSError by its
    reason alone (its file names are the server's), anything else by its type and message."""
    if isinstance(error, OSError):
        reason = error.strerror or type(error).__name__
        return f"the server could not do it: a system error ({reason})"
    if isinstance(error, MemoryError):
        return "the server could not do it: it ran out of memory"
    text = str(error)
    return f"the server could not do it: {type(error).__name__}" + (f": {text}" if text else "")
