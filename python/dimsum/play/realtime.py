"""Dim Sum Jam against the wall clock: the hourglass runs while the human thinks.

The glass drains at the tick clock's rate (``ticks_per_second``, 10 by default) from the moment
the human's prompt appears. Their move is charged the ticks that passed, and at least the move's
default cost, with ``state.apply(action, ticks)`` (docs/rules/dim_sum_jam.md, section 4). If the
sand runs out first, ``state.advance`` lets the glass empty and the game's time-out follows: a
complaint, the pause, the discards (Dim Sum Jam rulebook, 'Game Play', case II). Bots move at
once and are charged their moves' default cost, as ``state.apply(action)`` charges it.
"""

from __future__ import annotations

from typing import Any


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
