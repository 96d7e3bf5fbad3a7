"""OpenSpiel's own algorithms on dimsum's games, beside OpenSpiel's gin_rummy, in one run.

    PYTHONPATH=python python -m benchmarks.openspiel_algorithms [--rounds 3] [--simulations 100]

- ``random_sim_test``: OpenSpiel's own random simulation test (every player's information state
  and observation at every step, serialization round trip) per game, seconds of CPU
  (``time.process_time``) and wall time per simulated game (it draws its own games: no seed to
  give it).
- OpenSpiel's Python ``ISMCTSBot`` (random rollouts, ``uct_c`` 2): simulations per second and
  simulated actions per second (every ``apply_action`` of the search and its rollouts, counted by
  wrapping ``pyspiel.State.apply_action`` for both games alike), on dimsum's Yum Cha (2 players,
  with ``dimsum.openspiel.resample``) and on OpenSpiel's gin_rummy (its own resampling), the two
  alternating within each round, each round from a fresh deal.

- The information state itself, at step ~2,000 of a default 3-player Yum Cha game (each round a
  fresh deal played by seeded random moves): CPU microseconds of ``information_state_key(p)`` and
  ``information_state_string(p)`` at a new position (one step after the last call) and repeated.

The numbers are medians over the rounds. OpenSpiel's IS-MCTS is Python, so both games pay the
same interpreter cost per node; what differs is the game underneath.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import dimsum.openspiel as dos

SIM_TEST_GAMES = ("dimsum_yum_cha(players=3)", "dimsum_nice_buns(players=3)", "dimsum_dim_sum_jam(players=3)",
                  "gin_rummy")


def _timed(run: Callable[[], None]) -> Tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    run()
    return time.process_time() - cpu, time.perf_counter() - wall


def random_sim_tests(rounds: int) -> Dict[str, Tuple[float, float]]:
    out = {}
    for name in SIM_TEST_GAMES:
        game = pyspiel.load_game(name)
        times = [_timed(lambda: pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False))
                 for _ in range(rounds)]
        out[name] = (statistics.median(t[0] for t in times), statistics.median(t[1] for t in times))
    return out


class _ActionCounter:
    """Counts every apply_action on any pyspiel state (the search's and its rollouts')."""

    def __init__(self) -> None:
        self.count = 0
        self._original = pyspiel.State.apply_action

    def __enter__(self) -> "_ActionCounter":
        original = self._original

        def counting(state, action):
            self.count += 1
            return original(state, action)

        pyspiel.State.apply_action = counting
        return self

    def __exit__(self, *exc) -> None:
        pyspiel.State.apply_action = self._original


def ismcts_search(game, resampler: Optional[Callable], simulations: int, seed: int) -> Tuple[float, float, float]:
    """One search from a fresh deal's first decision with a choice: (CPU s, simulations/s, simulated actions/s)."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:  # the first real choice
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rng)
    if resampler is not None:
        bot.set_resampler(resampler)
    with _ActionCounter() as counter:
        cpu, _ = _timed(lambda: bot.step(state))
    return cpu, simulations / cpu, counter.count / cpu


def ismcts_side_by_side(rounds: int, simulations: int, seed: int) -> Dict[str, List[Tuple[float, float, float]]]:
    seeds = itertools.count(seed * 1_000_003)
    games = {"dimsum_yum_cha(players=2)": (pyspiel.load_game("dimsum_yum_cha(players=2)"),
                                           lambda s, p: dos.resample(s, p, next(seeds))),
             "gin_rummy": (pyspiel.load_game("gin_rummy"), None)}
    out: Dict[str, List[Tuple[float, float, float]]] = {name: [] for name in games}
    for r in range(rounds):
        for name, (game, resampler) in games.items():  # alternating, the same machine state for both
            out[name].append(ismcts_search(game, resampler, simulations, seed + r))
    return out


def information_state_costs(rounds: int, seed: int, at_step: int = 2000, calls: int = 100) -> Dict[str, float]:
    """CPU us per call at step ``at_step`` of a default Yum Cha game, for the key and for the string
    (each in a game of its own, asked at every step as a search asks), at a new position (the step
    just played) and repeated (the same position again)."""
    import dimsum

    game = dimsum.make("yum_cha", players=3)
    samples: Dict[str, List[float]] = {}
    for r in range(rounds):
        for which in ("key", "string"):
            rng = np.random.RandomState(seed + r)
            state = game.new_state(seed + r)
            ask = state.information_state_key if which == "key" else state.information_state_string
            for _ in range(at_step):
                if state.is_terminal:
                    break
                state.apply(int(rng.choice(state.legal_actions())))
                ask(0)
            for _ in range(calls):
                if state.is_terminal:
                    break
                state.apply(int(rng.choice(state.legal_actions())))
                for label in ("new position", "repeated"):
                    cpu = time.process_time()
                    ask(0)
                    samples.setdefault(f"{which}, {label}", []).append((time.process_time() - cpu) * 1e6)
    return {name: statistics.median(values) for name, values in samples.items()}


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100_000, help="fresh by default")
    args = parser.parse_args(argv)
    print(f"OpenSpiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''} algorithms, "
          f"{args.rounds} rounds, seed {args.seed} (medians)")
    print("\nrandom_sim_test, one simulated game (serialize=True)")
    for name, (cpu, wall) in random_sim_tests(args.rounds).items():
        print(f"  {name:<32} {cpu:8.2f} s CPU  {wall:8.2f} s wall")
    print(f"\nISMCTSBot, {args.simulations} simulations from the first real choice of a fresh deal")
    results = ismcts_side_by_side(args.rounds, args.simulations, args.seed)
    rates = {}
    for name, runs in results.items():
        sims = statistics.median(r[1] for r in runs)
        actions = statistics.median(r[2] for r in runs)
        rates[name] = actions
        print(f"  {name:<32} {sims:10.1f} simulations/s  {actions:12,.0f} simulated actions/s "
              f"({statistics.median(r[0] for r in runs):.2f} s CPU a search)")
    names = list(rates)
    print(f"\n  simulated actions/s, {names[0]} / {names[1]}: {rates[names[0]] / rates[names[1]]:.2f}")
    print("\ninformation state at step ~2,000 of a default 3-player Yum Cha game (CPU us a call)")
    for name, us in information_state_costs(args.rounds, args.seed).items():
        print(f"  {name:<24} {us:10.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
