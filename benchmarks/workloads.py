"""Fixed, seeded workloads shared by the benchmarks, the report and the perf guard."""

from __future__ import annotations

import random
from typing import Any, Dict, Mapping, Tuple

import numpy as np

import dimsum
import dimsum.reference
from dimsum.testing import profile

# One representative configuration per registered game, from its profile's `bench` options
# (dimsum/games/<name>/profile.py). The perf guard's bench signature plays these.
CONFIGS: Dict[str, Mapping[str, Any]] = {name: profile(name).bench for name in dimsum.games()}


def openspiel_random_step(state, rng: random.Random, observe: bool = False) -> bool:
    """One step of a uniformly random OpenSpiel game (a peer's Python loop): at a chance node an
    outcome drawn with its probability, else a uniformly random legal action, after reading the
    observation tensor when ``observe``. True when the step was a player's decision."""
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(actions, probs)[0])
        return False
    if observe:
        state.observation_tensor(state.current_player())
    state.apply_action(rng.choice(state.legal_actions()))
    return True


def openspiel_random_game(game, rng: random.Random, observe: bool = False) -> Tuple[int, int]:
    """One whole uniformly random OpenSpiel game of openspiel_random_step: its steps (chance
    outcomes included) and its players' decisions."""
    state = game.new_initial_state()
    steps = decisions = 0
    while not state.is_terminal():
        decisions += openspiel_random_step(state, rng, observe)
        steps += 1
    return steps, decisions


def dimsum_random_step(state, rng: random.Random) -> None:
    """openspiel_random_step's twin on a dimsum state: at a chance node (explicit mode) an outcome
    drawn with its probability, else a uniformly random legal action."""
    if state.is_chance_node:
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply(rng.choices(outcomes, probs)[0])
    else:
        state.apply(rng.choice(state.legal_actions()))


def python_random_game(game, seed: int, observe: bool = False) -> int:
    """One whole random game driven from Python through the per-move API; returns its length.

    With ``observe``, the player to act also reads its observation at every step (as an RL
    agent would), into one reused buffer."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    out = np.empty(game.observation_shape, dtype=np.float32) if observe else None
    steps = 0
    while not state.is_terminal:
        if observe:
            state.observation(state.current_player, out)
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def mid_game_state(game, seed: int = 1, steps: int = 40):
    """A live (not terminal) position about ``steps`` random actions into a seeded game."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    for _ in range(steps):
        following = state.clone()
        following.apply(rng.choice(following.legal_actions()))
        if following.is_terminal:
            break
        state = following
    return state
