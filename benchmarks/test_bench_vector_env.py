"""The Gymnasium VectorEnv (dimsum.gymnasium.DimsumVectorEnv) next to raw BatchEnv, in one run.

    python -m pytest benchmarks/test_bench_vector_env.py --benchmark-columns=min,rounds

Same game (the benchmark configurations of workloads.CONFIGS: 4 players), same number of envs,
same threads, and the same policy in numpy (``argmax(rand * mask)`` over the env's mask) in
every loop:

- raw: ``dimsum.BatchEnv`` with every seat's actions coming from Python (one env step is one
  action of whichever seat is to act);
- learner: ``dimsum.BatchEnv(..., learner_seat=0)``, the VectorEnv's engine without the Gymnasium
  layer: one env step is one action of seat 0, after which the other three seats are played in
  C++ until seat 0 is to act again (about 4 actions in all per step in these 4-player games);
- vector: ``DimsumVectorEnv`` (``copy=False`` and the default ``copy=True``) over that engine.

The two BatchEnv loops are timed in each round's setup, interleaved with the vector env's rounds
so all see the same machine load, and every round deals fresh games (a new seed) and draws fresh
noise, so no round replays another. extra_info (steps per second over each loop's best round):
``vector_steps_per_s`` and ``learner_steps_per_s`` (learner steps), ``raw_steps_per_s`` (env
steps of any seat), ``ratio`` (vector over raw), ``layer_ratio`` (vector over learner: the cost
of the Gymnasium layer). Never a gate.
"""

import itertools
import time

import numpy as np
import pytest

import dimsum

from .workloads import CONFIGS

gymnasium_adapter = pytest.importorskip("dimsum.gymnasium")

STEPS = {64: 300, 1024: 30}  # Python-level steps per round: tens of ms at each size
ROUNDS = 5
THREADS = 1  # the machine is shared: one thread gives the steadier ratio


def numpy_policy(rng, mask, noise):
    """argmax(rand * mask) per row: a uniformly random legal action per env, in numpy."""
    rng.random(out=noise)
    np.multiply(noise, mask, out=noise)
    return noise.argmax(axis=1)


@pytest.mark.parametrize("copy", [False, True])
@pytest.mark.parametrize("num_envs", [64, 1024])
def test_vector_env_against_raw_batch_env(benchmark, name, num_envs, copy):
    game = dimsum.make(name, **CONFIGS[name])
    steps = STEPS[num_envs]
    seeds = itertools.count(1)
    raw = dimsum.BatchEnv(game, num_envs, seed=0, threads=THREADS)
    learner = dimsum.BatchEnv(game, num_envs, seed=0, threads=THREADS, learner_seat=0)
    vector = gymnasium_adapter.DimsumVectorEnv(name, num_envs=num_envs, threads=THREADS, copy=copy,
                                               **CONFIGS[name])
    noise = np.empty((num_envs, game.num_actions))
    seconds = {raw: [], learner: []}

    def time_batch_env_round(env):
        seed = next(seeds)
        rng = np.random.default_rng(seed)
        _, info = env.reset(seed)
        mask = info["legal_mask"]  # refreshed in place by every step
        start = time.perf_counter()
        for _ in range(steps):
            env.step(numpy_policy(rng, mask, noise))
        seconds[env].append(time.perf_counter() - start)

    def time_batch_env_rounds():
        time_batch_env_round(raw)
        time_batch_env_round(learner)

    def vector_round():
        seed = next(seeds)
        rng = np.random.default_rng(seed)
        obs, _ = vector.reset(seed=seed)
        for _ in range(steps):
            obs = vector.step(numpy_policy(rng, obs["action_mask"], noise))[0]

    benchmark.group = f"{name}: VectorEnv against BatchEnv, {num_envs} envs"
    benchmark.pedantic(vector_round, setup=time_batch_env_rounds, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    if benchmark.stats is None:  # --benchmark-disable
        return
    vector_rate = steps * num_envs / benchmark.stats.stats.min
    raw_rate = steps * num_envs / min(seconds[raw])
    learner_rate = steps * num_envs / min(seconds[learner])
    benchmark.extra_info.update(vector_steps_per_s=round(vector_rate), learner_steps_per_s=round(learner_rate),
                                raw_steps_per_s=round(raw_rate), ratio=round(vector_rate / raw_rate, 2),
                                layer_ratio=round(vector_rate / learner_rate, 2), threads=THREADS, copy=copy)
