"""Greedy evaluation games of a model being trained, on the C++ VecEnv: the model in one seat of
each game, the other seats played by the heuristic or by a policy file (an earlier checkpoint, or
the model's own latest checkpoint: in a cooperative game that is a team of the policy)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np


def win_shares(returns: np.ndarray, seats: np.ndarray, cooperative: bool = False) -> np.ndarray:
    """Each game's win share of the learner, as the arena counts it: a win shared by k seats
    counts 1/k; in a cooperative game (every seat gets the same return, 1 on a win and 0 on a
    loss) the learner's seat wins whole when its return is positive."""
    if cooperative:
        return (returns[np.arange(len(seats)), seats] > 0).astype(float)
    best = returns.max(axis=1, keepdims=True)
    winners = returns == best
    mine = winners[np.arange(len(seats)), seats]
    return np.where(mine, 1.0 / winners.sum(axis=1), 0.0)


def evaluate(model: Any, normalize: Any, game_name: str, options: Dict[str, Any], games: int, seed: int,
             envs: int = 64, opponent: str = "heuristic", opponent_weights: Optional[str] = None,
             cooperative: bool = False) -> Dict[str, Any]:
    """``games`` greedy games of ``model`` against ``opponent`` ("heuristic", or "policy" with
    ``opponent_weights``, a policy file played greedy in C++), seat-balanced (env i plays seat
    i mod players); the win share and its Wilson 95% interval."""
    from ..arena.ratings import wilson
    from ..sb3 import DimsumVecEnv

    players = int(options.get("players", 2))
    envs = max(players, min(envs, games) // players * players)
    seats = [i % players for i in range(envs)]
    env = DimsumVecEnv(game_name, num_envs=envs, learner_seat=seats, opponent=opponent,
                       opponent_weights=opponent_weights, threads=1, **options)
    env.seed(seed)
    obs: Any = env.reset()
    shares: List[float] = []
    started = [0] * envs  # games each env has begun: an env stops counting once its share is dealt
    per_env = -(-games // envs)
    while len(shares) < per_env * envs:
        masks = env.action_masks()
        actions, _ = model.predict(normalize(obs) if normalize else obs, action_masks=masks, deterministic=True)
        obs, _, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones):
            if started[i] < per_env and "returns" in infos[i]:
                r = np.asarray([infos[i]["returns"]])
                shares.append(float(win_shares(r, np.asarray([seats[i]]), cooperative)[0]))
            started[i] += 1
    env.close()
    n = len(shares)
    low, high = wilson(sum(shares), n)
    return {"games": n, "win": float(np.mean(shares)), "low": low, "high": high}
