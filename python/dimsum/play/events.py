"""What a seat saw happen, in words: one mechanism for every game and every view.

The source is the seat's own information state (``state.information_state_string(seat)``): one line
a step, saying who acted (the seat's own move by name) and which slices of the seat's observation
changed, with their new values. Two states the seat cannot tell apart (a state and its
``resample(seat)``) have the same string, so every text made here is the same for both: nothing
here reads ``str(state)``, another seat's hand or the generator.

Two more facts are read, both public: the names of the other seats' moves, from the history's
actions (in every game of the library a move is public, its hidden consequences are not: a
resample keeps the actions and redraws only what the seat did not see), and, in a game that hides
nothing (``information="perfect"``), the names of chance outcomes.

- :func:`events_between` ``(before, after, seat)``: what happened from ``before`` to ``after``;
- :func:`events_since_last_move` ``(state, seat)``: from the seat's last move (included) to now;
- :func:`recent_events` ``(state, seat, limit)``: the whole game's events, the last ``limit`` of
  them with the number left out (a bounded history for a prompt).

A game adds what its components mean in its package, ``dimsum.games.<name>.events``, as
``notes(step) -> list[str]``: lines for one :class:`Step` (a card drawn, a complaint and its cause,
a round's end, the scores). A game without one gets the moves alone. Every function is pure (state
in, text out) and costs a pass over the new lines of the seat's information-state string (which the
library keeps incrementally).
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Dict, List, Optional, Sequence, Tuple

STEP_LINE = re.compile(r"^(\d+)\. (.*)$")
NOTHING_CHANGED = "nothing you see changed"
_WHO_YOU = re.compile(r"^you: (.+?)(?: \((\d+) ticks\))?$")
_WHO_SEAT = re.compile(r"^seat (\d+) acts(?: \((\d+) ticks\))?$")
_WHO_CHANCE = re.compile(r"^chance(?: \((\d+) ticks\))?$")
_WHO_TIME = re.compile(r"^time passes \((\d+) ticks\)$")


@dataclass(frozen=True)
class Step:
    """One step of the game as ``seat`` saw it.

    ``kind``: "move" (a seat acted: ``actor``), "chance" or "time" (time passing on a clock).
    ``move``: the move's name (the seat's own always; another seat's move, public in every game of
    the library; a chance outcome only in a game that hides nothing), else None. ``before`` and
    ``after``: the seat's observation slices as text, by slice name (the values of
    ``state.observation_string(seat)``), before and after the step; ``changed``: the names of the
    slices that changed. A game's ``notes(step)`` reads these."""

    number: int
    seat: int
    players: int
    kind: str
    actor: Optional[int]
    move: Optional[str]
    ticks: Optional[int]
    before: Dict[str, str]
    after: Dict[str, str]
    changed: Tuple[str, ...]
    game: Any

    def who(self, seat: Optional[int] = None) -> str:
        """How a view names ``seat`` (default: the actor) to this step's reader."""
        return seat_words(self.actor if seat is None else seat, self.seat)


def seat_words(seat: int, reader: int) -> str:
    """``"you (seat 0)"`` for the reader, ``"seat 2"`` for the others: one way of naming seats."""
    return f"you (seat {seat})" if seat == reader else f"seat {seat}"


def relative_seat(token: str, reader: int, players: int) -> Optional[int]:
    """The absolute seat of an observation's relative name (``me``, ``+1``, ``seat+2``)."""
    if token in ("me", "you"):
        return reader
    m = re.fullmatch(r"(?:seat)?\+(\d+)", token)
    return (reader + int(m.group(1))) % players if m else None


def counts(text: str) -> Dict[str, float]:
    """A labelled slice's text (``"Mid 2=1, Mid 3=2"``, ``"none"``) as ``{label: value}``."""
    if text in ("", "none"):
        return {}
    out: Dict[str, float] = {}
    for part in text.split(", "):
        label, _, value = part.rpartition("=")
        try:
            out[label] = float(value)
        except ValueError:  # a label holding ", ": keep the text whole rather than guess
            out[part] = 1.0
    return out


def numbers(text: str) -> List[float]:
    """An unlabelled slice's text (``"3 0 5"``) as its numbers."""
    return [float(x) for x in text.split()] if text not in ("", "none") else []


def events_module(name: str) -> Optional[ModuleType]:
    """Game ``name``'s ``dimsum.games.<name>.events`` (its ``notes(step)``), or None."""
    try:
        return importlib.import_module(f"dimsum.games.{name}.events")
    except ModuleNotFoundError as e:
        if e.name != f"dimsum.games.{name}.events":
            raise
        return None


# -- reading the information-state string -------------------------------------------------------

def _slice_pattern(game: Any) -> "re.Pattern[str]":
    names = sorted((sl.name for sl in game.observation_layout), key=len, reverse=True)
    return re.compile(r"(?:" + "|".join(re.escape(n) for n in names) + r"): ")


def _slices(text: str, pattern: "re.Pattern[str]") -> Dict[str, str]:
    """``"a: 1; b: x=1"`` (a line's changes, or the start line's slices) as ``{name: text}``."""
    if text == NOTHING_CHANGED:
        return {}
    out: Dict[str, str] = {}
    starts = [m.start() for m in pattern.finditer(text) if m.start() == 0 or text[m.start() - 2:m.start()] == "; "]
    for i, start in enumerate(starts):
        end = starts[i + 1] - 2 if i + 1 < len(starts) else len(text)
        name, _, value = text[start:end].partition(": ")
        out[name] = value
    return out


def _split_line(body: str, pattern: "re.Pattern[str]", game: Any) -> Tuple[str, str]:
    """A step line's body as (who, changes): the first `` | `` after which the changes begin (an
    action's name may hold `` | `` itself: Nice Buns' "split: small | medium+large")."""
    at = body.find(" | ")
    while at >= 0:
        who, shown = body[:at], body[at + 3:]
        if (shown == NOTHING_CHANGED or pattern.match(shown)) and _who_ok(who, game):
            return who, shown
        at = body.find(" | ", at + 1)
    raise ValueError(f"cannot read the information-state line {body!r}")


def _who_ok(who: str, game: Any) -> bool:
    m = _WHO_YOU.match(who)
    if m:
        try:
            return game.action_name(game.parse_action(m.group(1))) == m.group(1)
        except ValueError:
            return False
    return bool(_WHO_SEAT.match(who) or _WHO_CHANCE.match(who) or _WHO_TIME.match(who))


def _step_lines(text: str) -> Tuple[List[str], List[str]]:
    """The information-state string as (the lines before the first step, the step lines)."""
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if STEP_LINE.match(line)), len(lines))
    return lines[:first], lines[first:]


def _observed_slices(state: Any, seat: int) -> Dict[str, str]:
    lines = state.observation_string(seat).split("\n")[1:]
    return dict(line.strip().split(": ", 1) for line in lines if ": " in line)


def _history_actions(state: Any) -> List[int]:
    """The action of each step of ``state``'s history (-1: time passing), in order."""
    from .._views import _entries

    return [action for action, _ in _entries(state)]


def steps_between(before: Any, after: Any, seat: int) -> List[Step]:
    """The steps from ``before`` (None: the start of the history) to ``after`` as ``seat`` saw them.

    ValueError if ``after`` does not follow ``before`` in what ``seat`` saw (its information state
    does not begin with ``before``'s), or if ``seat`` is not a seat of the game."""
    import dimsum

    game = after.game
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players:
        raise ValueError(f"seat must be a seat of {game.name}: 0 to {game.players - 1}, got {seat!r}")
    if before is not None and before.game.name != game.name:
        raise ValueError(f"before is a {before.game.name} state and after a {game.name} state")
    text = after.information_state_string(seat)
    head, lines = _step_lines(text)
    pattern = _slice_pattern(game)
    if before is None:
        start = next((line for line in head if line.startswith("start | ")), None)
        current = _slices(start[len("start | "):], pattern) if start else {}
        new = lines  # a resample's inherited step lines are step lines like the others: all read
    else:
        old = before.information_state_string(seat)
        if not (text == old or text.startswith(old + "\n")):
            raise ValueError(f"after does not follow before in what seat {seat} saw: its information state "
                             "does not begin with before's (pass states of one game, before then after)")
        new = text[len(old) + 1:].split("\n") if len(text) > len(old) else []
        current = _observed_slices(before, seat)
    if not new:
        return []
    perfect = dimsum.game_info(game.name).information == "perfect"
    actions = _history_actions(after)
    steps = []
    for line in new:
        m = STEP_LINE.match(line)
        if m is None:
            continue
        number = int(m.group(1))
        who, shown = _split_line(m.group(2), pattern, game)
        changes = _slices(shown, pattern)
        action = actions[number - 1] if 0 < number <= len(actions) else -1
        kind, actor, move, ticks = _who(who, seat, game, action, perfect)
        updated = {**current, **changes}
        steps.append(Step(number, seat, game.players, kind, actor, move, ticks, current, updated,
                          tuple(changes), game))
        current = updated
    return steps


def _who(who: str, seat: int, game: Any, action: int,
         perfect: bool) -> Tuple[str, Optional[int], Optional[str], Optional[int]]:
    m = _WHO_YOU.match(who)
    if m:
        return "move", seat, m.group(1), int(m.group(2)) if m.group(2) else None
    m = _WHO_SEAT.match(who)
    if m:
        move = game.action_name(action) if action >= 0 else None
        return "move", int(m.group(1)), move, int(m.group(2)) if m.group(2) else None
    m = _WHO_CHANCE.match(who)
    if m:
        move = game.chance_outcome_name(action) if perfect and action >= 0 else None
        return "chance", None, move, int(m.group(1)) if m.group(1) else None
    m = _WHO_TIME.match(who)
    return "time", None, None, int(m.group(1)) if m else None


def describe(step: Step, module: Optional[ModuleType] = None) -> List[str]:
    """The lines for one step: the move by name (or that a seat moved), then the game's notes."""
    out = []
    if step.kind == "move":
        out.append(f"{step.who()}: {step.move}" if step.move else f"{step.who()} moved")
    elif step.kind == "chance" and step.move:
        out.append(f"chance: {step.move}")
    notes = getattr(module, "notes", None) if module is not None else None
    if notes is not None:
        out += notes(step)
    return out


def events_between(before: Any, after: Any, seat: int) -> List[str]:
    """What ``seat`` saw happen from ``before`` to ``after`` (a later state of the same game; None:
    from the start), in words, one event a line: every seat's moves by name (``"you (seat 0): roll"``,
    ``"seat 1: hold"``), and the game's notes (cards drawn that the seat saw, complaints and their
    cause, rounds ending, scores). Built only from what the seat may see (see the module's text)."""
    module = events_module(after.game.name)
    out: List[str] = []
    for step in steps_between(before, after, seat):
        out += describe(step, module)
    return out


def last_move_number(state: Any, seat: int) -> int:
    """The number of ``seat``'s last move in its information state (0: it has not moved)."""
    _, lines = _step_lines(state.information_state_string(seat))
    for line in reversed(lines):
        m = STEP_LINE.match(line)
        if m and m.group(2).startswith("you: "):
            return int(m.group(1))
    return 0


def events_since_last_move(state: Any, seat: int) -> List[str]:
    """What ``seat`` saw from its own last move (included: what it drew, what it cost) to now; the
    whole game if it has not moved yet."""
    last = last_move_number(state, seat)
    module = events_module(state.game.name)
    out: List[str] = []
    for step in steps_between(None, state, seat):
        if step.number >= last:
            out += describe(step, module)
    return out


def recent_events(state: Any, seat: int, limit: int = 40) -> Tuple[int, List[str]]:
    """The whole game's events as ``seat`` saw them, bounded: ``(older, last)``, the last ``limit``
    events and the number of earlier ones left out (a long game's history in a prompt)."""
    if limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    events = events_between(None, state, seat)
    kept = events[len(events) - limit:] if limit else []
    return len(events) - len(kept), kept


def history_text(state: Any, seat: int, limit: int = 40) -> List[str]:
    """:func:`recent_events` as lines for a prompt or a screen (``(N earlier events not shown)`` first)."""
    older, kept = recent_events(state, seat, limit)
    return ([f"({older} earlier events not shown)"] if older else []) + kept


def seat_texts(text: str, reader: int, players: int) -> str:
    """An observation's relative seat names (``me``, ``+1``, ``seat+2``) made absolute (``you (seat 0)``,
    ``seat 1``)."""
    def repl(m: "re.Match[str]") -> str:
        seat = relative_seat(m.group(0), reader, players)
        return m.group(0) if seat is None else seat_words(seat, reader)

    return re.sub(r"(?<![\w+])(?:me|seat\+\d+|\+\d+)(?![\w])", repl, text)


__all__: Sequence[str] = ("Step", "counts", "describe", "events_between", "events_module",
                          "events_since_last_move", "history_text", "last_move_number", "numbers",
                          "recent_events", "relative_seat", "seat_texts", "seat_words", "steps_between")
