"""``dimsum.options(name)``: the rule options a game takes, as the game declares them.

Each game's package declares its options once (``dimsum.games.<name>.OPTIONS``) and the options
every game has are declared once in ``dimsum._common.COMMON_OPTIONS``; this module only lists
them, so what ``make`` validates and what ``options`` describes cannot differ.
"""

from __future__ import annotations

import importlib
from typing import Tuple

from ._common import COMMON_OPTIONS, OptionSpec, check_game_name


def option_specs(name: str, known: Tuple[str, ...]) -> Tuple[OptionSpec, ...]:
    """The options of game ``name`` (one of ``known``): the game's own in declaration order, then
    the ones every game has. An unknown name is a ValueError naming the closest game."""
    module = importlib.import_module(f"dimsum.games.{check_game_name(name, known)}")
    return tuple(module.OPTIONS.values()) + tuple(COMMON_OPTIONS.values())
