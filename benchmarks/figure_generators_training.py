"""The figure generator of training with SB3 (registered into benchmarks.figure_generators.GENERATORS):
MaskablePPO on Nice Buns with dimsum's C++ VecEnv against SB3's DummyVecEnv and SubprocVecEnv over
the single env. It wraps benchmarks/sb3_training.py and needs the sb3 extra (stable-baselines3,
sb3-contrib, torch)."""

from __future__ import annotations

import statistics
from typing import Any, Dict, List

from .figure_generators import register, spread, table
from .figure_provenance import Measuring

GAME, OPTIONS, OPPONENT = "nice_buns", {"players": 2}, "heuristic"
ENVS = [64, 256, 1024]
SUBPROC_ENVS = 8
STEPS, ROLLOUT = 65536, 4096
ENV_ONLY_ENVS, ENV_ONLY_CALLS = 64, 3000


def _rates(rows: List[Dict[str, Any]], env_cpu_measured: bool = True) -> List[str]:
    """The table's columns for one VecEnv: medians over the rounds. SubprocVecEnv's env share by
    CPU is not measured (`env_cpu_measured` False): its main process only waits for the workers."""
    def med(key: str) -> float:
        return statistics.median(r[key] for r in rows)

    env_cpu = f"{100 * med('env_share_cpu'):.1f}%" if env_cpu_measured else "(main process only)"
    return [f"{med('total'):,.0f} / {med('total_cpu'):,.0f}", f"{med('rollout'):,.0f} / {med('rollout_cpu'):,.0f}",
            f"{100 * med('env_share'):.1f}% / {env_cpu}", f"{100 * med('policy_cpu'):.1f}%"]


@register("sb3_training", rounds=3)
def sb3_training_table(rounds: int) -> str:
    """`python benchmarks/sb3_training.py` (its side_by_side, subproc and env_only, in this
    process), `rounds` times with fresh seeds: Nice Buns 2p against heuristic opponents,
    MaskablePPO `MultiInputPolicy`, a rollout of 4,096 learner steps at every env count, 65,536
    learner steps a run, torch and the C++ VecEnv on one thread each; medians over the rounds, and
    the C++ VecEnv's rollout steps per CPU second over DummyVecEnv's with their range."""
    import numpy as np
    import torch

    from . import sb3_training as sb3

    torch.set_num_threads(1)
    seeds = iter(np.random.SeedSequence().generate_state((2 * len(ENVS) + 1) * rounds))
    side: Dict[int, Dict[str, List[Dict[str, Any]]]] = {n: {"cxx": [], "dummy": []} for n in ENVS}
    sub: List[Dict[str, Any]] = []
    only: Dict[str, List[Dict[str, float]]] = {sb3.VEC_ONLY: [], sb3.RAW_ONLY: []}
    with Measuring() as m:
        for _ in range(rounds):
            for n, cxx, dummy in sb3.side_by_side(GAME, OPTIONS, OPPONENT, ENVS, STEPS, ROLLOUT, 1, seeds):
                side[n]["cxx"].append(cxx)
                side[n]["dummy"].append(dummy)
            sub.append(sb3.subproc(GAME, OPTIONS, OPPONENT, SUBPROC_ENVS, STEPS, ROLLOUT, int(next(seeds))))
            for label, rate in sb3.env_only(GAME, OPPONENT, OPTIONS, ENV_ONLY_ENVS, ENV_ONLY_CALLS).items():
                only[label].append(rate)
    rows = []
    for n in ENVS:
        rows.append(["`dimsum.sb3.DimsumVecEnv` (C++)", str(n)] + _rates(side[n]["cxx"]))
        rows.append(["`DummyVecEnv` of `DimsumEnv`", str(n)] + _rates(side[n]["dummy"]))
    rows.append(["`SubprocVecEnv` of `DimsumEnv`", f"{SUBPROC_ENVS} (one process each)"]
                + _rates(sub, env_cpu_measured=False))
    ratios = [[str(n), spread([c["rollout_cpu"] / d["rollout_cpu"] for c, d in zip(side[n]["cxx"], side[n]["dummy"])],
                              unit="x"),
               spread([c["total_cpu"] / d["total_cpu"] for c, d in zip(side[n]["cxx"], side[n]["dummy"])], unit="x")]
              for n in ENVS]
    env_only = "; ".join(f"{label} {statistics.median(r['cpu'] for r in only[label]) / 1e3:,.0f} k"
                         for label in (sb3.VEC_ONLY, sb3.RAW_ONLY))
    return (table(["VecEnv, heuristic opponents", "envs", "total steps/s (wall / CPU)", "rollout steps/s (wall / CPU)",
                   "env's share (wall / CPU)", "policy's share of the rollout (CPU)"], "lrrrrr", rows)
            + "\n\n" + table(["envs", "C++ / DummyVecEnv, rollout steps per CPU second",
                              "C++ / DummyVecEnv, total steps per CPU second"], "lrr", ratios)
            + f"\n\nEnv only, {ENV_ONLY_ENVS} envs, one thread, learner steps per CPU second: {env_only}."
            + "\n\n" + m.line("sb3_training", rounds, "medians over the rounds"))
