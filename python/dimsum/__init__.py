"""dimsum: fast, exact engines for three dim-sum tabletop games.

    import dimsum
    game = dimsum.make("yum_cha", players=4)
    state = game.new_state(seed=7)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])

See docs/ARCHITECTURE.md for the contract and docs/RULES.md for every rule and ruling.
"""

from __future__ import annotations

from typing import Any, Tuple

from ._common import CHANCE, TERMINAL, IllegalActionError, Outcome
from ._version import __version__

# `dimsum.games` names the function games() below, not the subpackage of the same name: a
# subpackage first loaded later (by the first make) would be set as that attribute, so the
# (empty) package is loaded now, before the function is defined.
from . import games as _games_package  # noqa: E402

del _games_package


def games() -> Tuple[str, ...]:
    """The names ``make`` accepts: the games compiled into this build, sorted."""
    from . import _core  # imported here so that `import dimsum` stays cheap

    return tuple(sorted(_core.registered_games()))


def make(name: str, **options: Any):
    """The C++ engine of game ``name`` with validated rule options (unknown ones are refused).

    An unknown name is a ValueError naming the closest game; it is checked against the
    registry before any game module is imported."""
    from . import _core  # imported here so that `import dimsum` stays cheap
    from ._common import check_game_name

    return _core.make(check_game_name(name, games()), **options)


def random_playouts(game, n_games: int, seed: int = 0, threads: int = 1):
    """Plays ``n_games`` uniformly random games of ``game`` (a Game from ``make``) in C++.

    Game i is dealt from ``derive_seed(seed, i)``: the results do not depend on ``threads``.
    Returns ``(returns, lengths)``: float64 (n_games, players) and int64 (n_games,) arrays.
    """
    from . import _batch, _core
    from ._common import check_int, check_sampled, check_seed

    if not isinstance(game, _core.Game):
        raise TypeError(f"random_playouts takes a Game from dimsum.make(...), got {type(game).__name__}")
    check_sampled(game, "random_playouts")
    n_games = check_int(n_games, "n_games", 0, 1 << 40)
    threads = check_int(threads, "threads", 1, 1024)
    return _batch.random_playouts(game.name, game.config_bytes(), game.state_size, game.version[0], n_games,
                                  check_seed(seed), threads)


def __dir__():
    return sorted(set(globals()) | {"BatchEnv"})  # BatchEnv is imported on first use (__getattr__)


def __getattr__(name: str):
    # BatchEnv is imported on first use, so that `import dimsum` does not load numpy or _batch.
    if name == "BatchEnv":
        from ._batch_env import BatchEnv

        return BatchEnv
    raise AttributeError(f"module 'dimsum' has no attribute {name!r}")


__all__ = ["BatchEnv", "CHANCE", "IllegalActionError", "Outcome", "TERMINAL", "__version__", "games", "make", "random_playouts"]
