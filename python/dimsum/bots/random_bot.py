"""The random bot: a uniformly random legal action, from its own seeded generator."""

from __future__ import annotations

from typing import Any

from ..reference.rng import Rng


class RandomBot:
    """Chooses uniformly among ``state.legal_actions()`` with dimsum's xoshiro256** stream, so the
    same seed gives the same choices on every platform. Takes no parameters."""

    def __init__(self, game: Any, seed: int = 0) -> None:
        self.game = game
        self.seed = seed
        self._rng = Rng(seed)

    def act(self, state: Any) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("the random bot was asked to act where nobody may act (a terminal state)")
        action: int = legal[self._rng.bounded(len(legal))]
        return action

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"
