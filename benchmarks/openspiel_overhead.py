"""The OpenSpiel adapter's cost per step against dimsum's own per-move API, side by side.

    PYTHONPATH=python python benchmarks/openspiel_overhead.py [--games 20] [--rounds 5]

Both sides replay the same recorded games (explicit chance, so the same steps) with the same
calls a search or a random player makes each step: is it over, is it chance, the chance
outcomes or the legal actions, optionally the acting player's observation tensor, then apply.
The rounds alternate between the two sides and the best round of each is kept, so that the
ratio holds on a noisy, shared machine even where the absolute figures do not.
"""

from __future__ import annotations

import argparse
import random
import time

import pyspiel

import dimsum
import dimsum.openspiel as dos

from .workloads import dimsum_random_step

# Configurations whose random games are a few hundred steps (as tests/test_openspiel.py).
CONFIGS = {
    "yum_cha": dict(players=4, rounds=1, max_turns_per_round=50),
    "nice_buns": dict(players=4),
    "dim_sum_jam": dict(players=4),
}


def record_games(name: str, games: int) -> list:
    """The action lists of ``games`` random games (chance drawn by its probabilities)."""
    game = dimsum.make(name, chance="explicit", **CONFIGS[name])
    records = []
    for seed in range(games):
        rng, state = random.Random(seed), game.new_state(0)
        while not state.is_terminal:
            dimsum_random_step(state, rng)
        records.append(state.history)
    return records


def replay_raw(game, records, observe: bool) -> int:
    steps = 0
    for actions in records:
        state = game.new_state(0)
        for action in actions:
            if state.is_chance_node:
                state.chance_outcomes()
            else:
                state.legal_actions()
                if observe:
                    state.observation(state.current_player)
            state.apply(action)
            steps += 1
        assert state.is_terminal
    return steps


def replay_openspiel(game, records, observe: bool) -> int:
    steps = 0
    for actions in records:
        state = game.new_initial_state()
        for action in actions:
            if state.is_chance_node():
                state.chance_outcomes()
            else:
                state.legal_actions()
                if observe:
                    state.observation_tensor(state.current_player())
            state.apply_action(action)
            steps += 1
        assert state.is_terminal()
    return steps


def best_ns_per_step(replay, game, records, observe, rounds_done, best):
    t0 = time.perf_counter_ns()
    steps = replay(game, records, observe)
    ns = (time.perf_counter_ns() - t0) / steps
    best[replay] = min(best.get(replay, float("inf")), ns)
    rounds_done[replay] = steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"{'game':12} {'observe':8} {'steps':>6} {'raw ns/step':>12} {'openspiel ns/step':>18} {'ratio':>6}")
    for name, options in CONFIGS.items():
        records = record_games(name, args.games)
        raw = dimsum.make(name, chance="explicit", **options)
        spiel = pyspiel.load_game(dos.game_name(name), options)
        for observe in (False, True):
            best, steps = {}, {}
            for _ in range(args.rounds):
                best_ns_per_step(replay_raw, raw, records, observe, steps, best)
                best_ns_per_step(replay_openspiel, spiel, records, observe, steps, best)
            a, b = best[replay_raw], best[replay_openspiel]
            print(f"{name:12} {str(observe):8} {steps[replay_raw]:>6} {a:>12.0f} {b:>18.0f} {b / a:>6.1f}")


if __name__ == "__main__":
    main()
