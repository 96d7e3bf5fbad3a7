"""What the two C++ vector envs (Gymnasium's ``DimsumVectorEnv``, SB3's ``DimsumVecEnv``) share:
one ``BatchEnv`` in learner-seat mode, opened from the env's checked game and step limit, and the
attributes both report of it. Each env keeps its own framework's base class; this is a mixin."""

from __future__ import annotations

from typing import Any, Optional

from ._batch_env import BatchEnv
from ._core import Game


class LearnerBatch:
    """Mixed into a vector env that has set ``self.game`` and ``self.max_steps``."""

    game: Game
    max_steps: int
    _env: Optional[BatchEnv]

    def _open_batch(self, num_envs: int, threads: Optional[int], learner_seat: Any, opponent: str,
                    opponent_weights: Any) -> None:
        # seed=0: every reset deals from the seed the env's reset is given (or draws), never this one
        self._env = BatchEnv(self.game, num_envs, seed=0, threads=threads, max_episode_steps=self.max_steps,
                             learner_seat=learner_seat, opponent=opponent, opponent_weights=opponent_weights)
        self.learner_seat = self._env.learner_seat  # as given: an int, or a tuple of one seat per env
        self.learner_seats = self._env.learner_seats  # env i's seat, int32 (num_envs,)
        self.opponent = opponent
        self.opponent_weights = opponent_weights

    @property
    def batch_env(self) -> BatchEnv:
        """The underlying ``dimsum.BatchEnv`` (learner-seat mode): its ``clone_state(i)`` shows env i."""
        if self._env is None:
            raise RuntimeError("the env is closed")
        return self._env
