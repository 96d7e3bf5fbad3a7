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

import importlib
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Tuple

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


def _labels(game: Any) -> dict:
    make_labels = getattr(_package(game), "observation_labels", None)
    return make_labels(game.spec) if make_labels is not None else {}


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


def _entries(state: Any) -> List[Tuple[int, Optional[int]]]:
    """(action, ticks) per step since the history began; action -1 is time passing (a timed
    game's advance), ticks None for an untimed game."""
    timeline = getattr(state, "timeline", None)
    if timeline is not None:
        return [(a, t) for a, t in timeline]
    return [(a, None) for a in state.history]


def _replay_lines(game: Any, start: Any, entries: Sequence[Tuple[int, Optional[int]]], player: int,
                  first_step: int) -> List[str]:
    lines = []
    layout = game.observation_layout
    before = start.observation(player)
    s = start.clone()
    for n, (action, ticks) in enumerate(entries, first_step):
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
        changed = [bool((before[sl.start:sl.stop] != after[sl.start:sl.stop]).any()) for sl in layout]
        shown = "; ".join(_slices(game, after, changed)) or "nothing you see changed"
        lines.append(f"{n}. {who} | {shown}")
        before = after
    return lines


def _start_lines(game: Any, start: Any, player: int, how: str) -> List[str]:
    return [f"{game.name}: what seat {player} has seen, in order ({how})",
            "start | " + "; ".join(_slices(game, start.observation(player)))]


def information_state_string(state: Any, player: int) -> str:
    game = state.game
    root = state._history_root()
    entries = _entries(state)
    if isinstance(root, PlayerView):
        if root.player != player:
            raise ValueError(
                f"this state was resampled for seat {root.player}: its hidden cards were redrawn, so only seat "
                f"{root.player}'s information state is defined on it (resample for seat {player} instead)")
        start = game.state_from_bytes(root.start)
        lines = list(root.lines) + _replay_lines(game, start, entries[root.steps_before:], player,
                                                 root.steps_before + 1)
        return "\n".join(lines)
    if isinstance(root, int):
        start, how = game.new_state(root), f"from the deal of seed {root}"
    elif isinstance(root, bytes):
        start, how = game.state_from_bytes(root), "from an imported position"
    else:  # unpickled without its root: the views begin here
        start, how, entries = state.clone(), "from this position; earlier play unknown", []
    return "\n".join(_start_lines(game, start, player, how) + _replay_lines(game, start, entries, player, 1))


def finish_resample(original: Any, resampled: Any, player: int, seed: int) -> Tuple[Optional[List[int]], Any]:
    """The history and root of ``resampled`` (``original.resample(player, seed)``; it starts
    with ``original``'s history and root). Returns ``(history, root)``, history None to keep it.

    - Only the future randomness changed (the position is the same): everything the history says
      still holds, for every player; history and root are kept.
    - Hidden cards were redrawn, in explicit mode: the outcomes ``player`` did not see are
      redrawn with them by the game package's ``resample_history`` (Yum Cha: hidden_history.py),
      so that the history replays from the root to the new position; the root is kept.
    - Otherwise (sampled mode, where the history holds only actions, all public; or no rewrite
      was found) the history is kept, but it no longer replays to the new position: the copy
      keeps ``player``'s information state as text and replays what follows from here.
    """
    root = original._history_root()
    if _position(resampled) == _position(original):
        return None, root
    game = original.game
    rewrite = getattr(_package(game), "resample_history", None)
    if game.explicit_chance and rewrite is not None and isinstance(root, (int, bytes)):
        start = game.new_state(root) if isinstance(root, int) else game.state_from_bytes(root)
        history = rewrite(game, start, original.history, resampled, player, seed)
        if history is not None:
            return history, root
    lines = information_state_string(original, player).split("\n")
    return None, PlayerView(player, tuple(lines), resampled.to_bytes(), len(_entries(original)))


def _position(state: Any) -> dict:
    return {name: value for name, value in state.fields().items() if name != "rng"}


# -- how it ended -----------------------------------------------------------------------------------

def outcome(state: Any) -> Outcome:
    game = state.game
    reason, description, winners = _package(game).ending(game.spec, state.fields())
    return Outcome(reason=reason, description=description, returns=state.returns(), winners=tuple(winners))
