"""MaskablePPO on 2 cores: the C++ VecEnv (dimsum.sb3.DimsumVecEnv) against SB3's DummyVecEnv and
SubprocVecEnv over the single Gymnasium env (docs/PERFORMANCE.md, "Training with SB3").

For each, in one run, each with a fresh seed: the same MaskablePPO settings learn the same number
of steps, and we report

- total steps/s: learner steps over the wall time of ``learn`` (rollouts and gradient updates);
- rollout steps/s: learner steps over the time of the rollout phases alone (SB3's
  ``_on_rollout_start``/``_on_rollout_end``): the env, the masks, the policy's forward passes;
- the env's share: the time inside the VecEnv (``step``, ``reset``, ``env_method("action_masks")``)
  over the wall time of ``learn``;
- the policy's share of the rollout phases: the time in the policy's forward passes (the
  network, the masked distribution, the sampling), what bounds the rollout once the env is cheap;
- the share of Python's garbage collections in ``learn``'s CPU time (they run inside whatever
  code allocates when they fall due, the env's calls included).

Each VecEnv runs at every ``--envs`` (64, 256 and 1024 by default), the C++ VecEnv and DummyVecEnv
side by side at each, with ``n_steps`` chosen so that a rollout is 4,096 learner steps at any
``n_envs`` (the same gradient work per rollout).

Each is given twice: by the wall clock, and by CPU time (this process's, plus SubprocVecEnv's
workers' for the totals; SubprocVecEnv's rollout and env share by CPU count only the main
process, which waits for its workers). On a shared machine the wall clock measures the other
processes too; CPU time does not.

Then env-only throughput: the C++ VecEnv's ``step`` against the raw ``dimsum.BatchEnv`` it wraps,
64 envs on one thread, legal actions drawn by ``BatchEnv.sample_actions`` for both.

    python benchmarks/sb3_training.py            # a few minutes on 2 shared cores
    python benchmarks/sb3_training.py --steps 32768 --envs 128 --opponent random

Not a test: the numbers depend on the machine and on what else it runs.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import time
from typing import Any, Callable, Dict, Iterator, List, Tuple

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecEnvWrapper

import dimsum
from dimsum.gymnasium import DimsumEnv
from dimsum.sb3 import DimsumVecEnv


class Clock:
    """Adds up the wall time and this process's CPU time of the calls made through ``call``."""

    def __init__(self) -> None:
        self.seconds = self.cpu_seconds = 0.0

    def call(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            return f(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - t0
            self.cpu_seconds += time.process_time() - c0


class TimedVecEnv(VecEnvWrapper):
    """The time spent inside the wrapped VecEnv (``clock``)."""

    def __init__(self, venv: VecEnv) -> None:
        super().__init__(venv)
        self.clock = Clock()

    def reset(self) -> Any:
        return self.clock.call(self.venv.reset)

    def step_async(self, actions: np.ndarray) -> None:
        self.clock.call(self.venv.step_async, actions)

    def step_wait(self) -> Any:
        return self.clock.call(self.venv.step_wait)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> List[Any]:
        return self.clock.call(self.venv.env_method, method_name, *args, indices=indices, **kwargs)


class GcClock:
    """The CPU time of Python's garbage collections while it is installed (gc.callbacks): they fall
    inside whatever code allocates at that moment, the env's calls too, so it is reported apart."""

    def __init__(self) -> None:
        self.cpu_seconds = 0.0
        self._c0 = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: Dict[str, int]) -> None:
        if phase == "start":
            self._c0 = time.process_time()
        else:
            self.cpu_seconds += time.process_time() - self._c0

    def remove(self) -> None:
        gc.callbacks.remove(self._callback)


def time_policy(policy: torch.nn.Module) -> Clock:
    """A clock of the policy's forward passes (MaskablePPO's rollout calls ``policy(obs,
    action_masks=...)``; training calls ``evaluate_actions`` instead)."""
    clock, forward = Clock(), policy.forward
    policy.forward = lambda *args, **kwargs: clock.call(forward, *args, **kwargs)  # type: ignore[method-assign]
    return clock


class RolloutClock(BaseCallback):
    """The wall time and this process's CPU time of SB3's rollout phases."""

    def __init__(self) -> None:
        super().__init__()
        self.seconds = self.cpu_seconds = 0.0
        self._t0 = self._c0 = 0.0

    def _on_rollout_start(self) -> None:
        self._t0, self._c0 = time.perf_counter(), time.process_time()

    def _on_rollout_end(self) -> None:
        self.seconds += time.perf_counter() - self._t0
        self.cpu_seconds += time.process_time() - self._c0

    def _on_step(self) -> bool:
        return True


def single_env(game: str, opponent: str, options: Dict[str, Any]) -> Callable[[], DimsumEnv]:
    """The single env, its other seats played by the bot ``opponent`` (dimsum.bots, in Python
    around the same C++ policy the VecEnv's opponent runs)."""
    return lambda: DimsumEnv(game, opponents=opponent, **options)


def train(label: str, venv: VecEnv, steps: int, n_steps: int, seed: int) -> Dict[str, Any]:
    timed = TimedVecEnv(venv)
    model = MaskablePPO("MultiInputPolicy", timed, n_steps=n_steps, batch_size=min(4096, n_steps * venv.num_envs),
                        n_epochs=2, seed=seed)
    policy = time_policy(model.policy)
    clock = RolloutClock()
    gc.collect()  # the previous run's garbage is not this run's to collect
    collections = GcClock()
    cpu0, own0 = _cpu_seconds(), time.process_time()
    t0 = time.perf_counter()
    model.learn(total_timesteps=steps, callback=clock)
    wall = time.perf_counter() - t0
    own = time.process_time() - own0
    collections.remove()
    done = model.num_timesteps
    venv.close()  # SubprocVecEnv's workers exit: their CPU time is counted below
    cpu = _cpu_seconds() - cpu0
    env = timed.clock
    row = {"label": label, "steps": done, "wall": wall, "cpu": cpu,
           "total": done / wall, "rollout": done / clock.seconds, "env_share": env.seconds / wall,
           "total_cpu": done / cpu, "rollout_cpu": done / clock.cpu_seconds, "env_share_cpu": env.cpu_seconds / own,
           "policy": policy.seconds / clock.seconds, "policy_cpu": policy.cpu_seconds / clock.cpu_seconds,
           "gc_cpu": collections.cpu_seconds / own}
    print(f"{label:36s} {done:6d} steps {wall:6.1f} s  wall: total {row['total']:6.0f}/s "
          f"rollout {row['rollout']:6.0f}/s "
          f"env {100 * row['env_share']:4.1f}% policy/rollout {100 * row['policy']:4.1f}%  |  cpu {cpu:5.1f} s: "
          f"total {row['total_cpu']:6.0f}/s rollout {row['rollout_cpu']:6.0f}/s env {100 * row['env_share_cpu']:4.1f}% "
          f"policy/rollout {100 * row['policy_cpu']:4.1f}% gc {100 * row['gc_cpu']:4.1f}%", flush=True)
    return row


def _cpu_seconds() -> float:
    """CPU time of this process and of its ended children (SubprocVecEnv's workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


VEC_ONLY, RAW_ONLY = "DimsumVecEnv (step + masks)", "BatchEnv (learner seat, raw)"  # env_only's two


def env_only(game: str, opponent: str, options: Dict[str, Any], num_envs: int, calls: int) -> Dict[str, Dict[str, float]]:
    """Learner steps/s of DimsumVecEnv (step and MaskablePPO's mask call, ``env_method("action_masks")``
    stacked as sb3-contrib stacks it) and of the raw BatchEnv.step, one thread each, by the wall
    clock and by CPU time: {label: {"wall": steps/s, "cpu": steps/s}}."""
    vec = DimsumVecEnv(game, num_envs=num_envs, threads=1, opponent=opponent, seed=0, **options)
    vec.reset()
    sample = vec.batch_env.sample_actions

    def vec_step(k: int) -> None:
        vec.step(sample(k))
        np.stack(vec.env_method("action_masks"))

    raw = dimsum.BatchEnv(dimsum.make(game, **options), num_envs, seed=0, threads=1, learner_seat=0,
                          opponent=opponent)
    raw.reset()
    rates = {}
    for label, step in [(VEC_ONLY, vec_step), (RAW_ONLY, lambda k: raw.step(raw.sample_actions(k)))]:
        t0, c0 = time.perf_counter(), time.process_time()
        for k in range(calls):
            step(k)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        rates[label] = {"wall": num_envs * calls / wall, "cpu": num_envs * calls / cpu}
        print(f"env only, {num_envs} envs, 1 thread: {label:30s} {num_envs * calls / wall / 1e3:6.0f} k learner "
              f"steps/s wall, {num_envs * calls / cpu / 1e3:6.0f} k CPU", flush=True)
    return rates


def side_by_side(game: str, options: Dict[str, Any], opponent: str, envs: List[int], steps: int, rollout: int,
                 env_threads: int, seeds: Iterator[int]) -> List[Tuple[int, Dict[str, Any], Dict[str, Any]]]:
    """At each env count, the C++ VecEnv then DummyVecEnv learn the same steps (at least two
    rollouts of ``rollout`` learner steps), each with its own seed: [(n, C++ row, Dummy row)]."""
    runs = []
    for n in envs:
        n_steps = max(1, rollout // n)
        run_steps = max(steps, 2 * n * n_steps)  # at least two rollouts
        cxx = train(f"DimsumVecEnv (C++), {n} envs",
                    DimsumVecEnv(game, num_envs=n, opponent=opponent, threads=env_threads, **options),
                    run_steps, n_steps, int(next(seeds)))
        dummy = train(f"DummyVecEnv(DimsumEnv), {n} envs", DummyVecEnv([single_env(game, opponent, options)] * n),
                      run_steps, n_steps, int(next(seeds)))
        print(f"{n} envs: C++ over DummyVecEnv, rollout steps/s {cxx['rollout'] / dummy['rollout']:.2f}x wall, "
              f"{cxx['rollout_cpu'] / dummy['rollout_cpu']:.2f}x CPU; total {cxx['total'] / dummy['total']:.2f}x wall, "
              f"{cxx['total_cpu'] / dummy['total_cpu']:.2f}x CPU", flush=True)
        runs.append((n, cxx, dummy))
    return runs


def subproc(game: str, options: Dict[str, Any], opponent: str, num_envs: int, steps: int, rollout: int,
            seed: int) -> Dict[str, Any]:
    """SubprocVecEnv of ``num_envs`` single envs, one process each."""
    return train(f"SubprocVecEnv(DimsumEnv), {num_envs} envs",
                 SubprocVecEnv([single_env(game, opponent, options)] * num_envs),
                 steps, max(1, rollout // num_envs), seed)


def main() -> None:
    parser = argparse.ArgumentParser(description="MaskablePPO with dimsum's C++ VecEnv against DummyVecEnv/SubprocVecEnv")
    parser.add_argument("--game", default="nice_buns")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="heuristic", help="the other seats' policy: heuristic (default) or random")
    parser.add_argument("--envs", type=int, nargs="+", default=[64, 256, 1024],
                        help="envs of the C++ VecEnv and DummyVecEnv, each run side by side (default 64 256 1024)")
    parser.add_argument("--subproc-envs", type=int, default=8,
                        help="SubprocVecEnv's envs, one process each (default 8: 64 processes on 2 cores thrash; 0: "
                             "no SubprocVecEnv run)")
    parser.add_argument("--steps", type=int, default=65536, help="learner steps per run (default 65536)")
    parser.add_argument("--env-threads", type=int, default=1,
                        help="the C++ VecEnv's threads (default 1: one core for the env as DummyVecEnv has; a pool "
                             "thread's spin between steps would count as the env's CPU time)")
    parser.add_argument("--rollout", type=int, default=4096,
                        help="learner steps per rollout: MaskablePPO's n_steps is this over n_envs (default 4096)")
    parser.add_argument("--env-only-calls", type=int, default=3000)
    parser.add_argument("--torch-threads", type=int, default=1,
                        help="torch's threads (default 1: this small network gains nothing from a second, "
                             "and on a loaded machine two threads wait for each other)")
    parser.add_argument("--no-validate-args", action="store_true",
                        help="torch.distributions' argument checks off (Distribution.set_default_validate_args(False)) "
                             "for every run: a quarter of the masked policy's forward pass at 64 envs")
    args = parser.parse_args()
    torch.set_num_threads(args.torch_threads)
    if args.no_validate_args:
        torch.distributions.Distribution.set_default_validate_args(False)
    options = {"players": args.players}
    game = args.game
    print(f"MaskablePPO('MultiInputPolicy', n_steps={args.rollout} / n_envs, batch_size={min(4096, args.rollout)}, "
          f"n_epochs=2) on {game} {options} against {args.opponent!r} opponents, "
          f"{args.steps} learner steps per run, torch threads {args.torch_threads}, C++ env threads "
          f"{args.env_threads}, torch.distributions argument checks {'off' if args.no_validate_args else 'on'}, "
          f"load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    seeds = iter(np.random.SeedSequence().generate_state(2 * len(args.envs) + 1))  # fresh seeds, one per run
    side_by_side(game, options, args.opponent, args.envs, args.steps, args.rollout, args.env_threads, seeds)
    if args.subproc_envs > 0:
        subproc(game, options, args.opponent, args.subproc_envs, args.steps, args.rollout, int(next(seeds)))
    env_only(game, args.opponent, options, 64, args.env_only_calls)


if __name__ == "__main__":
    main()
