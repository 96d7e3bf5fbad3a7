"""What the C++ bots share (heuristic.py, ismcts.py): the game and state checks, and the seed
of each call.

Call k of a bot seeded ``seed`` draws from ``derive_seed(seed, k)`` (in C++): a fresh bot with the same
seed replays the same choices, and nothing of the state's own generator (its real future) is
used. The state crosses to C++ as ``state.to_bytes()``: C++ checks and validates it, and the
search works on its own copies, so ``state`` is never changed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Tuple

from ._checks import check_can_act


def check_game(game: Any, kind: str) -> Any:
    """``game`` if it is a compiled Game (``dimsum.make``), else a TypeError."""
    from .._core import Game

    if not isinstance(game, Game):
        raise TypeError(f"the {kind} bot plays a Game from dimsum.make(...), got {type(game).__name__}")
    return game


class NativeBot(ABC):
    """A bot whose choices are made in C++ (dimsum._batch); subclasses define ``_choose``."""

    kind = "native"

    def __init__(self, game: Any, seed: int) -> None:
        self.game = check_game(game, self.kind)
        self.seed = seed
        self.calls = 0  # act() calls so far: call k is seeded derive_seed(seed, k)
        self._game_args = self._crossing(self.game)

    @staticmethod
    def _crossing(g: Any) -> tuple:
        """How the game crosses to dimsum._batch: fixed for a built game, so made once, not per move."""
        return (g.name, g.config_bytes(), g.state_size, g.version[0])

    # What a pickle leaves out and `_remake` makes again where it is loaded (a worker process, a Ray
    # node): the config bytes are this build's native layout, made from the game, which pickles by
    # name and options. Subclasses holding a C++ object (a network) add it to both.
    _remade_on_load: Tuple[str, ...] = ("_game_args",)

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in self._remade_on_load}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._remake()

    def _remake(self) -> None:
        self._game_args = self._crossing(self.game)

    def act(self, state: Any) -> int:
        """A legal action for ``state.current_player``; ``state`` is not changed."""
        check_can_act(self.kind, self.game, state)
        call = self.calls
        self.calls += 1
        return self._choose(*self._game_args, state.to_bytes(), call)

    @abstractmethod
    def _choose(self, name: str, config: bytes, state_size: int, version: int, state: bytes, call: int) -> int:
        """The C++ call that chooses: the game as dimsum._batch takes it, the state's bytes, the call's index."""
