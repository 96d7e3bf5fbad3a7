"""The size and cost of OpenSpiel's information-state string through the adapter, late in a game.

    PYTHONPATH=python python -m benchmarks.openspiel_information_state [--steps 800 2000] [--calls 200]

A default 3-player Yum Cha game (about 2,600 steps under random play, chance nodes included) is
played through ``pyspiel`` with seeded random moves, every player's information state asked at
every step, as ``random_sim_test`` and a search ask it. At each chosen step, for each form of the
string (``information_state=digest``, the default, and ``=text``, dimsum's readable perfect
recall), the figures are:

- the string's size in bytes (UTF-8);
- ``repeated``: the cost of ``state.information_state_string(p)`` at the same position again;
- ``new position``: the cost of the first call one step further (the step is played outside the
  timing), which is what a search or ``random_sim_test`` pays at every node;
- ``cold``: the first call on a state rebuilt from its history (``deserialize_game_and_state``),
  whose history no earlier call has seen: the one O(history) replay either form pays once.

Each cost is the median over the calls of CPU time (``time.process_time``) and wall time
(``time.perf_counter``), in microseconds: on the project's shared machine wall time is the noisier.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pyspiel

import dimsum.openspiel  # noqa: F401  (registers the dimsum_* games)

GAME = "dimsum_yum_cha(players=3,information_state={form})"
FORMS = ("digest", "text")


def _random_step(state, rng: np.random.RandomState) -> None:
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


def _ask_everyone(state) -> None:
    for p in range(state.num_players()):
        state.information_state_string(p)


def _timed(call: Callable[[], object]) -> Tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    call()
    return (time.process_time() - cpu) * 1e6, (time.perf_counter() - wall) * 1e6


def _median(samples: Sequence[Tuple[float, float]]) -> Tuple[float, float]:
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def measure(form: str, steps: Sequence[int], calls: int, seed: int) -> Dict[int, Dict[str, object]]:
    """For each step of ``steps`` (reached by one game, asked at every step): the string's size
    and the (CPU us, wall us) medians of a repeated call, a call at a new position and a cold one."""
    game = pyspiel.load_game(GAME.format(form=form))
    rng, state = np.random.RandomState(seed), game.new_initial_state()
    out: Dict[int, Dict[str, object]] = {}
    for target in sorted(steps):
        while len(state.history()) < target and not state.is_terminal():
            _random_step(state, rng)
            _ask_everyone(state)
        if state.is_terminal():
            break
        step = len(state.history())
        size = len(state.information_state_string(0).encode())
        repeated = [_timed(lambda: state.information_state_string(0)) for _ in range(calls)]
        fresh: List[Tuple[float, float]] = []
        for _ in range(calls):  # a new position each: play one step untimed, then time the first ask
            copy = state.clone()
            _random_step(copy, rng)
            fresh.append(_timed(lambda: copy.information_state_string(0)))
        cold = []
        text = pyspiel.serialize_game_and_state(game, state)
        for _ in range(3):
            _, rebuilt = pyspiel.deserialize_game_and_state(text)
            cold.append(_timed(lambda: rebuilt.information_state_string(0)))
        out[step] = {"bytes": size, "repeated": _median(repeated), "new position": _median(fresh),
                     "cold": _median(cold)}
    return out


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, nargs="+", default=[800, 2000])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--forms", nargs="+", default=list(FORMS), choices=FORMS)
    args = parser.parse_args(argv)
    print(f"information_state_string(0) of {GAME.format(form='...')}, seed {args.seed}, "
          f"medians of {args.calls} calls (cold: of 3), microseconds CPU / wall")
    print(f"{'form':<7} {'step':>5} {'bytes':>10} {'repeated':>17} {'new position':>17} {'cold':>21}")
    for form in args.forms:
        for step, row in measure(form, args.steps, args.calls, args.seed).items():
            costs = "".join(f"{row[k][0]:,.1f}/{row[k][1]:,.1f}".rjust(width)
                            for k, width in (("repeated", 18), ("new position", 18), ("cold", 22)))
            print(f"{form:<7} {step:>5} {row['bytes']:>10,}{costs}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
