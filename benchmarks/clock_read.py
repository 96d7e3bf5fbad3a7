"""What reading a timed game's clock costs, against a plain field read, in one run.

    PYTHONPATH=python python -m benchmarks.clock_read [--states 200] [--reads 50] [--rounds 7]

For every registered timed game, each round makes fresh states (random positions, new seeds, so
no round reads what an earlier one warmed), then times ``state.clock.top`` and
``state.current_player`` over them, and the same loop reading nothing (its cost is taken off
both). The sides alternate which goes first, and each keeps its best round, so that the ratio
holds on a noisy, shared machine even where the absolute figures do not. Wall time
(``time.perf_counter``) and CPU time (``time.process_time``) are both reported: a wall figure
far above its CPU figure means the machine was busy. The goal: the clock read costs at most
about 10x the field read.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Callable, Dict, List, Tuple

import dimsum


def read_clock(states: list, reads: int) -> None:
    for s in states:
        for _ in range(reads):
            s.clock.top


def read_field(states: list, reads: int) -> None:
    for s in states:
        for _ in range(reads):
            s.current_player


def read_nothing(states: list, reads: int) -> None:
    for s in states:
        for _ in range(reads):
            s


SIDES: Dict[str, Callable[[list, int], None]] = {"clock.top": read_clock, "current_player": read_field,
                                                  "loop": read_nothing}


def fresh_states(game, n: int, seed: int) -> list:
    """``n`` positions a few random moves (and some idle ticks) into new games."""
    rng = random.Random(seed)
    states = []
    for i in range(n):
        state = game.new_state(seed * 100_003 + i)
        for _ in range(rng.randrange(12)):
            if state.is_terminal:
                break
            if rng.random() < 0.2 and not state.is_chance_node:
                state.advance(rng.randrange(1, 50))
            else:
                state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def timed(fn: Callable[[list, int], None], states: list, reads: int) -> Tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn(states, reads)
    return time.perf_counter() - wall, time.process_time() - cpu


def measure(game, states: int, reads: int, rounds: int) -> Dict[str, Tuple[float, float]]:
    """Best (wall, cpu) seconds per read of each side, over ``rounds`` rounds of fresh states."""
    best = {side: (float("inf"), float("inf")) for side in SIDES}
    order = list(SIDES)
    for r in range(rounds):
        batch = fresh_states(game, states, seed=r + 1)
        for side in order if r % 2 == 0 else reversed(order):
            wall, cpu = timed(SIDES[side], batch, reads)
            best[side] = (min(best[side][0], wall / (states * reads)), min(best[side][1], cpu / (states * reads)))
    return best


def report(name: str, best: Dict[str, Tuple[float, float]]) -> List[str]:
    loop_wall, loop_cpu = best["loop"]
    lines = [f"{name}: ns per read, the loop's own {loop_wall * 1e9:.1f} ns (wall) / {loop_cpu * 1e9:.1f} ns (cpu) "
             f"taken off"]
    net = {}
    for side in ("current_player", "clock.top"):
        wall, cpu = best[side][0] - loop_wall, best[side][1] - loop_cpu
        net[side] = (wall, cpu)
        lines.append(f"  state.{side:<16} wall {wall * 1e9:7.1f}   cpu {cpu * 1e9:7.1f}")
    ratio_wall = net["clock.top"][0] / net["current_player"][0]
    ratio_cpu = net["clock.top"][1] / net["current_player"][1]
    lines.append(f"  ratio clock.top / current_player: wall {ratio_wall:.1f}x   cpu {ratio_cpu:.1f}x")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--states", type=int, default=200, help="fresh states a round")
    parser.add_argument("--reads", type=int, default=50, help="reads of each state a round")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    timed_games = [name for name in dimsum.games() if isinstance(dimsum.make(name), dimsum.TimedGame)]
    if not timed_games:
        print("no timed game is registered: nothing to measure")
        return 0
    for name in timed_games:
        best = measure(dimsum.make(name), args.states, args.reads, args.rounds)
        print("\n".join(report(name, best)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
