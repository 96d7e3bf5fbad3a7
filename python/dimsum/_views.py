"""What one player sees, as text, and how a finished game ended: one mechanism for every game.

- ``observation_string(state, p)``: the observation's slices by name with their values, exactly
  the information of ``state.observation(p)`` (a game may name the entries of a slice with
  ``observation_labels(cfg)`` in its package; then only the non-zero entries are listed).
- ``information_state_string(state, p)``: p's perfect recall. The history is replayed from where
  it began (the seed, an imported position, or the view a resample kept); the string is p's
  observation there, then one line per step: who acted (a seat, chance, or time passing), p's
  own action by name, and the slices of p's observation that changed, with their new values.
  Two histories give the same string exactly when p's observations and p's own actions agree
  at every step, which is what p can tell apart.
- ``outcome(state)``: a ``dimsum.Outcome`` from the game package's ``ending(cfg, fields)``.
"""

from __future__ import annotations

import hashlib
import importlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from ._common import CHANCE, Outcome


def _value(v: float) -> str:
    f = float(v)
    return str(int(f)) if f.is_integer() else repr(f)


def _slice_text(values: Sequence[float], labels: Optional[Sequence[str]]) -> str:
    if labels is not None and len(labels) == len(values):
        shown = [f"{label}={_value(v)}" for label, v in zip(labels, values) if v != 0]
        return ", ".join(shown) if shown else "none"
    return " ".join(_value(v) for v in values)


def _package(game: Any) -> Any:
    return importlib.import_module(f"dimsum.games.{game.name}")


_labels_of: "OrderedDict[int, Tuple[Any, dict]]" = OrderedDict()


def _labels(game: Any) -> dict:
    kept = _labels_of.get(id(game))
    if kept is not None and kept[0] is game:
        return kept[1]
    make_labels = getattr(_package(game), "observation_labels", None)
    labels = make_labels(game.spec) if make_labels is not None else {}
    _remember(_labels_of, id(game), (game, labels), 64)
    return labels


def _slices(game: Any, obs: Any, only: Optional[Sequence[bool]] = None) -> List[str]:
    labels = _labels(game)
    lines = []
    for i, sl in enumerate(game.observation_layout):
        if only is None or only[i]:
            lines.append(f"{sl.name}: {_slice_text(obs[sl.start:sl.stop], labels.get(sl.name))}")
    return lines


def observation_string(state: Any, player: int) -> str:
    obs = state.observation(player)
    head = f"{state.game.name}: what seat {player} sees"
    return "\n".join([head] + ["  " + line for line in _slices(state.game, obs)])


# -- perfect recall -------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayerView:
    """The root of a state made by ``resample(player, seed)`` when the position changed: the
    player's information state up to then (``lines``), and the resampled position (``start``,
    its bytes) from which the steps after ``steps_before`` are replayed."""

    player: int
    lines: Tuple[str, ...]
    start: bytes
    steps_before: int
    key: int = 0  # information_state_key of the state it was made from (0: unknown, from the lines)


class Reseeded:
    """The root of a copy whose future randomness was replaced while its position stayed
    (``clone(seed)``, or a ``resample`` of a game where only the future is hidden): the history up
    to ``node`` (``steps_before`` steps) is told as under ``base``, the root of the state it was
    copied from; the steps after it are replayed from ``start`` (the copy's position then, with its
    own generator), so that the string describes the game the copy goes on to play. Made in O(1)
    (a clone in a search loop makes one): the number of steps is counted when first needed."""

    __slots__ = ("base", "start", "node", "_steps")

    def __init__(self, base: Any, start: bytes, node: Any = None, steps: Optional[int] = None) -> None:
        self.base, self.start, self.node, self._steps = base, start, node, steps

    @property
    def steps_before(self) -> int:
        if self._steps is None:
            count, node = 0, self.node
            while node is not None:
                count, node = count + 1, node[0]
            self._steps = count
        return self._steps

    def __reduce__(self) -> Any:
        # the node chain is the state's own (rebuilt from its history on unpickling): only its length
        return Reseeded, (self.base, self.start, None, self.steps_before)


def reseeded_root(original: Any, copy: Any) -> Any:
    """The root of ``copy``, a copy of ``original`` with another generator (None stays None: a
    history whose start is unknown begins at the current position anyway)."""
    root = original._history_root()
    if root is None:
        return None
    return Reseeded(root, copy.to_bytes(), original._history_node())


class _At:
    """A point of a history, read as the views read a state: the history up to ``node``."""

    def __init__(self, game: Any, root: Any, node: Any) -> None:
        self.game, self._root, self._node = game, root, node

    def _history_root(self) -> Any:
        return self._root

    def _history_node(self) -> Any:
        return self._node


def _entries(state: Any) -> List[Tuple[int, Optional[int]]]:
    """(action, ticks) per step since the history began; action -1 is time passing (a timed
    game's advance), ticks None for an untimed game."""
    out = []
    node = state._history_node()
    while node is not None:
        out.append(_node_entry(node))
        node = node[0]
    out.reverse()
    return out


def _step_record(game: Any, s: Any, action: int, ticks: Optional[int], player: int, before: Any) -> Tuple[Any, Any]:
    """Plays one step (``action``, ``ticks``) on ``s`` (the replayed position, changed in place)
    and returns (what ``player`` saw of it, player's observation after it); ``before`` is player's
    observation before it. What was seen is ``(who, changed)``: who acted (player's own action by
    name) and, for each observation slice that changed, its index and its new values as float32
    bytes (-0.0 made 0.0, as the text shows both as 0). It determines the step's line exactly, and
    the line determines it: the information-state key folds it without formatting the line."""
    actor = s.current_player
    if action == -1 and ticks is not None:
        s.advance(ticks)
        who = f"time passes ({ticks} ticks)"
    else:
        if actor == player:
            who = f"you: {s.action_name(action)}"
        elif actor == CHANCE:
            who = "chance"
        else:
            who = f"seat {actor} acts"
        if ticks is None:
            s.apply(action)
        else:
            s.apply(action, ticks)
        if ticks is not None and action != -1:
            who += f" ({ticks} ticks)"
    after = s.observation(player)
    diff = np.flatnonzero(before != after)
    changed: Tuple[Tuple[int, bytes], ...] = ()
    if diff.size:
        layout = game.observation_layout
        values = (after + np.float32(0)).tobytes()  # one conversion; each slice is then a bytes slice
        changed = tuple((i, values[4 * layout[i].start:4 * layout[i].stop])
                        for i in sorted(set(_slice_owner(game)[diff].tolist())))
    return (who, changed), after


def _slice_owner(game: Any) -> Any:
    """For each observation entry, the index of its slice (cached per game)."""
    kept = _owners.get(id(game))
    if kept is not None and kept[0] is game:
        return kept[1]
    owner = np.repeat(np.arange(len(game.observation_layout)),
                      [sl.stop - sl.start for sl in game.observation_layout])
    _remember(_owners, id(game), (game, owner), 64)
    return owner


def _format_line(game: Any, n: int, seen: Tuple[str, Tuple[Tuple[int, bytes], ...]]) -> str:
    """Step ``n``'s line of the information state from what was seen (``_step_record``)."""
    who, changed = seen
    labels = _labels(game)
    layout = game.observation_layout
    shown = "; ".join(f"{layout[i].name}: {_slice_text(np.frombuffer(chunk, np.float32), labels.get(layout[i].name))}"
                      for i, chunk in changed) or "nothing you see changed"
    return f"{n}. {who} | {shown}"


def _fold_seen(key: int, seen: Tuple[str, Tuple[Tuple[int, bytes], ...]]) -> int:
    who, changed = seen
    # "S" marks a step (a root's lines fold as "L"); each changed slice: its index and length, then
    # its values: an unambiguous encoding, so equal keys mean equal records
    parts = [key.to_bytes(16, "little"), b"S", who.encode()]
    for index, chunk in changed:
        parts.append(b"\x00%d:%d:" % (index, len(chunk)))
        parts.append(chunk)
    return int.from_bytes(hashlib.blake2b(b"".join(parts), digest_size=16).digest(), "little")


def _start_lines(game: Any, start: Any, player: int, how: str) -> List[str]:
    return [f"{game.name}: what seat {player} has seen, in order ({how})",
            "start | " + "; ".join(_slices(game, start.observation(player)))]


# -- perfect recall, kept along the history ------------------------------------------------------
#
# The information state is a line per step of the history, replayed from where the history began.
# Replaying it on every call cost O(history) (tens of ms late in a Yum Cha game, and OpenSpiel's
# algorithms ask at every node). Each node of the history chain (shared by clones, so by a whole
# search tree) is therefore replayed once: its replayed position and, per player asked, its line
# and the running key are kept by the node's identity and the history's root, in a bounded cache.
# A call then replays only the steps no earlier call has seen, and joins the string from the
# newest whole string kept for an ancestor. What is replayed is exactly what the replay from the
# root gives (the replayed position, never the state's own, as before), so the strings do not
# change.

_STEP_CACHE_SIZE = 50_000   # history nodes (a replayed position and a few lines each: ~1 KB)
_STRING_CACHE_SIZE = 8      # whole strings (and starts), each the prefix of its descendants' strings
_STRING_SEARCH = 256        # ancestors searched for a whole string before joining every line


class _Step:
    """What is known of one history node under one root: the replayed position after it, its
    depth (steps since the root), and per player what that player saw of the step (``seen``, see
    _step_record), its line (formatted when a string asks for it) and the key up to it."""

    __slots__ = ("node", "root", "depth", "position", "seen", "lines", "keys")

    def __init__(self, node: Any, root: Any, depth: int, position: Any) -> None:
        self.node, self.root, self.depth, self.position = node, root, depth, position
        self.seen: dict = {}
        self.lines: dict = {}
        self.keys: dict = {}

    def line(self, game: Any, player: int) -> str:
        line = self.lines.get(player)
        if line is None:
            line = self.lines[player] = _format_line(game, self.depth, self.seen[player])
        return line


_steps: "OrderedDict[Tuple[int, Any], _Step]" = OrderedDict()
_strings: "OrderedDict[Tuple[int, Any, int], Tuple[Any, str]]" = OrderedDict()
_owners: "OrderedDict[int, Tuple[Any, Any]]" = OrderedDict()
_lock = threading.RLock()


def _root_key(root: Any) -> Any:
    # a seed or bytes replays the same for every state that has it; a PlayerView or a Reseeded is
    # one copy's (its identity: hashing its lines would cost O(history))
    return id(root) if isinstance(root, (PlayerView, Reseeded)) else root


def _fold_line(key: int, line: str) -> int:
    digest = hashlib.blake2b(key.to_bytes(16, "little") + b"L" + line.encode(), digest_size=16).digest()
    return int.from_bytes(digest, "little")


def _fold_lines(lines: Sequence[str]) -> int:
    key = 0
    for line in lines:
        key = _fold_line(key, line)
    return key


def _remember(table: "OrderedDict[Any, Any]", key: Any, value: Any, size: int) -> None:
    table[key] = value
    table.move_to_end(key)
    while len(table) > size:
        table.popitem(last=False)


_starts: "OrderedDict[Tuple[Any, int], Tuple[Any, Any, List[str], int, int]]" = OrderedDict()


def _start(state: Any, player: int) -> Tuple[Any, Any, List[str], int, int]:
    """(root, the replayed position where replay begins, the lines before it, the number of the
    first replayed step, the key of those lines) for ``state``'s history. A root's own lines are
    a seed's or an import's opening (their key folds the lines), or the lines a copy inherited
    (a PlayerView, a Reseeded: their key is the key of the state they were copied from, so that
    equal strings keep equal keys)."""
    game, root = state.game, state._history_root()
    if isinstance(root, PlayerView) and root.player != player:
        raise ValueError(
            f"this state was resampled for seat {root.player}: its hidden cards were redrawn, so only seat "
            f"{root.player}'s information state is defined on it (resample for seat {player} instead)")
    cache_key = (id(game), _root_key(root), player)
    kept = _starts.get(cache_key)
    if kept is not None and kept[0] is root and kept[1].game is game:
        return kept
    if isinstance(root, PlayerView):
        key = root.key or _fold_lines(root.lines)
        found = (root, game.state_from_bytes(root.start), list(root.lines), root.steps_before + 1, key)
    elif isinstance(root, Reseeded):  # the original's lines up to the copy, then the copy's replay
        at = root.node
        if at is None and root.steps_before:  # unpickled: find the copy point on the rebuilt chain
            chain = []
            node = state._history_node()
            while node is not None:
                chain.append(node)
                node = node[0]
            at = chain[len(chain) - root.steps_before]
        point = _At(game, root.base, at)
        head = information_state_string(point, player).split("\n")
        found = (root, game.state_from_bytes(root.start), head, root.steps_before + 1,
                 information_state_key(point, player))
    else:
        if isinstance(root, int):
            # never the seed: it would tell the seat every hidden card and every future draw (the
            # deal's own view, the "start" line, says what the seat saw of it)
            start, how = game.new_state(root), "from the deal"
        else:
            start, how = game.state_from_bytes(root), "from an imported position"
        head = _start_lines(game, start, player, how)
        found = (root, start, head, 1, _fold_lines(head))
    _remember(_starts, cache_key, found, _STRING_CACHE_SIZE)
    return found


def _node_entry(node: Any) -> Tuple[int, Optional[int]]:
    return (node[1], node[2]) if len(node) == 3 else (node[1], None)


def _cached(node: Any, rkey: Any) -> Optional[_Step]:
    entry = _steps.get((id(node), rkey))
    if entry is None or entry.node is not node:
        return None
    _steps.move_to_end((id(node), rkey))  # recently used: the nodes near a search's root stay
    return entry


def _replay_to(state: Any, player: int) -> Tuple[Any, List[str], int, int]:
    """Makes sure every step of ``state``'s history after the root's own lines has what ``player``
    saw of it in the cache (replaying only the steps no earlier call has); returns (the root's
    cache key, the root's lines, the number of steps they cover, their key)."""
    game = state.game
    rkey = _root_key(state._history_root())
    root, start, head, first, head_key = _start(state, player)
    skip = first - 1  # steps covered by the root's lines (a resample's PlayerView)
    pending: List[Any] = []
    node, known = state._history_node(), None
    while node is not None:  # back to the newest node this player's record is known for
        entry = _cached(node, rkey)
        if entry is not None and player in entry.seen:
            known = entry
            break
        pending.append(node)
        node = node[0]
    if not pending:
        return rkey, head, skip, head_key
    pending.reverse()
    if known is None:
        depth, position = 0, start
        if skip:  # the first steps are the original's, told by the root's lines
            pending, depth = pending[skip:], skip
    else:
        depth, position = known.depth, known.position
    replay = position.clone()
    before = replay.observation(player)
    for node in pending:
        depth += 1
        action, ticks = _node_entry(node)
        seen, before = _step_record(game, replay, action, ticks, player, before)
        entry = _cached(node, rkey)
        if entry is None:
            entry = _Step(node, root, depth, replay.clone())
        _remember(_steps, (id(node), rkey), entry, _STEP_CACHE_SIZE)
        entry.seen[player] = seen
    return rkey, head, skip, head_key


def _replayed(state: Any, player: int) -> Tuple[List[str], int]:
    """The information state replayed from the root, with no cache: its lines and its key. The
    reference the cache must agree with, and what is used if the cache lost a node of this
    history."""
    root, start, head, first, key = _start(state, player)
    entries = _entries(state)[first - 1:]
    replay = start.clone()
    before = replay.observation(player)
    lines = list(head)
    for n, (action, ticks) in enumerate(entries, first):
        seen, before = _step_record(state.game, replay, action, ticks, player, before)
        lines.append(_format_line(state.game, n, seen))
        key = _fold_seen(key, seen)
    return lines, key


def _replayed_string(state: Any, player: int) -> str:
    return "\n".join(_replayed(state, player)[0])


def _walk(state: Any, rkey: Any, skip: int, stop: Any) -> Optional[Tuple[List[_Step], Any]]:
    """The cached steps from the newest back to the first after the root's lines, newest first,
    stopping early where ``stop(entry)`` gives a value (returned with them); None if the cache
    has lost a step of this history (evicted), for the caller to replay."""
    steps: List[_Step] = []
    node = state._history_node()
    while node is not None:
        entry = _cached(node, rkey)
        if entry is None:
            return None
        found = stop(entry, len(steps))
        if found is not None:
            return steps, found
        steps.append(entry)
        if entry.depth == skip + 1:
            break
        node = node[0]
    return steps, None


def information_state_string(state: Any, player: int) -> str:
    if state._history_root() is None:  # unpickled without its root: the views begin here
        return "\n".join(_start_lines(state.game, state.clone(), player, "from this position; earlier play unknown"))
    with _lock:
        rkey, head, skip, _ = _replay_to(state, player)

        def kept_string(entry: _Step, walked: int) -> Optional[str]:
            if walked >= _STRING_SEARCH:
                return None
            kept = _strings.get((id(entry.node), rkey, player))
            return kept[1] if kept is not None and kept[0] is entry.node else None

        walked = _walk(state, rkey, skip, kept_string)
        if walked is None:
            return _replayed_string(state, player)
        steps, prefix = walked
        lines = [entry.line(state.game, player) for entry in reversed(steps)]
        text = "\n".join(([prefix] if prefix is not None else head) + lines)
        newest = state._history_node()
        if newest is not None:
            _remember(_strings, (id(newest), rkey, player), (newest, text), _STRING_CACHE_SIZE)
        return text


def information_state_key(state: Any, player: int) -> int:
    """A 128-bit key of ``information_state_string(state, player)``, equal for two states exactly
    when their strings are: the root's lines folded one by one, then each step's record (who acted
    and the new values of the slices that changed, which determine the step's line and are
    determined by it), kept along the history so that a call costs O(1) after the first and never
    formats a line."""
    if state._history_root() is None:
        return _fold_lines(information_state_string(state, player).split("\n"))
    with _lock:
        rkey, head, skip, head_key = _replay_to(state, player)
        walked = _walk(state, rkey, skip, lambda entry, _: entry.keys.get(player))
        if walked is None:
            return _replayed(state, player)[1]
        steps, key = walked
        if key is None:
            key = head_key
        for entry in reversed(steps):
            key = _fold_seen(key, entry.seen[player])
            entry.keys[player] = key
        return key


def finish_resample(original: Any, resampled: Any, player: int, seed: int) -> Tuple[Optional[List[int]], Any]:
    """The history and root of ``resampled`` (``original.resample(player, seed)``; it starts
    with ``original``'s history and root). Returns ``(history, root)``, history None to keep it.

    - Only the future randomness changed (the position is the same): everything the history says
      still holds, for every player; the history is kept, and the root says where the copy's own
      future begins (``Reseeded``).
    - Hidden cards were redrawn, in explicit mode: the outcomes ``player`` did not see are
      redrawn with them by the game package's ``resample_history`` (Yum Cha: hidden_history.py),
      so that the history replays from the root to the new position; the root is kept.
    - Otherwise (sampled mode, where the history holds only actions, all public; or no rewrite
      was found) the history is kept, but it no longer replays to the new position: the copy
      keeps ``player``'s information state as text and replays what follows from here.
    """
    root = original._history_root()
    if _position(resampled) == _position(original):
        return None, reseeded_root(original, resampled)
    game = original.game
    rewrite = getattr(_package(game), "resample_history", None)
    if game.explicit_chance and rewrite is not None and isinstance(root, (int, bytes)):
        start = game.new_state(root) if isinstance(root, int) else game.state_from_bytes(root)
        history = rewrite(game, start, original.history, resampled, player, seed)
        if history is not None:
            return history, root
    lines = information_state_string(original, player).split("\n")
    return None, PlayerView(player, tuple(lines), resampled.to_bytes(), len(_entries(original)),
                            information_state_key(original, player))


def _position(state: Any) -> dict:
    return {name: value for name, value in state.fields().items() if name != "rng"}


# -- how it ended -----------------------------------------------------------------------------------

def outcome(state: Any) -> Outcome:
    game = state.game
    reason, description, winners = _package(game).ending(game.spec, state.fields())
    return Outcome(reason=reason, description=description, returns=state.returns(), winners=tuple(winners))
