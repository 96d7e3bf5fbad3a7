"""Gymnasium: one seat of Nice Buns against random opponents, the learner playing random legal
actions for three episodes; needs the gymnasium extra (pip install "dimsum-games[gymnasium]")."""

# needs: gymnasium
from __future__ import annotations

from contextlib import closing

import gymnasium
import numpy as np

import dimsum.gymnasium  # noqa: F401  (registers the dimsum/... ids)


def main() -> None:
    # closing(): the env is closed however the loop ends (and Gymnasium's close() is untyped)
    with closing(gymnasium.make("dimsum/NiceBuns-v0", players=3, learner_seat=1)) as env:
        rng = np.random.default_rng(0)
        for episode in range(3):
            observation, info = env.reset(seed=episode)
            done, steps, reward = False, 0, 0.0
            while not done:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                observation, r, terminated, truncated, info = env.step(action)
                reward += float(r)
                steps += 1
                done = terminated or truncated
            print(f"episode {episode}: {steps} learner steps, reward {reward}")


if __name__ == "__main__":
    main()
