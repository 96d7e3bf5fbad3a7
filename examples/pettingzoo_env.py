"""PettingZoo (AEC): every seat of a Yum Cha game played by random legal actions, seeded; needs the
pettingzoo extra (pip install "dimsum-games[pettingzoo]")."""

# needs: pettingzoo
from __future__ import annotations

from typing import Optional

import numpy as np

from dimsum.pettingzoo import env


def main() -> None:
    e = env("yum_cha", players=3, rounds=1)
    e.reset(seed=7)
    rng = np.random.default_rng(0)
    total = {agent: 0.0 for agent in e.possible_agents}
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        total[agent] += float(reward)
        action: Optional[int] = None  # PettingZoo's protocol: a finished agent steps None
        if not (termination or truncation):
            assert observation is not None  # the agent to act is observed
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        e.step(action)
    print(f"rewards by agent: {total}")


if __name__ == "__main__":
    main()
