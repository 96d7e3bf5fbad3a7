"""What ``python -m dimsum bench`` times, one function per workload. Each takes the game (and a
size) and returns a timing.Workload: given a round's seed it prepares what it needs (untimed: games
to play through, decision positions to move in) and returns the timed part and its operation count.

Every game is the one its profile benchmarks (``dimsum.testing.profile(name).bench``), the same
configuration as the perf guard and the repository's benchmarks.
"""

from __future__ import annotations

import random
from typing import Any, Callable, List, Mapping, Optional, Tuple

import numpy as np

import dimsum

from .timing import Workload

# IS-MCTS's budget here: small and fixed, so that a move costs about a millisecond and the figure
# follows the search's cost per simulation (docs/BOTS.md has its strength at larger budgets)
ISMCTS_SIMULATIONS = 50


def bench_options(name: str) -> Mapping[str, Any]:
    """The options the benchmarks play ``name`` with (its profile's ``bench``)."""
    from dimsum.testing import profile

    return profile(name).bench


def _random_step(state: Any, rng: random.Random) -> None:
    """A uniformly random legal action, or at a chance node (explicit mode) an outcome drawn with
    its probability."""
    if state.is_chance_node:
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply(rng.choices(outcomes, probs)[0])
    else:
        state.apply(rng.choice(state.legal_actions()))


def python_steps(game: Any, steps: int) -> Workload:
    """Random legal playouts through the per-move API (``legal_actions`` and ``apply`` from
    Python), new games from fresh seeds until ``steps`` steps are taken."""

    def prepare(seed: int) -> Tuple[Callable[[], None], int]:
        def run() -> None:
            rng = random.Random(seed)
            game_seed = seed * 1_000_003
            state = game.new_state(game_seed)
            for _ in range(steps):
                if state.is_terminal:
                    game_seed += 1
                    state = game.new_state(game_seed)
                _random_step(state, rng)

        return run, steps

    return prepare


def batch_steps(game: Any, envs: int, steps: int) -> Workload:
    """``steps`` calls of ``BatchEnv.step`` on ``envs`` envs (one thread) with random legal
    actions (``sample_actions``); an operation is one env's step."""

    def prepare(seed: int) -> Tuple[Callable[[], None], int]:
        env = dimsum.BatchEnv(game, envs, seed=seed, threads=1)
        env.reset()
        env.step(env.sample_actions(seed))  # a warm-up step, outside the timing

        def run() -> None:
            for k in range(steps):
                env.step(env.sample_actions(seed * 1_000_003 + k))

        return run, envs * steps

    return prepare


def decision_states(game: Any, count: int, seed: int) -> List[Any]:
    """``count`` positions where a seat is to move, from random games of fresh seeds."""
    rng = random.Random(seed)
    states: List[Any] = []
    game_seed = seed * 1_000_003
    while len(states) < count:
        state = game.new_state(game_seed)
        game_seed += 1
        while not state.is_terminal and len(states) < count:
            if not state.is_chance_node:
                states.append(state.clone())
            _random_step(state, rng)
    return states


def bot_moves(game: Any, kind: str, moves: int, **params: Any) -> Workload:
    """``bot.act`` on ``moves`` decision positions of random games (a bot of ``kind`` made once,
    outside the timing; a policy's network is loaded then)."""
    from dimsum import bots

    bot = bots.make(kind, game, seed=0, **params)

    def prepare(seed: int) -> Tuple[Callable[[], None], int]:
        states = decision_states(game, moves, seed)

        def run() -> None:
            for state in states:
                bot.act(state)

        return run, moves

    return prepare


def policy_net(game: Any) -> Optional[Any]:
    """The C++ network of the policy dimsum ships for ``game`` (its name and player count), or
    None when there is none."""
    from dimsum.baselines import shipped_path
    from dimsum.bots.policy import load_net

    try:
        shipped_path(game)
    except ValueError:
        return None
    return load_net("shipped", game)


def inference_calls(game: Any, net: Any, calls: int) -> Workload:
    """``net.logits`` on one observation and its legal mask a call (what a move of the policy bot
    runs), for ``calls`` decision positions' observations, recorded before the timing."""

    def prepare(seed: int) -> Tuple[Callable[[], None], int]:
        states = decision_states(game, calls, seed)
        rows = [(state.observation(state.current_player)[None, :].astype(np.float32),
                 state.legal_mask()[None, :]) for state in states]

        def run() -> None:
            for observation, mask in rows:
                net.logits(observation, mask)

        return run, calls

    return prepare
