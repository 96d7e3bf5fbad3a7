"""Learner steps per second of a learner-seat BatchEnv whose other seats are a policy network
(``opponent="policy"``, docs/BASELINES.md, "Policy opponents"), beside the same env with the
"random" and "heuristic" C++ opponents, one thread (``threads=1``), 1024 envs by default.

Each round steps every env ``--steps`` times with random legal learner actions
(``sample_actions``, drawn in C++, included in the time), timed by CPU time (``time.process_time``) and by the wall
clock; the best round of ``--rounds`` is shown, each round from a fresh seed. The machine is
shared: the CPU column is the one to compare. The issue's target (issue 24) is >= 50 k learner
steps/s at 1024 envs on one core.

A game without shipped weights is played by an untrained network of the shipped ones' shape
(hidden layers 64 and 64, tanh, the observation normalized so that its input is dense as a
trained one's is): the speed depends on the shape, not on the weights.

    python benchmarks/policy_opponents.py                 # nice_buns 2 and 4 players, ~30 s
    python benchmarks/policy_opponents.py --envs 64 256 1024 --games nice_buns:2 yum_cha:4 dim_sum_jam:3
    python benchmarks/policy_opponents.py --opponents policy --builds /tmp/before/python python
    python benchmarks/policy_opponents.py --opponents policy --callgrind --envs 256 --steps 20

--builds runs every measurement in a child interpreter per build (PYTHONPATH), the builds'
order alternating from round to round, and adds the ratio of the last build's rate to the
first's (CPU, best rounds). --callgrind counts instructions per learner step under callgrind
(load-independent; a run with no measured steps is subtracted), one run per build and setting.

Not a test: the numbers depend on the machine and on what else it runs.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

OPPONENTS: Dict[str, Dict[str, Any]] = {
    "policy": {"opponent": "policy"},
    "heuristic": {"opponent": "heuristic"},
    "random": {"opponent": "random"},
}


def weights_for(game: Any, directory: Path, normalized: bool = True) -> Tuple[Any, str]:
    """The shipped weights of `game`, or an untrained network of their shape written in `directory`
    (its observation normalized, as training normalizes it, unless `normalized` is false: then
    the observation's zeros stay zeros, and the network skips them)."""
    from dimsum.baselines import policy_file, shipped_path
    from dimsum.baselines.policy_file import untrained

    try:
        shipped_path(game)
        return "shipped", "shipped"
    except ValueError:  # no shipped policy for this game and player count
        pass
    policy = untrained(game, hidden=(64, 64), seed=0)
    rng = np.random.default_rng(0)
    size = policy.observation_size
    if normalized:
        policy.normalization = {"offset": rng.uniform(0.1, 0.5, size).astype(np.float32),
                                "scale": rng.uniform(0.5, 2.0, size).astype(np.float32), "clip": 10.0}
    path = directory / f"{game.name}-{game.players}p-untrained{'' if normalized else '-raw'}.dspolicy"
    policy_file.write(path, policy)
    return str(path), "untrained 64x64" + ("" if normalized else ", raw obs")


def learner_steps_per_second(game: Any, envs: int, steps: int, seed: int, kw: Dict[str, Any]) -> Tuple[float, float]:
    """(CPU, wall) learner steps per second of `steps` steps of `envs` envs."""
    import dimsum

    env = dimsum.BatchEnv(game, num_envs=envs, seed=seed, threads=1, learner_seat=0, **kw)
    env.reset()
    cpu, wall = time.process_time(), time.perf_counter()
    for k in range(steps):
        env.step(env.sample_actions(seed * 1000 + k))  # the draw (C++) is timed too: it is cheap
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return envs * steps / cpu, envs * steps / wall


def child(argv: List[str]) -> None:
    """--child GAME PLAYERS ENVS STEPS SEED OPPONENT WEIGHTS: one measurement, printed as 'cpu wall'."""
    import dimsum

    name, players, envs, steps, seed, opponent, weights = argv
    game = dimsum.make(name, players=int(players))
    kw = dict(OPPONENTS[opponent])
    if opponent == "policy":
        kw["opponent_weights"] = weights
    cpu, wall = learner_steps_per_second(game, int(envs), int(steps), int(seed), kw)
    print(cpu, wall)


def run_child(build: Optional[str], args: List[str], callgrind: bool = False) -> str:
    env = dict(os.environ, OMP_NUM_THREADS="1")
    if build is not None:
        env["PYTHONPATH"] = os.pathsep.join([build, str(ROOT)])
    command = [sys.executable, str(Path(__file__).resolve()), "--child", *args]
    if callgrind:
        with tempfile.TemporaryDirectory() as tmp:
            command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", *command]
            out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stderr
        return re.search(r"Collected : (\d+)", out).group(1) if "Collected" in out else \
            re.search(r"I\s+refs:\s+([\d,]+)", out).group(1).replace(",", "")
    return subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        return child(sys.argv[2:])
    parser = argparse.ArgumentParser(description="Learner steps/s with a policy network as the opponents")
    parser.add_argument("--envs", type=int, nargs="+", default=[1024])
    parser.add_argument("--steps", type=int, default=100, help="steps of every env per round (default 100)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each from a fresh seed (default 3)")
    parser.add_argument("--games", nargs="+", default=["nice_buns:2", "nice_buns:4"], help="GAME:PLAYERS ...")
    parser.add_argument("--players", type=int, nargs="+", help="nice_buns with these player counts (old form)")
    parser.add_argument("--opponents", nargs="+", default=list(OPPONENTS), choices=list(OPPONENTS))
    parser.add_argument("--builds", nargs="+", help="PYTHONPATHs of builds to measure side by side (children)")
    parser.add_argument("--callgrind", action="store_true", help="instructions per learner step (callgrind)")
    parser.add_argument("--raw-observation", action="store_true",
                        help="untrained networks without observation normalization (sparse input)")
    args = parser.parse_args()
    import dimsum

    games = [f"nice_buns:{p}" for p in args.players] if args.players else args.games
    builds: List[Optional[str]] = list(args.builds) if args.builds else [None]
    tmp = Path(tempfile.mkdtemp(prefix="policy_opponents-"))
    if args.callgrind:
        print(f"instructions per learner step (callgrind), learner seat 0, threads=1, {args.steps} steps")
    else:
        print(f"learner seat 0, threads=1, {args.steps} steps x {args.rounds} rounds (best round), "
              "random legal learner actions; k learner steps/s, CPU / wall")
    unit = "instructions" if args.callgrind else "k steps/s"
    header = "  ".join(f"{'build ' + str(b) if args.builds else unit:>22s}" for b in range(len(builds)))
    # a rate's ratio is last / first (above 1: the last build is faster), a count's first / last (the same sense)
    ratio = f"  {'first/last instr' if args.callgrind else 'last/first CPU':>16s}" if len(builds) > 1 else ""
    print(f"{'game':>16s} {'envs':>5s}  {'opponent':26s} {header}{ratio}")
    if args.builds:
        for b, path in enumerate(builds):
            print(f"  build {b}: {path}")
    for spec in games:
        name, players = spec.split(":")
        game = dimsum.make(name, players=int(players))
        weights, label = weights_for(game, tmp, normalized=not args.raw_observation)
        for envs in args.envs:
            for opponent in args.opponents:
                what = f"{opponent} ({label})" if opponent == "policy" else opponent
                if args.callgrind:
                    counts = []
                    for build in builds:
                        base = [name, players, str(envs)]
                        full = int(run_child(build, [*base, str(args.steps), "7", opponent, weights], True))
                        none = int(run_child(build, [*base, "0", "7", opponent, weights], True))
                        counts.append((full - none) / (envs * args.steps))
                    cells = "  ".join(f"{c:22,.0f}" for c in counts)
                    extra = f"  {counts[0] / counts[-1]:13.2f}x" if len(counts) > 1 else ""
                    print(f"{name + ' ' + players + 'p':>16s} {envs:5d}  {what:26s} {cells}{extra}")
                    continue
                rates: List[List[Tuple[float, float]]] = [[] for _ in builds]
                for r in range(args.rounds):
                    order = list(range(len(builds)))
                    for b in (order if r % 2 == 0 else order[::-1]):
                        seed = 100 + r
                        if builds[b] is None:
                            kw = dict(OPPONENTS[opponent])
                            if opponent == "policy":
                                kw["opponent_weights"] = weights
                            rates[b].append(learner_steps_per_second(game, envs, args.steps, seed, kw))
                        else:
                            out = run_child(builds[b], [name, players, str(envs), str(args.steps), str(seed),
                                                        opponent, weights])
                            cpu, wall = (float(x) for x in out.split())
                            rates[b].append((cpu, wall))
                best = [(max(c for c, _ in rows), max(w for _, w in rows)) for rows in rates]
                cells = "  ".join(f"{c / 1e3:10.1f} / {w / 1e3:9.1f}" for c, w in best)
                extra = f"  {best[-1][0] / best[0][0]:13.2f}x" if len(best) > 1 else ""
                print(f"{name + ' ' + players + 'p':>16s} {envs:5d}  {what:26s} {cells}{extra}", flush=True)


if __name__ == "__main__":
    main()
