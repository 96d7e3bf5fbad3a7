"""The adapters' overhead per action against the raw per-move API, side by side in one run.

    python -m pytest benchmarks/test_bench_adapters.py

The same recorded random games (seeded, the benchmark configurations of workloads.CONFIGS) are
replayed three ways, so every loop plays exactly the same actions:

- raw: ``state.observation(p)``, ``state.legal_mask()``, ``state.apply(a)`` for every action (what
  an agent on the per-move API reads and does);
- PettingZoo: ``env.last()`` and ``env.step(a)`` for every action (plus the end-of-game steps);
- Gymnasium: ``env.step(a)`` for the learner's actions, the opponents' actions replayed by the
  opponent policy inside ``step``.

The raw loop is timed in each round's setup (untimed by pytest-benchmark), interleaved with the
adapter's rounds so both see the same machine load; ``extra_info["ratio_to_raw"]`` is the best
adapter round over the best raw round, per action. Ratios only: never a gate.
"""

import random
import time

import pytest

import dimsum

from .workloads import CONFIGS

pettingzoo_adapter = pytest.importorskip("dimsum.pettingzoo")
gymnasium_adapter = pytest.importorskip("dimsum.gymnasium")

GAMES_PER_ROUND = 5
ROUNDS = 5


def record_random_games(game, seeds):
    """[(seed, actions)]: whole uniformly random games, to replay through every loop."""
    games = []
    for seed in seeds:
        rng, state, actions = random.Random(seed), game.new_state(seed), []
        while not state.is_terminal:
            actions.append(rng.choice(state.legal_actions()))
            state.apply(actions[-1])
        games.append((seed, actions))
    return games


def replay_raw(game, games):
    for seed, actions in games:
        state = game.new_state(seed)
        for action in actions:
            state.observation(state.current_player)
            state.legal_mask()
            state.apply(action)


def replay_pettingzoo(env, games):
    for seed, actions in games:
        env.reset(seed=seed)
        remaining = iter(actions)
        for _ in env.agent_iter():
            _, _, termination, truncation, _ = env.last()
            env.step(None if termination or truncation else next(remaining))


class Replay:
    """An opponent policy that plays the recorded game's next action."""

    def __init__(self):
        self.actions = iter(())

    def __call__(self, state):
        return next(self.actions)


def replay_gymnasium(env, replay, games):
    for seed, actions in games:
        replay.actions = iter(actions)
        env.reset(seed=seed)
        over = False
        while not over:
            _, _, terminated, truncated, _ = env.step(next(replay.actions))
            over = terminated or truncated


def measure_against_raw(benchmark, game, games, replay_through_adapter):
    """Benchmarks the adapter; times the raw loop between its rounds; records the ratio."""
    raw_seconds = []

    def time_raw_loop():
        start = time.perf_counter()
        replay_raw(game, games)
        raw_seconds.append(time.perf_counter() - start)

    benchmark.pedantic(replay_through_adapter, setup=time_raw_loop, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    actions = sum(len(a) for _, a in games)
    adapter_ns = benchmark.stats.stats.min / actions * 1e9
    raw_ns = min(raw_seconds) / actions * 1e9
    benchmark.extra_info.update(actions_per_round=actions, adapter_ns_per_action=round(adapter_ns),
                                raw_ns_per_action=round(raw_ns), ratio_to_raw=round(adapter_ns / raw_ns, 2))


@pytest.fixture(params=list(CONFIGS))
def name(request):
    return request.param


def test_pettingzoo_aec_overhead(benchmark, name):
    game = dimsum.make(name, **CONFIGS[name])
    games = record_random_games(game, range(GAMES_PER_ROUND))
    env = pettingzoo_adapter.env(name, **CONFIGS[name])
    benchmark.group = f"{name}: adapters"
    measure_against_raw(benchmark, game, games, lambda: replay_pettingzoo(env, games))


def test_gymnasium_single_agent_overhead(benchmark, name):
    game = dimsum.make(name, **CONFIGS[name])
    games = record_random_games(game, range(GAMES_PER_ROUND))
    replay = Replay()
    env = gymnasium_adapter.DimsumEnv(name, opponents=replay, **CONFIGS[name])
    benchmark.group = f"{name}: adapters"
    measure_against_raw(benchmark, game, games, lambda: replay_gymnasium(env, replay, games))
