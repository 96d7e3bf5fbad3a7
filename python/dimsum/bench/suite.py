"""The whole bench: for each game, its workloads (workloads.py) at the sizes of a mode, timed over
rounds (timing.py), and with ``callgrind`` the perf guard's instruction counts (instructions.py).

A name is ``GAME/WHAT``, stable from release to release, so that a CI's history lines up:

- ``GAME/per_move_api``: random legal playouts through the per-move API, steps;
- ``GAME/batch_env``: ``BatchEnv.step`` with random legal actions, env-steps;
- ``GAME/bot/KIND``: a bot's ``act`` on decision positions, moves (random, heuristic, IS-MCTS at
  a small fixed budget, the shipped policy where one exists for the game's configuration);
- ``GAME/policy_inference``: the shipped policy's network on one observation, calls;
- ``GAME/instructions/KIND``: instructions per step under callgrind (``cpp_playout``,
  ``python_step``), the perf guard's workloads at its quick sizes.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import dimsum

from . import instructions, workloads
from .timing import Count, Timing, measure

# operations per round, by mode: "quick" is a few seconds for every game (a test, a smoke check in
# CI), "full" long enough that a round is well above the clocks' resolution and a scheduler's tick
SIZES: Dict[str, Dict[str, int]] = {
    "quick": {"steps": 2000, "envs": 64, "env_steps": 10, "random": 200, "heuristic": 100, "ismcts": 5,
              "policy": 100, "inference": 100},
    "full": {"steps": 50_000, "envs": 256, "env_steps": 100, "random": 2000, "heuristic": 1000, "ismcts": 50,
             "policy": 1000, "inference": 2000},
}

Result = Union[Timing, Count]


def game_timings(name: str, mode: str, rounds: int, seed: int,
                 progress: Callable[[str], None] = lambda line: None) -> List[Timing]:
    """Every timed workload of the game ``name`` (its bench options) at ``mode``'s sizes."""
    size = SIZES[mode]
    game = dimsum.make(name, **workloads.bench_options(name))
    plan: List[tuple] = [
        ("per_move_api", "step", "random legal playouts through the per-move API",
         workloads.python_steps(game, size["steps"])),
        ("batch_env", "env-step", f"BatchEnv.step of {size['envs']} envs, one thread, random legal actions",
         workloads.batch_steps(game, size["envs"], size["env_steps"])),
        ("bot/random", "move", "the random bot's act", workloads.bot_moves(game, "random", size["random"])),
        ("bot/heuristic", "move", "the heuristic bot's act",
         workloads.bot_moves(game, "heuristic", size["heuristic"])),
        ("bot/ismcts", "move", f"IS-MCTS's act at {workloads.ISMCTS_SIMULATIONS} simulations",
         workloads.bot_moves(game, "ismcts", size["ismcts"], simulations=workloads.ISMCTS_SIMULATIONS)),
    ]
    net = workloads.policy_net(game)
    if net is not None:  # a policy is shipped for this game's configuration
        plan += [("bot/policy", "move", "the shipped policy bot's act", workloads.bot_moves(game, "policy", size["policy"])),
                 ("policy_inference", "call", "the shipped policy's network on one observation",
                  workloads.inference_calls(game, net, size["inference"]))]
    timings = []
    for what, op, description, workload in plan:
        progress(f"{name}/{what}")
        timings.append(measure(f"{name}/{what}", op, description, workload, rounds, seed))
    return timings


def game_counts(name: str, progress: Callable[[str], None] = lambda line: None) -> List[Count]:
    """Instructions per step of the perf guard's workloads of ``name``, at its quick sizes."""
    counts = []
    for kind, size in instructions.SIZES["quick"].items():
        progress(f"{name}/instructions/{kind}")
        value = instructions.per_step(name, workloads.bench_options(name), kind, size)
        counts.append(Count(f"{name}/instructions/{kind}", "instructions/step", instructions.KINDS[kind], value))
    return counts


def run(games: Optional[Sequence[str]] = None, mode: str = "full", rounds: int = 5, seed: int = 0,
        callgrind: bool = False, times: bool = True,
        progress: Callable[[str], None] = lambda line: None) -> List[Result]:
    """The bench of ``games`` (default: every game): timings unless not ``times``, instruction
    counts with ``callgrind`` (RuntimeError when valgrind is missing)."""
    if mode not in SIZES:
        raise ValueError(f"mode must be one of {', '.join(SIZES)}, got {mode!r}")
    if callgrind and not instructions.available():
        raise RuntimeError("instruction counts need valgrind, which is not on the PATH (apt-get install valgrind)")
    results: List[Result] = []
    for name in games or dimsum.games():
        if times:
            results += game_timings(name, mode, rounds, seed, progress)
        if callgrind:
            results += game_counts(name, progress)
    return results


def describe(results: Sequence[Any]) -> Dict[str, Any]:
    """The machine and package a run was made on (for a report's header)."""
    import platform

    return {"dimsum": dimsum.__version__, "python": platform.python_version(),
            "implementation": platform.python_implementation(), "machine": platform.machine(),
            "system": platform.system(), "results": len(results)}
