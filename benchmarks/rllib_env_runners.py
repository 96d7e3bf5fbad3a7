"""RLlib PPO self-play on dimsum.rllib's env: env steps per second with 1, 2 and 4 env runners on a
local Ray instance (docs/RLLIB.md, "Throughput").

Each setting builds ``ppo_self_play(game, "shared")`` with ``--runners`` remote env runners (one
env each), the learner in this process (``num_learners=0``, torch on 1 thread), a fresh Ray
instance with as many logical CPUs as runners (at least 2). One warm-up iteration (actors
starting, the first weights sent) is left out; then ``--iterations`` iterations of
``algo.train()`` are timed.

Why wall time and not this process's CPU time: with Ray the env steps run in other processes (the
env runners), so ``time.process_time()`` of the driver misses most of the work. The table gives
the wall clock, the env steps sampled in it (RLlib's ``num_env_steps_sampled_lifetime``), and the
CPU seconds of every process of the run (this one and all it started: Ray's GCS, raylet,
workers), read with psutil before and after. The env alone (masked random actions, no RLlib)
is timed first, by CPU time in this process, for comparison.

    nice -n 10 python benchmarks/rllib_env_runners.py                  # 1, 2, 4 runners, ~3 min
    python benchmarks/rllib_env_runners.py --runners 2 --iterations 5 --game pig

Not a test: the numbers depend on the machine and on what else it runs.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Dict, List

import numpy as np
import psutil
import ray
import torch

from dimsum.rllib import DimsumMultiAgentEnv, ppo_self_play


def cpu_seconds(processes: Dict[int, psutil.Process]) -> Dict[int, float]:
    """CPU time (user + system) of each process still running, by pid."""
    seconds = {}
    for pid, p in processes.items():
        try:
            t = p.cpu_times()
            seconds[pid] = t.user + t.system
        except psutil.Error:
            continue  # ended meanwhile
    return seconds


def this_run() -> Dict[int, psutil.Process]:
    me = psutil.Process()
    return {p.pid: p for p in [me, *me.children(recursive=True)]}


def measure(game: str, runners: int, iterations: int, batch: int, options: Dict[str, Any]) -> Dict[str, float]:
    ray.init(address="local", num_cpus=max(2, runners), include_dashboard=False, log_to_driver=False)
    try:
        config = (ppo_self_play(game, "shared", model_config={"fcnet_hiddens": [64, 64], "head_fcnet_hiddens": [64]},
                                **options)
                  .env_runners(num_env_runners=runners, num_envs_per_env_runner=1)
                  .training(train_batch_size_per_learner=batch, minibatch_size=min(256, batch), num_epochs=1))
        algo = config.build_algo()
        try:
            first = algo.train()["env_runners"]["num_env_steps_sampled_lifetime"]
            processes = this_run()
            cpu_before, wall_before = cpu_seconds(processes), time.perf_counter()
            for _ in range(iterations):
                result = algo.train()
            wall = time.perf_counter() - wall_before
            cpu_after = cpu_seconds(processes)
            steps = result["env_runners"]["num_env_steps_sampled_lifetime"] - first
        finally:
            algo.stop()
    finally:
        ray.shutdown()
    cpu = sum(cpu_after[pid] - cpu_before[pid] for pid in cpu_after if pid in cpu_before)
    return {"runners": runners, "steps": steps, "wall": wall, "cpu": cpu}


def env_alone(game: str, options: Dict[str, Any], steps: int = 20_000) -> float:
    """Env steps per CPU second of DimsumMultiAgentEnv alone (masked random actions, resets
    included), in this process: what the env costs beside RLlib's own per-step work."""
    env = DimsumMultiAgentEnv(dict(options, game=game))
    rng = np.random.default_rng(0)
    observations, _ = env.reset(seed=0)
    started = time.process_time()
    for _ in range(steps):
        agent, view = next(iter(observations.items()))
        action = int(rng.choice(np.flatnonzero(view["action_mask"])))
        observations, _, terminateds, truncateds, _ = env.step({agent: action})
        if terminateds["__all__"] or truncateds["__all__"]:
            observations, _ = env.reset()
    return steps / (time.process_time() - started)


def main(argv: List[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--batch", type=int, default=2048, help="train_batch_size_per_learner")
    parser.add_argument("--game", default="nice_buns")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    options = {"players": args.players} if args.game != "pig" else {}
    print(f"{args.game} {args.players}p, PPO self-play (one shared policy), {args.iterations} iterations of "
          f"{args.batch} env steps after a warm-up one; load average {psutil.getloadavg()[0]:.1f} on "
          f"{psutil.cpu_count()} cores")
    print(f"the env alone (masked random actions, this process): {env_alone(args.game, options):,.0f} env steps per CPU s")
    print("| env runners | env steps | wall s | env steps/s (wall) | CPU s, all processes | env steps per CPU s |")
    print("|---|---|---|---|---|---|")
    for runners in args.runners:
        r = measure(args.game, runners, args.iterations, args.batch, options)
        print(f"| {runners} | {r['steps']:,.0f} | {r['wall']:.1f} | {r['steps'] / r['wall']:,.0f} | {r['cpu']:.1f} | "
              f"{r['steps'] / r['cpu']:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
