"""BatchEnv: 64 Nice Buns games stepped together in C++, random legal actions chosen with numpy
from the legal masks; counts the games finished in 200 steps."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import dimsum


def random_legal_actions(mask: NDArray[np.bool_], rng: np.random.Generator) -> NDArray[np.int64]:
    """One uniformly random legal action per row of ``mask`` (num_envs, num_actions)."""
    scores = rng.random(mask.shape) * mask  # illegal actions score 0, legal ones in (0, 1)
    actions: NDArray[np.int64] = np.argmax(scores, axis=1).astype(np.int64)
    return actions


def main() -> None:
    game = dimsum.make("nice_buns", players=3)
    env = dimsum.BatchEnv(game, num_envs=64, seed=1, threads=2)
    rng = np.random.default_rng(1)
    obs, info = env.reset()
    finished = 0
    total_return = np.zeros(game.players)
    for _ in range(200):
        obs, rewards, terminated, truncated, info = env.step(random_legal_actions(info["legal_mask"], rng))
        finished += int(terminated.sum())
        total_return += info["final_returns"][terminated].sum(axis=0)
    print(f"observations {obs.shape} {obs.dtype}; {finished} games finished; returns by seat {total_return}")
    first = env.clone_state(0)  # env 0's current game as a per-move State
    print(f"env 0 is at move {len(first.history)}, player {first.current_player} to act")


if __name__ == "__main__":
    main()
