"""dimsum's kuhn_poker against OpenSpiel's kuhn_poker: the exact same game (docs/rules/kuhn_poker.md,
KP-1 to KP-6; tests/test_kuhn_poker.py plays them in lockstep), side by side in one run.

    PYTHONPATH=python python -m benchmarks.kuhn_vs_openspiel [--rounds 5] [--players 2]

benchmarks/pig_vs_openspiel.py's three measures (its loops are reused), on the hidden-information
template game. Every measure is taken on both sides in every round, alternately, so that both see
the same machine; every round plays fresh seeds; the figures are the medians of the rounds, in CPU
time (``time.process_time``) beside wall time:

- **per step**: a random step through each library's Python per-move API, dimsum with
  ``chance="explicit"`` so that both walk the same nodes, the deal's chance nodes included;
- **per game**: a whole random game in each library's native loop: ``dimsum.random_playouts`` (C++,
  one thread, the deal drawn at ``new_state``) against ``pyspiel.evaluate_bots`` with C++ uniform
  random bots;
- **IS-MCTS**: simulations per second of one search by seat 0 after the deal, random rollouts, one
  thread, the same number of simulations: dimsum's ``ismcts`` (``rollout="random"``, ``bias=0``; each
  simulation redeals the cards seat 0 cannot see, the engine's ``resample``) against
  ``pyspiel.ISMCTSBot`` (a new world sampled every simulation through kuhn_poker's
  ``ResampleFromInfostate``, one rollout a leaf). The same exploration: dimsum scales rewards to
  [0, 1], OpenSpiel keeps the returns (a range of ``max_return - min_return`` chips), so OpenSpiel's
  uct c is dimsum's ``c`` times that range.

Measured on this project's 2-core machine, 2026-12-05, with other builds and tests running beside it
(load average 12-13, so wall time is about four times CPU time; the CPU ratios are the ones to read),
5 rounds, ``PYTHONPATH=python python -m benchmarks.kuhn_vs_openspiel --rounds 5 --players P`` (ratio =
OpenSpiel / dimsum, above 1: dimsum is faster):

| measure | players | dimsum CPU | OpenSpiel CPU | ratio (CPU) | ratio (wall) |
| --- | ---: | ---: | ---: | ---: | ---: |
| a random step (Python API) | 2 | 2,968 ns | 3,312 ns | 1.1x | 1.1x |
| a random game (native loop) | 2 | 0.08 us | 8.66 us | 111.5x | 109.5x |
| an IS-MCTS simulation | 2 | 0.10 us | 0.65 us | 6.3x | 5.6x |
| a random step (Python API) | 3 | 2,297 ns | 2,691 ns | 1.2x | 1.2x |
| a random game (native loop) | 3 | 0.11 us | 11.57 us | 110.1x | 99.0x |
| an IS-MCTS simulation | 3 | 0.16 us | 0.97 us | 6.1x | 5.7x |

A Kuhn game is a handful of steps, so the native loops measure mostly what surrounds the rules: a
whole dimsum game is a deal of ``players`` draws and a few applies in one C++ loop, while each
``evaluate_bots`` call crosses from Python, makes its bots and walks OpenSpiel's virtual ``State``
(the deal as chance nodes, vectors of legal actions and outcomes). Through the Python APIs both pay
the interpreter; dimsum's step here includes reading each chance node's outcomes with their
probabilities as a list of Python tuples.
"""

from __future__ import annotations

import sys
from typing import List

from dimsum import bots

from .pig_vs_openspiel import SameGame, main_for

GAME = "kuhn_poker"
DIMSUM_C = 0.5           # dimsum's ismcts c (rewards in [0, 1])
SIMULATIONS = 200000     # per search, both sides (a search of tens of ms: a Kuhn game is a few steps)
STEP_GAMES = 3000        # games a round for the per-step measure (both sides)
NATIVE_GAMES = 100000    # games a round in the native loops


def dimsum_search(game, seed: int) -> None:
    bot = bots.make("ismcts", game, seed=seed, simulations=SIMULATIONS, c=DIMSUM_C, rollout="random", bias=0,
                    threads=1)
    bot.act(game.new_state(seed))
    assert bot.last_search[0] == SIMULATIONS


def openspiel_search(pyspiel, game, seed: int) -> None:
    state = game.new_initial_state()
    while state.is_chance_node():  # the deal: seat 0's first decision is where both searches start
        outcomes = [o for o, _ in state.chance_outcomes()]
        state.apply_action(outcomes[(seed + state.move_number()) % len(outcomes)])
    uct_c = DIMSUM_C * (game.max_utility() - game.min_utility())
    bot = pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed), uct_c, SIMULATIONS, -1,
                            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
    bot.step(state)


KUHN = SameGame(GAME, dimsum_search, openspiel_search, SIMULATIONS, STEP_GAMES, NATIVE_GAMES,
                search_label="an IS-MCTS simulation", decimals=2)


def main(argv: List[str]) -> int:
    return main_for(KUHN, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
