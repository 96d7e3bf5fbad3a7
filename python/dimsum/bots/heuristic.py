"""The heuristic bot: each game's rule-of-thumb player, in C++ (src/dimsum_core/<game>/heuristic.cpp).

docs/BOTS.md gives each game's strategy. It reads only what its player may see, and it is
also the rollout policy of IS-MCTS (``ismcts:rollout=heuristic``)."""

from __future__ import annotations

from typing import Any

from ._native import NativeBot


class HeuristicBot(NativeBot):
    """The game's heuristic (docs/BOTS.md); ``seed`` breaks ties and seeds its lookahead's imagined
    draws. Takes no parameters."""

    kind = "heuristic"

    def __init__(self, game: Any, seed: int = 0) -> None:
        super().__init__(game, seed)

    def _choose(self, name: str, config: bytes, state_size: int, version: int, state: bytes, call: int) -> int:
        from .. import _batch

        return _batch.heuristic_action(name, config, state_size, version, state, self.seed, call)

    def __repr__(self) -> str:
        return f"HeuristicBot({self.game.name}, seed={self.seed})"
