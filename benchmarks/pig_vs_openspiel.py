"""dimsum's pig against OpenSpiel's pig: the exact same game (docs/rules/pig.md, PIG-1 to PIG-7;
tests/pig/test_pig_vs_openspiel.py plays them in lockstep), side by side in one run.

    PYTHONPATH=python python -m benchmarks.pig_vs_openspiel [--rounds 5] [--players 2]

Three measures, each taken on both sides in every round, alternately, so that both see the same
machine; every round plays fresh seeds (a replayed game lets the branch predictor learn it); the
figures are the medians of the rounds, and each is given in CPU time (``time.process_time``)
beside wall time (on a shared machine, wall time also charges the other processes' slices):

- **per step**: a random step through each library's Python per-move API (the legal actions, a
  uniform choice, the apply; at a chance node an outcome drawn with its probability). dimsum plays
  with ``chance="explicit"``, so both walk exactly the same nodes, chance nodes included;
- **per game**: a whole random game in each library's native loop: ``dimsum.random_playouts``
  (C++, one thread, chance sampled inside apply) against ``pyspiel.evaluate_bots`` with C++
  uniform random bots (one Python call a game, chance sampled in C++);
- **MCTS**: simulations per second of one search from the opening, random rollouts to the end, one
  thread, the same number of simulations: dimsum's ``ismcts`` (``rollout="random"``, ``bias=0``: the
  plain algorithm; Pig hides nothing, so its determinizations only reseed the dice) against
  ``pyspiel.MCTSBot`` with a ``RandomRolloutEvaluator`` (one rollout a leaf). The same exploration:
  dimsum scales rewards to [0, 1] and OpenSpiel keeps Pig's [-1, 1], so OpenSpiel's uct c is twice
  dimsum's ``c``.

Measured on this project's 2-core machine, 2026-12-02 (after pig's apply_unkeyed), with
other builds and tests running beside it (load average 8-11, so wall time is about three times CPU
time; the CPU ratios are the ones to read), 3 rounds,
``PYTHONPATH=python python -m benchmarks.pig_vs_openspiel --rounds 3 --players P`` (ratio =
OpenSpiel / dimsum, above 1: dimsum is faster):

| measure | players | dimsum CPU | OpenSpiel CPU | ratio (CPU) | ratio (wall) |
| --- | ---: | ---: | ---: | ---: | ---: |
| a random step (Python API) | 2 | 999.9 ns | 1,345.1 ns | 1.3x | 1.5x |
| a random game (native loop) | 2 | 1.3 us | 24.4 us | 18.3x | 18.5x |
| an MCTS simulation | 2 | 3.1 us | 10.0 us | 3.3x | 3.4x |
| a random step (Python API) | 4 | 971.5 ns | 1,310.0 ns | 1.3x | 1.4x |
| a random game (native loop) | 4 | 2.3 us | 45.4 us | 19.5x | 17.6x |
| an MCTS simulation | 4 | 4.6 us | 18.9 us | 4.2x | 4.2x |

MCTS simulations per second (CPU): dimsum 325,012 and 219,655, OpenSpiel 99,596 and 52,810 (2 and
4 players). Per apply (chance outcomes counted on OpenSpiel's side) see benchmarks/pig_side_by_side.py
``--game pig``.

The native loops differ the most: ``random_playouts`` is one C++ loop for every game, while
``evaluate_bots`` is called from Python once a game, and its steps go through OpenSpiel's virtual
``State`` and ``Bot`` interfaces, building vectors of legal actions and chance outcomes. Through
the Python APIs both pay the interpreter; dimsum's step here includes reading the chance outcomes
with their probabilities as a list of Python tuples at every chance node.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Tuple

import dimsum
from dimsum import bots

from .workloads import dimsum_random_step, openspiel_random_step

DIMSUM_C = 0.5                  # dimsum's ismcts c (rewards in [0, 1])
OPENSPIEL_C = 2 * DIMSUM_C      # the same exploration on pig's returns in [-1, 1]
SIMULATIONS = 20000             # per search, both sides
STEP_GAMES = 1000               # games a round for the per-step measure (both sides)
NATIVE_GAMES = 20000            # games a round in the native loops


def clocks() -> Tuple[float, float]:
    return time.process_time(), time.perf_counter()


def since(start: Tuple[float, float]) -> Tuple[float, float]:
    cpu, wall = clocks()
    return cpu - start[0], wall - start[1]


# -- per step: the Python per-move APIs -------------------------------------------------------------

def dimsum_steps(game, seeds: List[int]) -> int:
    steps = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(seed)
        while not state.is_terminal:
            dimsum_random_step(state, rng)
            steps += 1
    return steps


def openspiel_steps(game, seeds: List[int]) -> int:
    steps = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            openspiel_random_step(state, rng)
            steps += 1
    return steps


# -- per game: the native loops -----------------------------------------------------------------------

def dimsum_games(game, n: int, seed: int) -> None:
    dimsum.random_playouts(game, n, seed=seed)


def openspiel_games(pyspiel, game, n: int, seed: int) -> None:
    rng = random.Random(seed)
    players = game.num_players()
    for _ in range(n):
        bots_ = [pyspiel.make_uniform_random_bot(p, rng.getrandbits(31)) for p in range(players)]
        pyspiel.evaluate_bots(game.new_initial_state(), bots_, rng.getrandbits(31))


# -- MCTS ------------------------------------------------------------------------------------------------

def dimsum_search(game, seed: int) -> None:
    bot = bots.make("ismcts", game, seed=seed, simulations=SIMULATIONS, c=DIMSUM_C, rollout="random", bias=0,
                    threads=1)
    bot.act(game.new_state(seed))
    assert bot.last_search[0] == SIMULATIONS


def openspiel_search(pyspiel, game, seed: int) -> None:
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, OPENSPIEL_C, SIMULATIONS, 1 << 30, False, seed, False)
    bot.step(game.new_initial_state())


# -- the run --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SameGame:
    """A game both libraries have under one name, measured by this module's three measures (the
    step and game loops are the same for every such game; the searches are each game's)."""

    name: str
    dimsum_search: Callable[[Any, int], None]            # (dimsum game, seed): one search of `simulations`
    openspiel_search: Callable[[Any, Any, int], None]    # (pyspiel, OpenSpiel game, seed): the same
    simulations: int
    step_games: int
    native_games: int
    search_label: str = "an MCTS simulation"
    decimals: int = 1                                    # the table's figures (2 for a game of a few steps)


def measure(same: SameGame, rounds: int = 5, players: int = 2, first_seed: int = 1) -> Dict[str, Dict[str, float]]:
    """Per measure: each side's median cost (CPU and wall seconds per unit) and the ratios
    OpenSpiel / dimsum (above 1: dimsum is faster)."""
    import pyspiel

    params = {"players": players}
    ours_explicit = dimsum.make(same.name, chance="explicit", **params)
    ours = dimsum.make(same.name, **params)
    theirs = pyspiel.load_game(same.name, params)
    samples: Dict[str, List[Tuple[float, float]]] = {}

    def record(key: str, work: Callable[[], int]) -> None:
        start = clocks()
        units = work()
        cpu, wall = since(start)
        samples.setdefault(key, []).append((cpu / units, wall / units))

    n = same.native_games
    for r in range(rounds):
        seed = first_seed + 104729 * r  # fresh seeds every round
        step_seeds = [seed + i for i in range(same.step_games)]
        record("step/dimsum", lambda: dimsum_steps(ours_explicit, step_seeds))
        record("step/openspiel", lambda: openspiel_steps(theirs, step_seeds))
        record("game/dimsum", lambda: (dimsum_games(ours, n, seed), n)[1])
        record("game/openspiel", lambda: (openspiel_games(pyspiel, theirs, n, seed), n)[1])
        record("mcts/dimsum", lambda: (same.dimsum_search(ours, seed), same.simulations)[1])
        record("mcts/openspiel", lambda: (same.openspiel_search(pyspiel, theirs, seed), same.simulations)[1])
    result = {}
    for kind in ("step", "game", "mcts"):
        a = [statistics.median(s[i] for s in samples[f"{kind}/dimsum"]) for i in (0, 1)]
        b = [statistics.median(s[i] for s in samples[f"{kind}/openspiel"]) for i in (0, 1)]
        result[kind] = {"dimsum_cpu": a[0], "dimsum_wall": a[1], "openspiel_cpu": b[0], "openspiel_wall": b[1],
                        "ratio_cpu": b[0] / a[0], "ratio_wall": b[1] / a[1]}
    return result


UNITS = {"step": ("a random step (Python API)", 1e9, "ns"), "game": ("a random game (native loop)", 1e6, "us"),
         "mcts": ("an MCTS simulation", 1e6, "us")}


def table(same: SameGame, result: Dict[str, Dict[str, float]]) -> str:
    d = same.decimals
    lines = ["| measure | dimsum CPU | OpenSpiel CPU | ratio (CPU) | dimsum wall | OpenSpiel wall | ratio (wall) |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for kind, r in result.items():
        label, scale, unit = UNITS[kind]
        label = same.search_label if kind == "mcts" else label
        lines.append(f"| {label} | {r['dimsum_cpu'] * scale:,.{d}f} {unit} | {r['openspiel_cpu'] * scale:,.{d}f} {unit} "
                     f"| {r['ratio_cpu']:.1f}x | {r['dimsum_wall'] * scale:,.{d}f} {unit} | "
                     f"{r['openspiel_wall'] * scale:,.{d}f} {unit} | {r['ratio_wall']:.1f}x |")
    mcts = result["mcts"]
    search = same.search_label.split(" ", 1)[1].replace(" simulation", "")
    lines.append("")
    lines.append(f"{search} simulations per second (CPU): dimsum {1 / mcts['dimsum_cpu']:,.0f}, "
                 f"OpenSpiel {1 / mcts['openspiel_cpu']:,.0f}.")
    return "\n".join(lines)


def main_for(same: SameGame, description: str, argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=description.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args(argv)
    print(f"{same.name}, {args.players} players, median of {args.rounds} rounds; ratio = OpenSpiel / dimsum "
          f"(above 1: dimsum is faster)\n")
    print(table(same, measure(same, args.rounds, args.players)))
    return 0


PIG = SameGame("pig", dimsum_search, openspiel_search, SIMULATIONS, STEP_GAMES, NATIVE_GAMES)


def main(argv: List[str]) -> int:
    return main_for(PIG, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
