"""``dimsum.options(name)``: the rule options a game takes, as the game declares them.

Each game's package declares its options once (``dimsum.games.<name>.OPTIONS``) and the options
every game has are declared once in ``dimsum._common.COMMON_OPTIONS``; this module only lists
them, so what ``make`` validates and what ``options`` describes cannot differ.
"""

from __future__ import annotations

import importlib
import re
from typing import Any, Dict, Mapping, Tuple

from ._common import COMMON_OPTIONS, OptionSpec, check_game_name


def option_specs(name: str, known: Tuple[str, ...]) -> Tuple[OptionSpec, ...]:
    """The options of game ``name`` (one of ``known``): the game's own in declaration order, then
    the ones every game has. An unknown name is a ValueError naming the closest game."""
    module = importlib.import_module(f"dimsum.games.{check_game_name(name, known)}")
    return tuple(module.OPTIONS.values()) + tuple(COMMON_OPTIONS.values())


def parse_game_string(text: str) -> Tuple[str, Dict[str, Any]]:
    """``"nice_buns(players=3,max_turns=20)"`` (OpenSpiel's form of a game with parameters) as
    ``("nice_buns", {"players": 3, "max_turns": 20})``; a plain name as ``(name, {})``.

    Each value is read as the type of the option's default (int, bool, str; OpenSpiel types a
    parameter by its default the same way), so that ``make`` then validates it exactly as a
    keyword option. Malformed text is a ValueError saying what the form is."""
    text = text.strip()
    match = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\((.*)\)", text, re.S)
    if match is None:
        if "(" in text or ")" in text:
            raise ValueError(f"{text!r} is not a game string: the form is name or name(option=value,...)")
        return text, {}
    name, body = match.group(1), match.group(2).strip()
    options: Dict[str, Any] = {}
    for item in (body.split(",") if body else []):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key:
            raise ValueError(f"{text!r}: {item.strip()!r} is not option=value")
        if key in options:
            raise ValueError(f"{text!r}: option {key!r} is given twice")
        options[key] = value
    return name, options


def typed_option_values(name: str, raw: Mapping[str, str], known: Tuple[str, ...]) -> Dict[str, Any]:
    """The values of ``parse_game_string`` typed by each option's default (an unknown option or
    an option that takes data is left as text, for ``make`` to refuse with its usual message)."""
    specs = {o.name: o for o in option_specs(name, known)}
    typed: Dict[str, Any] = {}
    for key, value in raw.items():
        default = specs[key].default if key in specs else None
        if isinstance(default, bool):
            if value.lower() not in ("true", "false", "1", "0"):
                raise ValueError(f"{name} option {key!r} is a bool: true or false, got {value!r}")
            typed[key] = value.lower() in ("true", "1")
        elif isinstance(default, int):
            try:
                typed[key] = int(value)
            except ValueError:
                raise ValueError(f"{name} option {key!r} is an int, got {value!r}") from None
        elif value.lower() == "none" and key in specs and specs[key].default is None:
            typed[key] = None
        else:
            typed[key] = value
    return typed
