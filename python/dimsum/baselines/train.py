"""Train a policy for a game with sb3-contrib's MaskablePPO on the C++ VecEnv, reproducibly, and
write it as a policy file (docs/BASELINES.md):

    nice -n 10 python -m dimsum.baselines.train nice_buns --players 2 --seed 0 --steps 300000

Every ``--eval-every`` learner steps it writes a checkpoint (a policy file) and plays
``--eval-games`` greedy games (seat-balanced: env i plays seat i mod players; dealt from seeds no
training game uses): against the heuristic and against the previous checkpoint; in a cooperative
game (Dim Sum Jam), as a team of the policy in every seat (the target) and with heuristic
teammates. It prints the win shares with their Wilson 95% intervals and a progress line (SB3's
progress bar on a terminal when tqdm and rich are installed). At the end, or when stopped early by
Ctrl-C or SIGTERM: ``curve.json`` and ``curve.png`` (win shares against learner steps and minutes),
``best.dspolicy`` (the checkpoint that won most at the target measure) and ``record.json``
(command, seed, steps, time, git commit, library versions, the first checkpoint at or above
``--target``). ``--ship DIR`` copies the best policy and its record to DIR as
``<game>-<players>p.dspolicy`` / ``.json``.

``--opponents`` picks who plays the other seats (opponents.py): ``heuristic`` (the default),
``self`` (the latest checkpoint, after ``--warm-start`` steps against the heuristic) or
``league`` (the heuristic and every earlier checkpoint, one drawn per evaluation period).

Why the heuristic by default, measured on this 2-core machine (docs/BASELINES.md): heuristic
opponents cost about 4 us a learner step inside the C++ VecEnv, a tenth of MaskablePPO's own
cost, while a checkpoint as the opponent makes env steps 5.6x slower at 2 players (a forward
pass per opponent move); with the heuristic the Nice Buns targets were met (2p in 0.5 minutes of
training, 4p in 16). In a cooperative game the other seats are the policy's own team, so Dim Sum Jam trains
with ``self`` after a warm start: with heuristic teammates the team of the policy stayed at
0.4-1.2% of evaluation games for 300 k steps; in self-play it rose to 0.07-0.14 by 4 M. Where the
heuristic is never beaten (Yum Cha 4p: 0 wins in 6 M steps) the win reward is always 0 and
nothing is learned, and a league did no better (0.015 at 4.5 M); a dense reward did
(``--option reward=score``: parity with three heuristics by 3.5 M steps).
``--imitate STEPS`` starts from a clone of the heuristic (imitation.py: its moves in the learner
seats for STEPS decisions, the policy and value heads fitted to them), evaluated as the checkpoint
at 0 steps. With it Yum Cha 4p (``reward=score``, ``--opponents league``) beat the heuristic in
mixed tables within 1.3 M steps; Dim Sum Jam's team reached in 0.5 M steps what 4 M from scratch
had (about 0.09 in the arena) and rose slowly after it (level with the heuristic team at 2.9 M in
the best run), the clone agreeing with the heuristic in only 0.62 of held-out decisions; resumed
from there (``--resume``) for 4.7 M (4p) and 9.8 M (3p) more steps of self-play, a team of the
policy beat a team of heuristics, intervals apart (0.30 and 0.27 against 0.16 in the arena).
``--resume PATH`` continues from a policy file (resume.py: its actor and observation statistics;
the value head starts untrained, so ``--critic-warmup STEPS`` trains the critic alone first);
``--hidden W,W`` sets the widths of the actor's and the critic's hidden layers (SB3's 64,64 by default).
Needs the sb3 extra and matplotlib (``pip install "dimsum-games[train]"``).
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..cli.arena import _option  # the arena's NAME=VALUE rule for --option
from .evaluation import evaluate, win_shares  # noqa: F401  (win_shares: part of this module's API)
from . import run_files
from .opponents import MODES, OpponentSchedule
from . import shaping
from .shaping import MODES as SHAPINGS

SEEDS = 1 << 64  # a seed is what dimsum's check_seed takes, folded into [0, 2**64); derived ones wrap there
SB3_SEEDS = 1 << 32  # SB3 seeds numpy's legacy generator, which takes [0, 2**32): a seed below it is passed as it is
MAX_STEPS = 10**12  # learner steps (and warm-ups, evaluation periods): about a year at 30,000 a second
MAX_EVAL_GAMES = 1_000_000  # an evaluation of a million games takes hours on this machine; more is a typo
MAX_EPOCHS = 10_000
MAX_LAYERS = 16  # hidden layers; the trained networks have two
ROLLOUT_STEPS = 128  # MaskablePPO's n_steps: the rollout buffer holds this many steps of every env
EVAL_SEED_OFFSET = 1_000_003  # evaluation games are dealt from seed + this: never a training deal
ENV_SEED_STRIDE = 10_007  # a training env rebuilt for a new opponent deals from seed + k * this


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10,
                             cwd=Path(__file__).resolve().parent)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True, timeout=10, cwd=Path(__file__).resolve().parent).stdout.strip()
        return out.stdout.strip() + (" (with uncommitted changes)" if dirty else "") if out.returncode == 0 else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def plot(curve: List[Dict[str, Any]], title: str, path: Path, target: float,
         reference: Optional[Dict[str, float]] = None) -> None:
    """The curve: each evaluation series (``curve[i]["evals"]``) with its intervals against learner
    steps and training minutes; ``reference``: a labelled horizontal line (the heuristic team's rate).
    Drawn to bytes and written through the atomic writer (never through a link at ``path``)."""
    from .._files import write_atomically

    write_atomically(path, plot_png(curve, title, target, reference))


def plot_png(curve: List[Dict[str, Any]], title: str, target: float,
             reference: Optional[Dict[str, float]] = None) -> bytes:
    """``plot``'s picture as PNG bytes."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    names = [name for name in curve[-1]["evals"]]
    for ax, key, label in ((axes[0], "steps", "learner steps"), (axes[1], "minutes", "minutes (wall clock)")):
        for name in names:
            points = [c for c in curve if name in c["evals"]]
            x = np.array([c[key] for c in points])
            win = np.array([c["evals"][name]["win"] for c in points])
            err = np.array([[c["evals"][name]["win"] - c["evals"][name]["low"] for c in points],
                            [c["evals"][name]["high"] - c["evals"][name]["win"] for c in points]])
            err = np.clip(err, 0.0, None)  # Wilson's bound at a share of 0 or 1 can pass it by a rounding error
            ax.errorbar(x, win, yerr=err, marker="o", ms=3, capsize=2, label=f"policy {SERIES[name]} (Wilson 95%)")
        ax.axhline(target, color="grey", ls="--", lw=1, label=f"target {target}")
        if reference:
            ax.axhline(reference["win"], color="tab:red", ls=":", lw=1, label=reference["label"])
        else:
            ax.axhline(1 / curve[0]["players"], color="grey", ls=":", lw=1, label="even")
        ax.set_xlabel(label + (" (training only)" if key == "minutes" else ""))
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win share")
    axes[0].legend(loc="best", fontsize=7)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=90)
    plt.close(fig)
    return png.getvalue()


SERIES = {"heuristic": "vs heuristic", "previous": "vs its previous checkpoint",
          "heuristic_team": "with heuristic teammates", "team": "as a team (every seat)"}


def main(argv: Optional[List[str]] = None) -> int:
    """Trains as the module's docstring says. Exit codes: 0 when the run is done; 2 for a usage
    error (argparse's, every argument checked before the training stack is imported); 1 when a
    file cannot be written (a symbolic link where one goes is refused, never followed); 128 + the
    signal when stopped by one (130 for Ctrl-C, 143 for SIGTERM), after recording what was done."""
    parser = _parser()
    args = parser.parse_args(argv)
    game, seed = _check_arguments(parser, args)  # all of them, before torch is imported
    out = _out_directory(args)
    main_thread = threading.current_thread() is threading.main_thread()
    previous_term = signal.signal(signal.SIGTERM, _stop) if main_thread else None  # `kill PID` stops as Ctrl-C does
    try:
        return _train(parser, args, game, seed, argv)
    except KeyboardInterrupt as e:  # before the training loop (imports, imitation) or while recording after it
        signum = getattr(e, "signum", signal.SIGINT)
        print(f"python -m dimsum.baselines.train: interrupted ({signal.Signals(signum).name}); the checkpoints and "
              f"curve.json written so far stay in {out}", file=sys.stderr, flush=True)
        return 128 + signum
    except OSError as e:  # a file of the run that cannot be written: a link planted there, a full disk
        print(f"python -m dimsum.baselines.train: error: {e}", file=sys.stderr, flush=True)
        return 1
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous_term)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m dimsum.baselines.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a game name (nice_buns, yum_cha, ...)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=300_000, help="learner steps (default 300000)")
    parser.add_argument("--envs", type=int, default=None,
                        help="games stepped together, a multiple of --players (default: 64 rounded down to one)")
    parser.add_argument("--option", action="append", type=_option, default=[], metavar="NAME=VALUE",
                        help="a game option besides players, e.g. reward=score (Yum Cha's point totals); repeatable")
    parser.add_argument("--opponents", choices=MODES, default="heuristic",
                        help="who plays the other seats: the heuristic (default), the latest checkpoint "
                             "(self) or a league of the heuristic and every checkpoint, after --warm-start")
    parser.add_argument("--warm-start", type=int, default=0,
                        help="learner steps against the heuristic before self-play or the league (default 0)")
    parser.add_argument("--imitate", type=int, default=0, metavar="STEPS",
                        help="a warm start by behaviour cloning: STEPS learner-seat decisions of the heuristic, "
                             "collected in the training env, fitted before PPO (imitation.py; default 0: none)")
    parser.add_argument("--imitate-epochs", type=int, default=8, help="passes over the imitation data (default 8)")
    parser.add_argument("--resume", type=Path, default=None, metavar="PATH",
                        help="start from a policy file's actor and observation statistics (resume.py), evaluated "
                             "as the checkpoint at 0 steps; the value head starts untrained")
    parser.add_argument("--critic-warmup", type=int, default=0, metavar="STEPS",
                        help="the first STEPS learner steps train the value head only, the actor frozen (default 0)")
    parser.add_argument("--hidden", type=_widths, default=None, metavar="W,W",
                        help="hidden layer widths of the actor and of the critic (default 64,64, SB3's; "
                             "with --resume: the file's)")
    parser.add_argument("--shaping", choices=SHAPINGS, default="none",
                        help="a denser training reward declared by the game (its shaping.py): Dim Sum Jam's "
                             "team_progress pays orders fulfilled and complaints besides the win; evaluations "
                             "count wins only (default none)")
    parser.add_argument("--eval-every", type=int, default=25_000, help="learner steps between evaluations")
    parser.add_argument("--eval-games", type=int, default=200, help="games per evaluation (default 200)")
    parser.add_argument("--target", type=float, default=0.75, help="the win share whose first reach is recorded")
    parser.add_argument("--out", type=Path, default=None, help="the run's directory (default runs/GAME-Np-seedS)")
    parser.add_argument("--ship", type=Path, default=None, help="copy the best policy and its record here")
    return parser


def _train(parser: argparse.ArgumentParser, args: argparse.Namespace, game: Any, seed: int,
           argv: Optional[List[str]]) -> int:
    import dimsum

    options = {"players": args.players, **dict(args.option)}
    cooperative = dimsum.game_info(args.game).cooperative  # one shared return: the team's win is the target

    from .policy_file import describe, read
    from .resume import freeze_actor, hidden_widths, load_into

    # --resume checked before the training stack is imported: a wrong file is a usage error
    resumed = None
    hidden, activation = args.hidden, "tanh"
    if args.resume is not None:
        try:
            resumed = read(args.resume)
            resumed.check_game(game)
            widths, activation = hidden_widths(resumed)
        except (OSError, ValueError) as e:
            parser.error(f"--resume {args.resume}: {e}")
        if hidden is not None and hidden != widths:
            parser.error(f"--hidden {','.join(map(str, hidden))} differs from the resumed file's {','.join(map(str, widths))}")
        hidden = widths

    from .._extras import needs_extra

    with needs_extra("train", "python -m dimsum.baselines.train"):
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import VecMonitor, VecNormalize

    from ..sb3 import DimsumVecEnv
    from .export import export_sb3
    from .progress import progress_callback

    # no policy_kwargs unless asked: a run without --hidden or --resume builds exactly the model it did before
    policy_kwargs: Dict[str, Any] = {} if hidden is None else {"policy_kwargs": dict(
        net_arch=dict(pi=list(hidden), vf=list(hidden)), activation_fn=torch.nn.ReLU if activation == "relu" else torch.nn.Tanh)}

    torch.set_num_threads(1)  # small networks: more threads only contend for the shared cores
    out = _out_directory(args)
    out.mkdir(parents=True, exist_ok=True)
    seats = [i % args.players for i in range(args.envs)]  # every seat learned, as every seat is evaluated
    schedule = OpponentSchedule(args.opponents, args.warm_start, seed)

    def training_env(opponent: str, weights: Optional[str], rebuilt: int, previous: Any = None) -> Any:
        """The training VecEnv against ``opponent``; a rebuilt one deals new games and keeps the
        observation statistics ``previous`` (the VecNormalize it replaces) gathered."""
        raw = DimsumVecEnv(args.game, num_envs=args.envs, learner_seat=seats, opponent=opponent,
                           opponent_weights=weights, threads=1, seed=_offset(seed, ENV_SEED_STRIDE * rebuilt), **options)
        paid = raw if args.shaping == "none" else shaping.wrap(raw, game, args.shaping)
        wrapped = VecNormalize(VecMonitor(paid), norm_obs_keys=["observation"], norm_reward=False)
        if previous is not None:
            wrapped.obs_rms = previous.obs_rms
            previous.close()
        return wrapped

    env = training_env("heuristic", None, 0)
    against: Any = ("heuristic", None)
    rebuilt = 0
    model = MaskablePPO("MultiInputPolicy", env, n_steps=128, batch_size=512, n_epochs=4, seed=seed % SB3_SEEDS,
                        device="cpu", verbose=0, **policy_kwargs)
    command = "python -m dimsum.baselines.train " + " ".join(sys.argv[1:] if argv is None else argv)
    commit = git_commit()  # the code as it starts: the tree may move on while it trains
    curve: List[Dict[str, Any]] = []
    checkpoints: List[str] = []
    wall0, cpu0 = time.perf_counter(), time.process_time()
    eval_wall, eval_cpu = [0.0], [0.0]  # evaluation time, left out of the training time

    def checkpoint() -> None:
        steps = model.num_timesteps
        minutes = (time.perf_counter() - wall0 - eval_wall[0]) / 60
        cpu = time.process_time() - cpu0 - eval_cpu[0]
        w0, c0 = time.perf_counter(), time.process_time()
        path = out / f"step-{steps:08d}.dspolicy"
        export_sb3(model, path, game, env, source=f"{command} (checkpoint at {steps} steps)")
        deal = _offset(seed, EVAL_SEED_OFFSET + len(curve))

        def games(opponent: str, weights: Optional[Path] = None) -> Dict[str, Any]:
            return evaluate(model, env.normalize_obs, args.game, options, args.eval_games, deal, opponent=opponent,
                            opponent_weights=None if weights is None else str(weights), cooperative=cooperative)

        evals: Dict[str, Any] = {}
        if cooperative:  # the target: a team of the policy; beside it, the policy among heuristics
            evals["team"] = games("policy", path)
            evals["heuristic_team"] = games("heuristic")
        else:  # the target: the heuristic; beside it, progress over the previous checkpoint
            evals["heuristic"] = games("heuristic")
            if checkpoints:
                evals["previous"] = {**games("policy", Path(checkpoints[-1])), "checkpoint": Path(checkpoints[-1]).name}
        eval_wall[0] += time.perf_counter() - w0
        eval_cpu[0] += time.process_time() - c0
        checkpoints.append(str(path))
        head = evals["team" if cooperative else "heuristic"]
        curve.append({"steps": steps, "minutes": round(minutes, 3), "train_cpu_seconds": round(cpu, 1),
                      "players": args.players, "checkpoint": path.name,
                      "trained_against": against[0] if against[1] is None else Path(against[1]).name,
                      **{k: head[k] for k in ("games", "win", "low", "high")}, "evals": evals})
        line = "; ".join(f"{SERIES[k]} {v['win']:.3f} [{v['low']:.3f}, {v['high']:.3f}]"
                         for k, v in evals.items())
        print(f"{steps:>9} steps {minutes:6.1f} min (training CPU {cpu:6.0f} s): wins in {head['games']} games "
              f"{line}", flush=True)
        run_files.write_json(out / "curve.json", curve)

    imitation: Optional[Dict[str, Any]] = None
    if args.imitate:
        imitation = imitate(model, env, args.imitate, args.imitate_epochs, seed)
        checkpoint()  # the clone at 0 PPO steps: where RL starts (and, in self-play, its first opponent)
    if resumed is not None:
        load_into(model, env, resumed)
        checkpoint()  # the resumed policy as it was: where RL starts again (in self-play, its first opponent)
    progress = progress_callback(args.steps)
    stopped = 0  # the signal that stopped the run early, if one did
    try:  # the first line inside: a signal met as soon as it is out is still this block's to record
        print(f"MaskablePPO on {args.game} {describe(options)} against {schedule.describe()}, seed {args.seed}, "
              f"{args.steps} learner steps, {args.envs} envs; writing to {out}", flush=True)
        while model.num_timesteps < args.steps:
            pick = schedule.pick(model.num_timesteps, checkpoints)
            if pick != against:  # a new opponent: a new env, the same observation statistics
                rebuilt += 1
                env = training_env(pick[0], pick[1], rebuilt, env)
                model.set_env(env)
                against = pick
            period = min(args.eval_every, args.steps - model.num_timesteps)
            warming = model.num_timesteps < args.critic_warmup
            if warming:  # a period ends where the warm-up does, so that the actor is frozen exactly for it
                period = min(period, args.critic_warmup - model.num_timesteps)
            env.training = not warming  # the observation statistics too: the policy played is the one loaded
            with freeze_actor(model) if warming else nullcontext():
                model.learn(total_timesteps=period, reset_num_timesteps=False, callback=progress)
            checkpoint()
    except KeyboardInterrupt as e:  # Ctrl-C (SIGINT) or SIGTERM ends the run early: the checkpoints so far make a record
        stopped = getattr(e, "signum", signal.SIGINT)
        print(f"interrupted ({signal.Signals(stopped).name}) at {model.num_timesteps} steps: recording the "
              "checkpoints so far", flush=True)
        if not curve or curve[-1]["steps"] != model.num_timesteps:
            checkpoint()
    progress.close()
    head = "team" if cooperative else "heuristic"
    best = max(curve, key=lambda c: (c["win"], c["steps"]))
    run_files.copy_policy(out / best["checkpoint"], out / "best.dspolicy")
    reached = next((c for c in curve if c["win"] >= args.target), None)
    record = {
        "command": command, "game": args.game, "options": options, "seed": args.seed, "steps": model.num_timesteps,
        "minutes": curve[-1]["minutes"], "train_cpu_seconds": curve[-1]["train_cpu_seconds"],
        "algorithm": "sb3-contrib MaskablePPO('MultiInputPolicy', n_steps=128, batch_size=512, n_epochs=4"
                     + ("" if hidden is None else f", net_arch {list(hidden)} {activation}") + "), "
                     f"VecNormalize(observation only), opponents: {schedule.describe()}, every seat learned"
                     + (f", the actor frozen for the first {args.critic_warmup} steps" if args.critic_warmup else "")
                     + (f", reward shaping {args.shaping} (shaping.py)" if args.shaping != "none" else ""),
        "imitation": imitation,
        "resumed_from": None if resumed is None else {"path": str(args.resume), "source": resumed.source},
        "measure": "policy " + SERIES[head], "stopped_early": bool(stopped), "git_commit": commit, "versions": _versions(),
        "best": best,
        "target": args.target, "first_at_target": reached, "machine": "2 cores shared with other jobs; nice, torch on 1 thread",
    }
    run_files.write_json(out / "record.json", record)
    try:
        plot(curve, f"MaskablePPO on {args.game}, {args.players} players, seed {args.seed}", out / "curve.png", args.target)
    except ImportError:
        print("matplotlib is not installed: no curve.png (pip install matplotlib)")
    when = "never" if reached is None else f"{reached['steps']} steps, {reached['minutes']} min"
    print(f"best (policy {SERIES[head]}): {best['checkpoint']} wins {best['win']:.3f}; first at >= {args.target}: {when}")
    if args.ship:
        args.ship.mkdir(parents=True, exist_ok=True)
        stem = f"{args.game}-{args.players}p"
        run_files.copy_policy(out / "best.dspolicy", args.ship / f"{stem}.dspolicy")
        run_files.write_json(args.ship / f"{stem}.json", record, "\n")
        print(f"shipped to {args.ship / stem}.dspolicy")
    env.close()
    if stopped:
        print(f"stopped early by {signal.Signals(stopped).name}: exit code {128 + stopped}", flush=True)
    return 128 + stopped if stopped else 0


def imitate(model: Any, env: Any, steps: int, epochs: int, seed: int) -> Dict[str, Any]:
    """The behaviour-cloning warm start (imitation.py): ``steps`` heuristic decisions in the
    learner seats of ``env``, the last tenth held out to measure agreement, the policy and value
    heads fitted on the rest. Returns what the record keeps."""
    from . import imitation as im

    wall, cpu = time.perf_counter(), time.process_time()
    data = im.collect(env, steps, seed, model.gamma)
    cut = len(data) - len(data) // 10 // env.num_envs * env.num_envs  # whole env steps: the latest rounds held out
    train_part, held_out = im.split(data, cut)
    collected = time.perf_counter() - wall

    def normalize(observations: np.ndarray) -> np.ndarray:
        return env._normalize_obs(observations, env.obs_rms["observation"])

    before = im.agreement(model, held_out, normalize)
    stats = im.fit(model, train_part, normalize, epochs, seed=seed, log=lambda line: print(line, flush=True))
    after = im.agreement(model, held_out, normalize)
    summary = {"decisions": len(data), "held_out": len(held_out), "epochs": epochs,
               "agreement_held_out": round(after, 4), "agreement_untrained": round(before, 4),
               "agreement_random_legal": round(im.random_agreement(held_out), 4),
               "cross_entropy": round(stats["cross_entropy"], 4), "value_mse": round(stats["value_mse"], 4),
               "collect_seconds": round(collected, 1), "wall_seconds": round(time.perf_counter() - wall, 1),
               "cpu_seconds": round(time.process_time() - cpu, 1)}
    print(f"imitation: {len(data)} heuristic decisions ({collected:.0f} s to collect), {epochs} epochs: the policy "
          f"picks the heuristic's move in {after:.3f} of {len(held_out)} held-out decisions (untrained {before:.3f}, "
          f"a random legal move {summary['agreement_random_legal']:.3f})", flush=True)
    return summary


def _widths(text: str) -> List[int]:
    """``--hidden``: comma-separated positive widths, ``"128,128"`` (at most MAX_LAYERS of them;
    their total size is checked against the game's in _check_arguments)."""
    if text.count(",") >= MAX_LAYERS:
        raise argparse.ArgumentTypeError(f"at most {MAX_LAYERS} hidden widths, got {text.count(',') + 1}")
    try:
        widths = [int(w) for w in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"hidden widths are positive integers separated by commas, got {text[:80]!r}") from None
    if not widths or min(widths) < 1:
        raise argparse.ArgumentTypeError(f"hidden widths are positive integers separated by commas, got {text[:80]!r}")
    return widths


def _check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Tuple[Any, int]:
    """Every argument checked before anything heavy starts (torch is not imported yet): a bad one
    is argparse's usage error (exit 2) naming it and what is allowed. Returns the game and the
    seed the run uses (``--seed`` folded as dimsum's check_seed folds it)."""
    from .._common import check_seed

    if args.envs is None:
        args.envs = max(1, 64 // max(1, args.players)) * max(1, args.players)
    for name in ("players", "steps", "envs", "eval_every", "eval_games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    if args.imitate < 0 or args.imitate_epochs < 1:
        parser.error(f"--imitate must be >= 0 and --imitate-epochs >= 1, got {args.imitate}, {args.imitate_epochs}")
    if args.warm_start < 0:
        parser.error(f"--warm-start must be >= 0, got {args.warm_start}")
    if args.critic_warmup < 0:
        parser.error(f"--critic-warmup must be >= 0, got {args.critic_warmup}")
    for name, most in (("steps", MAX_STEPS), ("eval_every", MAX_STEPS), ("warm_start", MAX_STEPS),
                       ("critic_warmup", MAX_STEPS), ("imitate", MAX_STEPS), ("eval_games", MAX_EVAL_GAMES),
                       ("imitate_epochs", MAX_EPOCHS)):
        if getattr(args, name) > most:
            parser.error(f"--{name.replace('_', '-')} must be at most {most}, got {getattr(args, name)}")
    if not (math.isfinite(args.target) and 0.0 <= args.target <= 1.0):
        parser.error(f"--target is a win share: a number in [0, 1], got {args.target}")
    try:
        seed = check_seed(args.seed)
    except ValueError:
        parser.error(f"--seed must be an int in [-2**63, 2**64) (a negative one folds to 2**64 + seed, as numpy's "
                     f"do), got {args.seed}")
    if args.resume is not None and args.imitate:
        parser.error("--resume and --imitate both make the starting policy: give one")
    if args.envs % args.players:
        parser.error(f"--envs ({args.envs}) must be a multiple of --players ({args.players}): env i learns seat i mod players")

    import dimsum

    options = {"players": args.players, **dict(args.option)}
    if any(name == "players" for name, _ in args.option):
        parser.error("give the player count as --players, not --option players=N")
    try:
        game = dimsum.make(args.game, **options)
    except (ValueError, TypeError) as e:
        parser.error(str(e))
    if args.shaping != "none" and args.shaping not in shaping.declared(game.name):
        parser.error(f"--shaping {args.shaping} is not declared by {game.name} (dimsum/games/{game.name}/shaping.py)")
    _check_sizes(parser, args, game)
    for problem in (run_files.check_outputs(_out_directory(args), run_files.RUN_FILES, "--out"),
                    None if args.ship is None else
                    run_files.check_outputs(args.ship, run_files.shipped_names(args.game, args.players), "--ship")):
        if problem is not None:
            parser.error(problem)
    return game, seed


def _check_sizes(parser: argparse.ArgumentParser, args: argparse.Namespace, game: Any) -> None:
    """What the arguments make the run hold, against what it can. The actor (``--hidden``) is
    written as a policy file, a format read only up to policy_file.MAX_BYTES (64 MiB): a network
    whose weights do not fit could be trained but never saved, so it is refused now (SB3's 64,64
    on the largest game, Dim Sum Jam, is 0.4 MiB). The rollout buffer (``--envs``) and the
    imitation data (``--imitate``) are held in memory: each must fit in half of the machine's."""
    from .policy_file import MAX_BYTES

    inputs, actions = int(np.prod(game.observation_shape)), game.num_actions
    if args.hidden is not None:
        sizes = [inputs, *args.hidden, actions]
        weights = sum(a * b + b for a, b in zip(sizes, sizes[1:]))
        most = MAX_BYTES // 4 - 2 * inputs - (1 << 16)  # float32 weights, beside the normalization and the header
        if weights > most:
            parser.error(f"--hidden {','.join(map(str, args.hidden))}: the actor would have {weights} weights "
                         f"({4 * weights / 2**20:.0f} MiB of float32); a policy file holds at most {most} "
                         f"(its format reads {MAX_BYTES >> 20} MiB): give narrower layers")
    budget = _memory_budget()
    rollout = ROLLOUT_STEPS * args.envs * (4 * (inputs + 2 * actions) + 64)
    if rollout > budget:
        parser.error(f"--envs {args.envs}: the rollout buffer ({ROLLOUT_STEPS} steps of every env) would hold "
                     f"{rollout / 2**30:.1f} GiB, more than half of this machine's memory ({budget / 2**30:.1f} GiB)")
    demonstrations = (-(-args.imitate // args.envs) * args.envs) * (4 * inputs + actions + 25)
    if demonstrations > budget:
        parser.error(f"--imitate {args.imitate}: the decisions would hold {demonstrations / 2**30:.1f} GiB, more than "
                     f"half of this machine's memory ({budget / 2**30:.1f} GiB)")


def _memory_budget() -> int:
    """Half of the machine's physical memory (16 GiB where it cannot be read)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
    except (AttributeError, ValueError, OSError):
        return 16 << 30


def _out_directory(args: argparse.Namespace) -> Path:
    return args.out or Path("runs") / f"{args.game}-{args.players}p-seed{args.seed}"


def _offset(seed: int, offset: int) -> int:
    """A seed derived from the run's by an offset (an evaluation's, a rebuilt env's), wrapping at
    2**64: for the seeds below 2**64 - offset, the plain sum (the seeds earlier runs used)."""
    return (seed + offset) % SEEDS


class _Stopped(KeyboardInterrupt):
    """SIGTERM, met as Ctrl-C is (the run records what it has done), remembering which signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"signal {signum}")
        self.signum = signum


def _stop(signum: int, frame: Any) -> None:
    raise _Stopped(signum)


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
