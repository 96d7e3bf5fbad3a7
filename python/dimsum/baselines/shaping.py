"""A denser training reward (``train --shaping NAME``), declared by the game it is for.

A game's package may hold ``shaping.py`` with ``SHAPINGS``: each name mapped to a function that,
given the game, returns ``progress(observations)`` (rows of the seat's own observations, so nothing
hidden reaches the learner). ``wrap`` pays, at each learner step, the change in that progress since
the seat's previous step besides the return (Dim Sum Jam's ``team_progress``: the team's orders and
complaints, dimsum/games/dim_sum_jam/shaping.py). The evaluations and the arena still count the
games' own returns: a shaping changes what PPO is paid, not what is measured.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Dict, Tuple

import numpy as np


def declared(name: str) -> Dict[str, Callable[[Any], Callable[[np.ndarray], np.ndarray]]]:
    """The shapings game ``name`` declares (``dimsum.games.<name>.shaping.SHAPINGS``), maybe none."""
    try:
        module = importlib.import_module(f"dimsum.games.{name}.shaping")
    except ModuleNotFoundError as e:
        if e.name != f"dimsum.games.{name}.shaping":
            raise
        return {}
    return dict(module.SHAPINGS)


def modes() -> Tuple[str, ...]:
    """Every shaping name some registered game declares, after "none"."""
    import dimsum

    return ("none",) + tuple(sorted({mode for name in dimsum.games() for mode in declared(name)}))


MODES = modes()


def progress_of(game: Any, mode: str) -> Callable[[np.ndarray], np.ndarray]:
    """``game``'s declared ``mode`` progress; a ValueError naming the games that declare it otherwise."""
    shapings = declared(game.name)
    if mode not in shapings:
        import dimsum

        games = [name for name in dimsum.games() if mode in declared(name)]
        raise ValueError(f"{mode} shaping is declared by {', '.join(games) or 'no game'}, not by {game.name} "
                         f"(it declares {', '.join(sorted(shapings)) or 'none'})")
    return shapings[mode](game)


def team_progress(game: Any) -> Callable[[np.ndarray], np.ndarray]:
    """The ``team_progress`` shaping's progress function for ``game`` (the game must declare it)."""
    return progress_of(game, "team_progress")


def wrap(venv: Any, game: Any, mode: str = "team_progress") -> Any:
    """``venv`` (a DimsumVecEnv of ``game``) paying the change in ``mode``'s progress besides the return."""
    from stable_baselines3.common.vec_env import VecEnvWrapper

    progress = progress_of(game, mode)

    class ShapedReward(VecEnvWrapper):
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

    return ShapedReward(venv)
