"""BatchEnv throughput: env steps per second with observations and masks, at 1, 64 and 1024
envs, on 1 and 2 threads (ratios between runs are the figures to trust on a shared machine).

    python -m pytest benchmarks/test_bench_batch.py --benchmark-columns=min,median,rounds

extra_info["steps_per_s"] is env steps per second over the best round (min time): the machine
is shared, so the best of several rounds is the least disturbed one.
"""

import itertools

import numpy as np
import pytest

import dimsum

# Python-level steps per round: about 20-50 ms a round at each size.
STEPS = {1: 5000, 64: 400, 1024: 40}
ROUNDS = 7


def record(benchmark, env_steps):
    benchmark.extra_info["env_steps_per_round"] = env_steps
    if benchmark.stats is not None:  # None under --benchmark-disable
        benchmark.extra_info["steps_per_s"] = env_steps / benchmark.stats.stats.min


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("num_envs", [1, 64, 1024])
def test_batch_env_step_cpp_policy(benchmark, game, num_envs, threads):
    """step(env.sample_actions(k)): uniform random legal actions drawn in C++ (GIL released)."""
    benchmark.group = f"{game.name}: BatchEnv, {num_envs} envs"
    env = dimsum.BatchEnv(game, num_envs, seed=0, threads=threads)
    env.reset()
    counter = itertools.count()
    steps = STEPS[num_envs]

    def run():
        for _ in range(steps):
            env.step(env.sample_actions(next(counter)))

    benchmark.pedantic(run, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    record(benchmark, steps * num_envs)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("num_envs", [1, 64, 1024])
def test_batch_env_step_numpy_policy(benchmark, game, num_envs, threads):
    """The anchors' policy-in-Python loop: argmax(rand * mask) in numpy, then step."""
    benchmark.group = f"{game.name}: BatchEnv, {num_envs} envs"
    env = dimsum.BatchEnv(game, num_envs, seed=0, threads=threads)
    _, info = env.reset()
    mask = info["legal_mask"]  # the env's own array, refreshed in place by every step
    rng = np.random.default_rng(0)
    noise = np.empty(mask.shape)
    steps = STEPS[num_envs] // 2

    def run():
        for _ in range(steps):
            rng.random(out=noise)
            np.multiply(noise, mask, out=noise)
            env.step(noise.argmax(axis=1))

    benchmark.pedantic(run, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    record(benchmark, steps * num_envs)
