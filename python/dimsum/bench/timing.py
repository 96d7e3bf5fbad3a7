"""Timing a workload over rounds: CPU time (``time.process_time``) beside the wall clock, fresh
seeds each round, and what was measured kept per round so that a report can give the median and
the range (never one lucky round)."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Tuple

# A workload: given a round's seed, it prepares what the round needs (untimed) and returns the
# timed part and how many operations (steps, moves, calls) the timed part does.
Workload = Callable[[int], Tuple[Callable[[], Any], int]]


@dataclass
class Timing:
    """One workload's rounds: ``ops[i]`` operations took ``cpu[i]`` seconds of CPU time and
    ``wall[i]`` seconds of wall time in round i. ``op`` names an operation ("step", "move", "call")."""

    name: str
    op: str
    description: str
    ops: List[int] = field(default_factory=list)
    cpu: List[float] = field(default_factory=list)
    wall: List[float] = field(default_factory=list)

    def seconds_per_op(self, clock: str) -> List[float]:
        """Each round's seconds per operation by ``clock`` ("cpu" or "wall")."""
        spent = self.cpu if clock == "cpu" else self.wall
        # a round too short for the clock's resolution counts as one tick of it, never as zero
        floor = time.get_clock_info("process_time" if clock == "cpu" else "perf_counter").resolution
        return [max(s, floor) / n for s, n in zip(spent, self.ops)]

    def rates(self, clock: str) -> List[float]:
        """Each round's operations per second by ``clock``."""
        return [1.0 / s for s in self.seconds_per_op(clock)]


@dataclass
class Count:
    """A deterministic figure measured once (an instruction count): no rounds, no range."""

    name: str
    unit: str
    description: str
    value: float


def measure(name: str, op: str, description: str, workload: Workload, rounds: int, seed: int) -> Timing:
    """``rounds`` rounds of ``workload``, round r with seed ``seed + r`` (fresh games every round)."""
    timing = Timing(name, op, description)
    for r in range(rounds):
        run, count = workload(seed + r)
        cpu, wall = time.process_time(), time.perf_counter()
        run()
        timing.cpu.append(time.process_time() - cpu)
        timing.wall.append(time.perf_counter() - wall)
        timing.ops.append(count)
    return timing


def summary(values: List[float]) -> Dict[str, float]:
    """median, min, max of ``values``."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}
