"""The random bot: a uniformly random legal action, from its own seeded generator."""

from __future__ import annotations

from typing import Any, Dict

from ..reference.rng import Rng
from ._checks import check_can_act


class RandomBot:
    """Chooses uniformly among ``state.legal_actions()`` with dimsum's xoshiro256** stream, so the
    same seed gives the same choices on every platform. Takes no parameters.

    Like the C++ bots it acts only on states of its own game (same options) where a player is to
    act: a terminal state, a chance node or another configuration's state is a ValueError."""

    kind = "random"

    def __init__(self, game: Any, seed: int = 0) -> None:
        self.game = game
        self.seed = seed
        self._rng = Rng(seed)

    def act(self, state: Any) -> int:
        check_can_act(self.kind, self.game, state)
        legal = state.legal_actions()
        action: int = legal[self._rng.bounded(len(legal))]
        return action

    # Rng keeps its four words in __slots__, which pickle protocols 0 and 1 cannot save: the bot
    # pickles its generator's words instead, so that a copy (a worker process's, a Ray node's)
    # goes on with the same choices under every protocol.
    def __getstate__(self) -> Dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "rng": self._rng.state()}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.game = state["game"]
        self.seed = state["seed"]
        self._rng = Rng.from_state(state["rng"])

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"
