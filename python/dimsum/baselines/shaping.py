"""A denser training reward for Dim Sum Jam (``train --shaping team_progress``).

Dim Sum Jam's return is 1 on a win and 0 otherwise, and a team of heuristics wins about one game
in six: most games teach a policy nothing. ``TeamProgressReward`` adds, at each learner step, the
change in the team's progress since that seat's previous step (its teammates' moves included, as
the team shares one result): +0.1 for each VIP order fulfilled, +0.01 for each regular order,
-0.05 for each complaint. The orders and complaints are read from the seat's own observation
(``cards_out`` and ``counts``: public to every seat), so nothing hidden reaches the learner.

A win still ranks first: a won game is paid at least 0.9 (the return, less at most two complaints;
the last VIP ends the game before it leaves its table, so it earns no bonus), a lost one at most 0.65 (every VIP but one, 5 at most with ``extra_vips=5``,
and the deck's 15 regular orders). The evaluations and
the arena still count wins only: the shaping changes what PPO is paid, not what is measured.
"""

from __future__ import annotations

from typing import Any, Callable, Dict

import numpy as np

VIP_ORDER = 0.1
REGULAR_ORDER = 0.01
COMPLAINT = -0.05
MODES = ("none", "team_progress")


def team_progress(game: Any) -> Callable[[np.ndarray], np.ndarray]:
    """The progress of each row of observations ``(n, observation_size)`` of ``game`` (Dim Sum Jam):
    VIP_ORDER per VIP order out, REGULAR_ORDER per regular order out, COMPLAINT per complaint."""
    if game.name != "dim_sum_jam":
        raise ValueError(f"team_progress shaping is for dim_sum_jam (orders and complaints), not {game.name}")
    from ..games.dim_sum_jam import make_config

    cfg = make_config(**dict(game.options))
    slices: Dict[str, Any] = {s.name: slice(int(s.start), int(s.stop)) for s in game.observation_layout}
    cards = slices["cards_out"]
    weights = np.array([VIP_ORDER if cfg.vip_mask >> i & 1 else REGULAR_ORDER for i in range(len(cfg.cards))])
    if cards.stop - cards.start != len(weights):
        raise ValueError(f"cards_out has {cards.stop - cards.start} entries for {len(weights)} cards")
    complaints = slices["counts"].start + 2  # counts: tea supply, tea on reception, complaints, ...

    def progress(observations: np.ndarray) -> np.ndarray:
        return observations[:, cards] @ weights + COMPLAINT * observations[:, complaints]

    return progress


def wrap(venv: Any, game: Any) -> Any:
    """``venv`` (a DimsumVecEnv of ``game``) paying TeamProgressReward's bonus besides the return."""
    from stable_baselines3.common.vec_env import VecEnvWrapper

    progress = team_progress(game)

    class TeamProgressReward(VecEnvWrapper):
        def reset(self) -> Any:
            obs = self.venv.reset()
            self.last = progress(obs["observation"])
            return obs

        def step_wait(self) -> Any:
            obs, rewards, dones, infos = self.venv.step_wait()
            now = progress(obs["observation"])
            reached = now.copy()  # where each env's game got to: its last observation when it ended
            for i in np.flatnonzero(dones):
                reached[i] = progress(infos[i]["terminal_observation"]["observation"][None])[0]
            shaped = rewards + (reached - self.last).astype(np.float32)
            self.last = now  # an ended env's next game starts from its first observation
            return obs, shaped, dones, infos

    return TeamProgressReward(venv)
