"""Throughput of every layer, per game, side by side in one run (ratios, never absolute gates).

    python -m pytest benchmarks                  # all
    python -m benchmarks.report                  # the same, as one markdown table of ratios
"""

import random

import numpy as np

import dimsum

from .workloads import CONFIGS, mid_game_state, python_random_game


def test_cpp_random_playouts(benchmark, game):
    """Whole random games inside C++ (dimsum.random_playouts), 1 thread."""
    benchmark.group = f"{game.name}: whole random games"
    benchmark.extra_info["unit"] = "games"
    # fresh games every round: replaying the same 20 games lets the branch predictor learn them
    # (it overstated this figure by 1.5x)
    seeds = iter(range(1, 10**9))
    played = []

    def play_20():
        returns, lengths = dimsum.random_playouts(game, 20, next(seeds))
        played.append(int(lengths.sum()))

    benchmark.pedantic(play_20, rounds=30, iterations=1, warmup_rounds=2)
    benchmark.extra_info["steps_per_call"] = sum(played) / len(played)


def test_python_api_random_game(benchmark, game):
    """The same work driven from Python: legal_actions + random.choice + apply per step."""
    benchmark.group = f"{game.name}: whole random games"
    seeds = iter(range(10**9))

    def play_20():
        return sum(python_random_game(game, next(seeds)) for _ in range(20))

    steps = benchmark.pedantic(play_20, rounds=3, iterations=1)
    benchmark.extra_info["steps_per_call"] = steps


def test_python_api_random_game_with_observation(benchmark, game):
    """The same, reading the acting player's observation at every step (the peer of hanabi +obs)."""
    benchmark.group = f"{game.name}: whole random games"
    seeds = iter(range(10**9))

    def play_20():
        return sum(python_random_game(game, next(seeds), observe=True) for _ in range(20))

    steps = benchmark.pedantic(play_20, rounds=3, iterations=1)
    benchmark.extra_info["steps_per_call"] = steps


def test_python_api_random_game_explicit_chance(benchmark, name):
    """The same work with chance="explicit": every random event is a step of its own, drawn here
    from chance_outcomes() (steps_per_call counts the chance steps too)."""
    game = dimsum.make(name, chance="explicit", **CONFIGS[name])
    benchmark.group = f"{name}: whole random games"
    seeds = iter(range(10**9))

    def play_20():
        steps = 0
        for _ in range(20):
            seed = next(seeds)
            rng, state = random.Random(seed), game.new_state(seed)
            while not state.is_terminal:
                if state.is_chance_node:
                    outcomes = state.chance_outcomes()
                    state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
                else:
                    state.apply(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    steps = benchmark.pedantic(play_20, rounds=3, iterations=1)
    benchmark.extra_info["steps_per_call"] = steps


def test_chance_outcomes(benchmark, name):
    """chance_outcomes() at a chance node (the opening deal or roll of an explicit game)."""
    benchmark.group = f"{name}: per call"
    state = dimsum.make(name, chance="explicit", **CONFIGS[name]).new_state(3)
    for _ in range(20):  # a game that opens with a decision (Pig: roll or hold) reaches its first roll
        if state.is_chance_node or state.is_terminal:
            break
        state.apply(int(state.legal_actions()[0]))
    assert state.is_chance_node
    benchmark(state.chance_outcomes)


def test_reference_random_game(benchmark, reference_game):
    """The pure-Python reference engine on the same work (the oracle, not a product)."""
    benchmark.group = f"{reference_game.name}: whole random games"

    def play_2():
        return sum(python_random_game(reference_game, s) for s in range(2))

    steps = benchmark.pedantic(play_2, rounds=2, iterations=1)
    benchmark.extra_info["steps_per_call"] = steps


def test_clone(benchmark, game):
    benchmark.group = f"{game.name}: per call"
    benchmark(mid_game_state(game).clone)


def test_legal_actions(benchmark, game):
    benchmark.group = f"{game.name}: per call"
    benchmark(mid_game_state(game).legal_actions)


def test_legal_mask(benchmark, game):
    benchmark.group = f"{game.name}: per call"
    benchmark(mid_game_state(game).legal_mask)


def test_observation_into_buffer(benchmark, game):
    benchmark.group = f"{game.name}: per call"
    state = mid_game_state(game)
    out = np.empty(game.observation_shape, dtype=np.float32)
    benchmark(state.observation, state.current_player, out)


def test_observation_new_array(benchmark, game):
    benchmark.group = f"{game.name}: per call"
    state = mid_game_state(game)
    benchmark(state.observation, state.current_player)


def test_to_bytes(benchmark, game):
    benchmark.group = f"{game.name}: per call"
    benchmark(mid_game_state(game).to_bytes)


def test_state_from_bytes(benchmark, game):
    benchmark.group = f"{game.name}: per call"
    data = mid_game_state(game).to_bytes()
    benchmark(game.state_from_bytes, data)


def test_apply_on_clone(benchmark, game):
    """clone + apply of a legal action: the inner step of tree search."""
    benchmark.group = f"{game.name}: per call"
    state = mid_game_state(game)
    action = state.legal_actions()[0]

    def step():
        s = state.clone()
        s.apply(action)

    benchmark(step)


def test_to_dict(benchmark, game):
    benchmark.group = f"{game.name}: per call"
    benchmark(mid_game_state(game).to_dict)


def test_random_step_from_python(benchmark, game):
    """One random step from Python (legal_actions + choice + apply), on a state kept alive."""
    benchmark.group = f"{game.name}: per call"
    rng = random.Random(0)
    holder = [game.new_state(0)]
    seeds = iter(range(1, 10**9))

    def step():
        s = holder[0]
        if s.is_terminal:
            s = holder[0] = game.new_state(next(seeds))
        s.apply(rng.choice(s.legal_actions()))

    benchmark(step)
