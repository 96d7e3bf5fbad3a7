"""Train a policy for a game with sb3-contrib's MaskablePPO on the C++ VecEnv against the heuristic
bot, reproducibly, and write it as a policy file (docs/BASELINES.md):

    nice -n 10 python -m dimsum.baselines.train nice_buns --players 2 --seed 0 --steps 300000

Every ``--eval-every`` learner steps it plays ``--eval-games`` greedy games against the heuristic
(seat-balanced: env i plays seat i mod players; the games are dealt from seeds no training game
uses), prints the win share with its Wilson 95% interval, and writes a checkpoint (a policy file).
At the end: ``curve.json`` and ``curve.png`` (win share against learner steps and minutes),
``best.dspolicy`` (the checkpoint that won most) and ``record.json`` (command, seed, steps, time,
git commit, library versions, the first checkpoint at or above ``--target``). ``--ship DIR``
copies the best policy and its record to DIR as ``<game>-<players>p.dspolicy`` / ``.json``.

Why against the heuristic, not self-play: on 2 cores the heuristic opponents cost about 4 us a
learner step inside the C++ VecEnv (docs/PERFORMANCE.md), a tenth of MaskablePPO's own cost, and
the target is to beat the heuristic; self-play would pay a torch forward pass per opponent move.
Needs the sb3 extra and matplotlib (``pip install "dimsum-games[train]"``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import numpy as np

EVAL_SEED_OFFSET = 1_000_003  # evaluation games are dealt from seed + this: never a training deal


def win_shares(returns: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """Each game's win share of the learner (1/k of a win shared by k seats, as the arena counts it)."""
    best = returns.max(axis=1, keepdims=True)
    winners = returns == best
    mine = winners[np.arange(len(seats)), seats]
    return np.where(mine, 1.0 / winners.sum(axis=1), 0.0)


def evaluate(model: Any, normalize: Any, game_name: str, options: Dict[str, Any], games: int, seed: int,
             envs: int = 64) -> Dict[str, Any]:
    """``games`` greedy games of ``model`` against the heuristic, seat-balanced; the win share and
    its Wilson interval."""
    from ..arena.ratings import wilson
    from ..sb3 import DimsumVecEnv

    players = int(options.get("players", 2))
    envs = max(players, min(envs, games) // players * players)
    seats = [i % players for i in range(envs)]
    env = DimsumVecEnv(game_name, num_envs=envs, learner_seat=seats, opponent="heuristic", threads=1, **options)
    env.seed(seed)
    obs: Any = env.reset()
    shares: List[float] = []
    started = [0] * envs  # games each env has begun: an env stops once its share of games is dealt
    per_env = -(-games // envs)
    while len(shares) < per_env * envs:
        masks = env.action_masks()
        actions, _ = model.predict(normalize(obs) if normalize else obs, action_masks=masks, deterministic=True)
        obs, _, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones):
            if started[i] < per_env and "returns" in infos[i]:
                r = np.asarray([infos[i]["returns"]])
                shares.append(float(win_shares(r, np.asarray([seats[i]]))[0]))
            started[i] += 1
    env.close()
    n = len(shares)
    low, high = wilson(sum(shares), n)
    return {"games": n, "win": float(np.mean(shares)), "low": low, "high": high}


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10,
                             cwd=Path(__file__).resolve().parent)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True, timeout=10, cwd=Path(__file__).resolve().parent).stdout.strip()
        return out.stdout.strip() + (" (with uncommitted changes)" if dirty else "") if out.returncode == 0 else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def plot(curve: List[Dict[str, Any]], title: str, path: Path, target: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    win = np.array([c["win"] for c in curve])
    err = np.array([[c["win"] - c["low"] for c in curve], [c["high"] - c["win"] for c in curve]])
    for ax, key, label in ((axes[0], "steps", "learner steps"), (axes[1], "minutes", "minutes (wall clock)")):
        x = np.array([c[key] for c in curve])
        ax.errorbar(x, win, yerr=err, marker="o", ms=3, capsize=2, label="policy vs heuristic (Wilson 95%)")
        ax.axhline(target, color="grey", ls="--", lw=1, label=f"target {target}")
        ax.axhline(1 / curve[0]["players"], color="grey", ls=":", lw=1, label="even")
        ax.set_xlabel(label + (" (training only)" if key == "minutes" else ""))
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win share")
    axes[0].legend(loc="lower right", fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dimsum.baselines.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a game name (nice_buns, yum_cha, ...)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=300_000, help="learner steps (default 300000)")
    parser.add_argument("--envs", type=int, default=None,
                        help="games stepped together, a multiple of --players (default: 64 rounded down to one)")
    parser.add_argument("--eval-every", type=int, default=25_000, help="learner steps between evaluations")
    parser.add_argument("--eval-games", type=int, default=200, help="games per evaluation (default 200)")
    parser.add_argument("--target", type=float, default=0.75, help="the win share whose first reach is recorded")
    parser.add_argument("--out", type=Path, default=None, help="the run's directory (default runs/GAME-Np-seedS)")
    parser.add_argument("--ship", type=Path, default=None, help="copy the best policy and its record here")
    args = parser.parse_args(argv)
    if args.envs is None:
        args.envs = max(1, 64 // max(1, args.players)) * max(1, args.players)
    for name in ("players", "steps", "envs", "eval_every", "eval_games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    if args.envs % args.players:
        parser.error(f"--envs ({args.envs}) must be a multiple of --players ({args.players}): env i learns seat i mod players")

    import dimsum

    options = {"players": args.players}
    try:
        game = dimsum.make(args.game, **options)
    except (ValueError, TypeError) as e:
        parser.error(str(e))

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecMonitor, VecNormalize

    from ..sb3 import DimsumVecEnv
    from .export import export_sb3
    from .policy_file import describe

    torch.set_num_threads(1)  # small networks: more threads only contend for the shared cores
    out = args.out or Path("runs") / f"{args.game}-{args.players}p-seed{args.seed}"
    out.mkdir(parents=True, exist_ok=True)
    seats = [i % args.players for i in range(args.envs)]  # every seat learned, as every seat is evaluated
    raw = DimsumVecEnv(args.game, num_envs=args.envs, learner_seat=seats, opponent="heuristic", threads=1,
                       seed=args.seed, **options)
    env = VecNormalize(VecMonitor(raw), norm_obs_keys=["observation"], norm_reward=False)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=128, batch_size=512, n_epochs=4, seed=args.seed,
                        device="cpu", verbose=0)
    command = "python -m dimsum.baselines.train " + " ".join(sys.argv[1:] if argv is None else argv)
    commit = git_commit()  # the code as it starts: the tree may move on while it trains
    curve: List[Dict[str, Any]] = []
    wall0, cpu0 = time.perf_counter(), time.process_time()
    eval_wall, eval_cpu = [0.0], [0.0]  # evaluation time, left out of the training time

    def checkpoint() -> None:
        steps = model.num_timesteps
        minutes = (time.perf_counter() - wall0 - eval_wall[0]) / 60
        cpu = time.process_time() - cpu0 - eval_cpu[0]
        w0, c0 = time.perf_counter(), time.process_time()
        result = evaluate(model, env.normalize_obs, args.game, options, args.eval_games,
                          args.seed + EVAL_SEED_OFFSET + len(curve))
        eval_wall[0] += time.perf_counter() - w0
        eval_cpu[0] += time.process_time() - c0
        path = out / f"step-{steps:08d}.dspolicy"
        export_sb3(model, path, game, env, source=f"{command} (checkpoint at {steps} steps)")
        curve.append({"steps": steps, "minutes": round(minutes, 3), "train_cpu_seconds": round(cpu, 1),
                      "players": args.players, "checkpoint": path.name, **result})
        print(f"{steps:>9} steps {minutes:6.1f} min (training CPU {cpu:6.0f} s): wins {result['win']:.3f} "
              f"[{result['low']:.3f}, {result['high']:.3f}] of {result['games']} games vs heuristic", flush=True)
        (out / "curve.json").write_text(json.dumps(curve, indent=1))

    class Every(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next = args.eval_every

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next:
                self.next += args.eval_every
                checkpoint()
            return True

    print(f"MaskablePPO on {args.game} {describe(options)} against the heuristic, seed {args.seed}, "
          f"{args.steps} learner steps, {args.envs} envs; writing to {out}", flush=True)
    model.learn(total_timesteps=args.steps, callback=Every())
    if not curve or curve[-1]["steps"] != model.num_timesteps:
        checkpoint()
    best = max(curve, key=lambda c: (c["win"], c["steps"]))
    shutil.copyfile(out / best["checkpoint"], out / "best.dspolicy")
    reached = next((c for c in curve if c["win"] >= args.target), None)
    record = {
        "command": command, "game": args.game, "options": options, "seed": args.seed, "steps": model.num_timesteps,
        "minutes": curve[-1]["minutes"], "train_cpu_seconds": curve[-1]["train_cpu_seconds"],
        "algorithm": "sb3-contrib MaskablePPO('MultiInputPolicy', n_steps=128, batch_size=512, n_epochs=4), "
                     "VecNormalize(observation only), opponents: the heuristic bot, every seat learned",
        "git_commit": commit, "versions": _versions(), "best": best,
        "target": args.target, "first_at_target": reached, "machine": "2 cores shared with other jobs; nice, torch on 1 thread",
    }
    (out / "record.json").write_text(json.dumps(record, indent=1))
    try:
        plot(curve, f"MaskablePPO on {args.game}, {args.players} players, seed {args.seed}", out / "curve.png", args.target)
    except ImportError:
        print("matplotlib is not installed: no curve.png (pip install matplotlib)")
    when = "never" if reached is None else f"{reached['steps']} steps, {reached['minutes']} min"
    print(f"best: {best['checkpoint']} wins {best['win']:.3f}; first at >= {args.target}: {when}")
    if args.ship:
        args.ship.mkdir(parents=True, exist_ok=True)
        stem = f"{args.game}-{args.players}p"
        shutil.copyfile(out / "best.dspolicy", args.ship / f"{stem}.dspolicy")
        (args.ship / f"{stem}.json").write_text(json.dumps(record, indent=1) + "\n")
        print(f"shipped to {args.ship / stem}.dspolicy")
    env.close()
    return 0


def _versions() -> Dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("torch", "stable-baselines3", "sb3-contrib", "numpy"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "absent"
    return found


if __name__ == "__main__":
    sys.exit(main())
