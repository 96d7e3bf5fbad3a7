"""The deterministic tick clock: Dim Sum Jam's two-minute hourglass as plain integers.

A physical hourglass has sand in its top bulb that runs into the bottom bulb. This class
keeps only that: ``top`` ticks still to run out of ``capacity`` in all, and whether the
glass is lying on its side (frozen). Nothing here reads a wall clock; time passes only
when the owner calls ``run(ticks)``. The C++ twin (``common/tick_clock.hpp``) is written
from this file and must behave identically.

- ``run(ticks)`` drains ``min(ticks, top)`` from a standing glass and returns how many
  ticks it drained; a lying glass does not run. The glass stops at 0 (it never goes
  negative): the owner sees ``ran_out`` and decides what a time-out means.
- ``flip()`` turns a standing glass over: the bottom becomes the top, so a glass with
  ``top`` still to run then has ``capacity - top`` to run (the physical model, DSJ-1).
- ``lay_down()`` / ``stand(turned)``: the stuck-player rule lays the glass on its side
  (time halts) and later stands it on either end (DSJ-3): ``turned=False`` puts the same
  bulb back on top (``top`` unchanged), ``turned=True`` the other one (``capacity - top``).
"""

from __future__ import annotations

from typing import Any, Dict

from .._common import check_int

MAX_CAPACITY = 1_000_000
"""The largest glass (in ticks) a clock accepts: far beyond any sensible hourglass."""


class TickClock:
    """A physical hourglass measured in integer ticks."""

    __slots__ = ("capacity", "top", "lying")

    def __init__(self, capacity: int = 1200, top: Any = None, lying: bool = False) -> None:
        self.capacity = check_int(capacity, "clock capacity", 1, MAX_CAPACITY)
        self.top = self.capacity if top is None else check_int(top, "clock top", 0, self.capacity)
        if not isinstance(lying, bool):
            raise TypeError(f"clock lying must be True or False, got {lying!r}")
        self.lying = lying

    # -- reading ---------------------------------------------------------------------------
    @property
    def bottom(self) -> int:
        return self.capacity - self.top

    @property
    def ran_out(self) -> bool:
        """A standing glass with an empty top bulb: the moment of a time-out."""
        return self.top == 0 and not self.lying

    # -- time passing ----------------------------------------------------------------------
    def run(self, ticks: int) -> int:
        """Let ``ticks`` pass; returns the ticks the sand actually ran (0 if lying or empty)."""
        ticks = check_int(ticks, "ticks", 0)
        if self.lying:
            return 0
        used = min(ticks, self.top)
        self.top -= used
        return used

    # -- handling the glass ----------------------------------------------------------------
    def flip(self) -> None:
        if self.lying:
            raise ValueError("cannot flip a glass that is lying down; stand it first")
        self.top = self.capacity - self.top

    def refill(self) -> None:
        """A flip that always gives the full glass (the non-physical alternative of DSJ-1)."""
        if self.lying:
            raise ValueError("cannot flip a glass that is lying down; stand it first")
        self.top = self.capacity

    def lay_down(self) -> None:
        if self.lying:
            raise ValueError("the glass is already lying down")
        self.lying = True

    def stand(self, turned: bool) -> None:
        if not self.lying:
            raise ValueError("the glass is already standing")
        self.lying = False
        if turned:
            self.top = self.capacity - self.top

    # -- copying and saving ----------------------------------------------------------------
    def copy(self) -> "TickClock":
        c = TickClock.__new__(TickClock)
        c.capacity, c.top, c.lying = self.capacity, self.top, self.lying
        return c

    @classmethod
    def of_valid(cls, capacity: int, top: int, lying: bool) -> "TickClock":
        """A clock from values already checked (a validated state's fields), without checking them again."""
        c = cls.__new__(cls)
        c.capacity, c.top, c.lying = capacity, top, lying
        return c

    def to_dict(self) -> Dict[str, Any]:
        return {"top": self.top, "capacity": self.capacity, "lying": self.lying}

    @classmethod
    def from_dict(cls, d: Any, capacity: Any = None) -> "TickClock":
        """Validated; ``capacity`` (when given) must match the dict's."""
        if not isinstance(d, dict):
            raise TypeError(f"clock must be a dict, got {type(d).__name__}")
        if set(d) != {"top", "capacity", "lying"}:
            raise ValueError(f"clock must have exactly the keys capacity, lying, top; got {sorted(d)}")
        clock = cls(d["capacity"], d["top"], d["lying"])
        if capacity is not None and clock.capacity != capacity:
            raise ValueError(f"clock capacity must be {capacity} for this game, got {clock.capacity}")
        return clock

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TickClock) and self.to_dict() == other.to_dict()

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        state = "lying" if self.lying else "standing"
        return f"TickClock(top={self.top}, capacity={self.capacity}, {state})"


class ClockView:
    """A read-only window on a state's clock (``state.clock``): it cannot change the game."""

    __slots__ = ("_clock",)

    def __init__(self, clock: TickClock) -> None:
        self._clock = clock

    # typed properties, not property(lambda ...): a type checker then knows state.clock.top is an int
    @property
    def top(self) -> int:
        """ticks still to run in the top bulb"""
        return self._clock.top

    @property
    def capacity(self) -> int:
        """ticks in a full glass"""
        return self._clock.capacity

    @property
    def bottom(self) -> int:
        """ticks already run (the other bulb)"""
        return self._clock.bottom

    @property
    def lying_down(self) -> bool:
        """the glass is on its side (frozen)"""
        return self._clock.lying

    @property
    def ran_out(self) -> bool:
        """the top bulb is empty"""
        return self._clock.ran_out

    def to_dict(self) -> Dict[str, Any]:
        return self._clock.to_dict()

    def __repr__(self) -> str:
        return f"ClockView(top={self.top}, capacity={self.capacity}, lying_down={self.lying_down})"
