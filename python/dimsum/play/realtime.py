"""Dim Sum Jam against the wall clock: the hourglass runs while the human thinks.

The glass drains at the tick clock's rate (``ticks_per_second``, 10 by default) from the moment
the human's prompt appears. Their move is charged the ticks that passed, and at least the move's
default cost, with ``state.apply(action, ticks)`` (docs/rules/dim_sum_jam.md, section 4). If the
sand runs out first, ``state.advance`` lets the glass empty and the game's time-out follows: a
complaint, the pause, the discards (Dim Sum Jam rulebook, 'Game Play', case II). Bots move at
once and are charged their moves' default cost, as ``state.apply(action)`` charges it.
"""

from __future__ import annotations

from typing import Any, Callable, Optional


def is_realtime(game: Any) -> bool:
    """A timed game with the clock on (``ticks_per_action`` 0 turns time off: no glass to watch)."""
    return "ticks_per_action" in game.options and game.options["ticks_per_action"] > 0


def glass_running(state: Any) -> bool:
    """The sand runs only while the glass stands with sand in its top (not lying, not empty)."""
    clock = state.clock
    return not clock.lying_down and clock.top > 0


def default_cost(state: Any, action: int) -> int:
    """The ticks ``state.apply(action)`` would charge, read from a copy's timeline (the engine
    decides it per action kind; asking it keeps that knowledge in one place)."""
    trial = state.clone()
    trial.apply(action)
    return int(trial.timeline[-1][1])


def elapsed_ticks(seconds: float, ticks_per_second: int) -> int:
    """Whole ticks in ``seconds`` (never negative)."""
    return max(0, int(seconds * ticks_per_second + 1e-9))


def complaint_note(before: Any, after: Any, name_of: Callable[[int], str]) -> Optional[str]:
    """A line for the screen when a step cost the team a complaint, saying why; ``name_of(seat)``
    names a seat."""
    old, new = before.field("complaints"), after.field("complaints")
    if new <= old:
        return None
    limit = after.game.options["complaint_limit"]
    d = after.to_dict()
    if after.clock.top == 0 or d["phase"] == "timeout_discard":  # case II: the glass emptied
        why = "the sand ran out"
        pause = " The game pauses: players may discard and replenish, then the glass is flipped."
    else:  # case III: the active player had nothing to play (the stuck rule lays the glass down)
        why = f"{name_of(d['active'])} could not serve (the glass is laid down)"
        pause = " They may discard and replenish, then stand the glass and play on any table."
    lost = " That is the last one: the team loses." if new >= limit else pause
    return f"COMPLAINT {new} of {limit}: {why}.{lost}"
