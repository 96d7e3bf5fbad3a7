"""dimsum: fast, exact engines for three dim-sum tabletop games.

    import dimsum
    game = dimsum.make("yum_cha", players=4)
    state = game.new_state(seed=7)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])

``dimsum.games()`` lists the games, ``dimsum.options(name)`` the rule options each one takes.
See docs/ARCHITECTURE.md for the contract and docs/RULES.md for every rule and ruling.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Tuple, overload

from ._common import CHANCE, TERMINAL, GameInfo, IllegalActionError, OptionSpec, Outcome, Slice
from ._options import option_specs as _option_specs
from ._version import __version__

if TYPE_CHECKING:  # the runtime imports these on first use (__getattr__ below), to keep `import dimsum` cheap
    import numpy as np
    from numpy.typing import NDArray

    from ._batch_env import BatchEnv as BatchEnv
    from ._core import Game as Game
    from ._core import State as State
    from ._core import TimedGame as TimedGame
    from ._core import TimedState as TimedState

# `dimsum.games` names the function games() below, not the subpackage of the same name: a
# subpackage first loaded later (by the first make) would be set as that attribute, so the
# (empty) package is loaded now, before the function is defined.
from . import games as _games_package  # noqa: E402

del _games_package


def games() -> Tuple[str, ...]:
    """The names ``make`` accepts: the games compiled into this build, sorted."""
    from . import _core  # imported here so that `import dimsum` stays cheap

    return tuple(sorted(_core.registered_games()))


def game_info(name: str) -> GameInfo:
    """What game ``name`` is, as the adapters, the arena and the pictures need to know it: its
    title, information type, utility and demo settings (``dimsum.GameInfo``), declared once in
    its package. An unknown name is a ValueError naming the closest game."""
    import importlib

    from ._common import check_game_name

    info = importlib.import_module(f"dimsum.games.{check_game_name(name, games())}").INFO
    assert isinstance(info, GameInfo), f"dimsum.games.{name}.INFO must be a dimsum.GameInfo"
    return info


def options(name: str) -> Tuple[OptionSpec, ...]:
    """The rule options game ``name`` takes (``make(name, **options)``), each an ``OptionSpec``:
    name, default, doc, the values it takes (``choices``, or ``kind`` with ``minimum``/``maximum``)
    and the ruling it settles. The game's own options come first, then ``chance``, which every
    game has. An unknown name is a ValueError naming the closest game."""
    return _option_specs(name, games())


# make's overloads tell a type checker which class a game name gives: the name of a game with a
# clock gives a TimedGame (whose states have advance, timeline and clock), any other a Game. The
# block is generated from the registry, not written by hand: tests/test_typing.py checks it and
# prints it again when a timed game is added (dimsum._typing_overloads.make_overloads()).
# <generated: make overloads>
@overload
def make(name: Literal["dim_sum_jam"], **options: Any) -> TimedGame: ...
@overload
def make(name: str, **options: Any) -> Game: ...
# </generated: make overloads>


def make(name: str, **options: Any) -> Game:
    """The C++ engine of game ``name`` with validated rule options (unknown ones are refused).

    ``dimsum.games()`` lists the games as built (``"yum_cha"``, ``"nice_buns"``, ...); a game with
    a clock gives a ``TimedGame``, whose states have ``advance``, ``timeline`` and ``clock``. ``dimsum.options(name)`` lists each game's options
    with their defaults, allowed values and rulings; ``game.options`` gives a made game's values.

    ``name`` may also be OpenSpiel's form with the options in it, ``"nice_buns(players=3)"``,
    each value read as its option's type and then checked as a keyword option is.

    An unknown name is a ValueError naming the closest game; it is checked against the
    registry before any game module is imported. A bad option is a ValueError or TypeError
    saying what is allowed."""
    from . import _core  # imported here so that `import dimsum` stays cheap
    from ._common import check_game_name
    from ._options import parse_game_string, typed_option_values

    if isinstance(name, str) and "(" in name:  # OpenSpiel's form: "nice_buns(players=3)"
        name, raw = parse_game_string(name)
        given = typed_option_values(check_game_name(name, games()), raw, games())
        twice = sorted(set(given) & set(options))
        if twice:
            raise ValueError(f"option {twice[0]!r} is given both in the game string and as a keyword")
        options = {**given, **options}
    return _core.make(check_game_name(name, games()), **options)


def random_playouts(game: Game, n_games: int, seed: int = 0,
                    threads: int = 1) -> Tuple[NDArray[np.float64], NDArray[np.int64]]:
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


def get_include() -> str:
    """The folder holding ``dimsum.h``, the C API's header (docs/C_API.md): ``cc -I`` it."""
    import os

    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")


def get_library() -> str:
    """The path of the C API's shared library (libdimsum.so, .dylib or .dll; docs/C_API.md), to
    link a C program with; FileNotFoundError if this install has none (a build without it)."""
    import os
    import sys

    suffix = ".dll" if sys.platform == "win32" else ".dylib" if sys.platform == "darwin" else ".so"
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libdimsum" + suffix)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{path}: this install of dimsum has no C API library (setup.py build_ext builds it)")
    return path


_LAZY = ("BatchEnv", "Game", "State", "TimedGame", "TimedState")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))  # the classes imported on first use (__getattr__)


if not TYPE_CHECKING:  # a type checker sees the imports above; a module __getattr__ would hide typos from it

    def __getattr__(name: str):
        # imported on first use, so that `import dimsum` loads neither numpy nor the extensions
        if name == "BatchEnv":
            from ._batch_env import BatchEnv

            return BatchEnv
        if name in _LAZY:
            from . import _core

            return getattr(_core, name)
        if name == "_PickledState":  # the name a pickled state calls (_core.State.__reduce_ex__)
            from ._core import _PickledState

            globals()[name] = _PickledState  # then every pickle.dumps finds it at once
            return _PickledState
        raise AttributeError(f"module 'dimsum' has no attribute {name!r}")


__all__ = ["BatchEnv", "CHANCE", "Game", "GameInfo", "IllegalActionError", "OptionSpec", "Outcome", "Slice", "State", "TERMINAL",
           "TimedGame", "TimedState", "__version__", "game_info", "games", "get_include", "get_library", "make", "options", "random_playouts"]
