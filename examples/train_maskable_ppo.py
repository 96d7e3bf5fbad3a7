"""Train sb3-contrib's MaskablePPO on Nice Buns with the C++ VecEnv (dimsum.sb3.DimsumVecEnv: the
other seats played by the heuristic bot inside the engine), then play the trained policy against
the same opponents and print how often it wins. Needs the sb3 extra
(pip install "dimsum-games[sb3]"; docs/TRAINING.md).

    python examples/train_maskable_ppo.py                   # a short run (a few seconds)
    python examples/train_maskable_ppo.py --steps 200000    # a real one
"""

# needs: stable_baselines3, sb3_contrib, torch
from __future__ import annotations

import argparse
from typing import List, Optional

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor

from dimsum.sb3 import DimsumVecEnv

GAME, PLAYERS = "nice_buns", 2


def win_rate(model: Optional[MaskablePPO], games: int, seed: int) -> float:
    """The learner's share of won games (return above the opponent's) against the heuristic bot;
    ``model=None`` plays uniformly random legal moves (the baseline)."""
    env = DimsumVecEnv(GAME, num_envs=32, opponent="heuristic", threads=1, players=PLAYERS)
    env.seed(seed)
    obs = env.reset()
    rng = np.random.default_rng(seed)
    wins: List[bool] = []
    while len(wins) < games:
        masks = env.action_masks()
        if model is None:
            actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        else:
            actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        next_obs, _, dones, infos = env.step(actions)
        assert isinstance(next_obs, dict)  # DimsumVecEnv's observations are a dict of arrays
        obs = next_obs
        for i in np.flatnonzero(dones):
            returns = infos[i]["returns"]
            wins.append(returns[0] > max(returns[1:]))
    env.close()
    return float(np.mean(wins[:games]))


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description="MaskablePPO on Nice Buns with dimsum's C++ VecEnv")
    parser.add_argument("--steps", type=int, default=4096, help="learner steps to train (default 4096)")
    parser.add_argument("--envs", type=int, default=32, help="games stepped together (default 32)")
    parser.add_argument("--games", type=int, default=100, help="games to evaluate (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # small networks: more threads only contend for the cores

    env = VecMonitor(DimsumVecEnv(GAME, num_envs=args.envs, opponent="heuristic", players=PLAYERS))
    model = MaskablePPO("MultiInputPolicy", env, n_steps=128, batch_size=512, n_epochs=4, seed=args.seed)
    print(f"random masked policy wins {win_rate(None, args.games, seed=1):.3f} of {args.games} games")
    model.learn(total_timesteps=args.steps)
    print(f"after {model.num_timesteps} steps MaskablePPO wins {win_rate(model, args.games, seed=1):.3f} "
          f"of {args.games} games against the heuristic bot")
    env.close()


if __name__ == "__main__":
    main()
