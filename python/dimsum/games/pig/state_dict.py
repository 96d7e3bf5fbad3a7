"""The readable dict form of a Pig state: the core's state fields (declared in
src/dimsum_core/pig/schema.cpp), one key each, the last roll by its name ("roll 5").

Every value is checked against its field's declared bounds and the position as a whole by the
core (``Engine::validate``), which names the field that is wrong.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..._schema import DictCodec, Key, integer, optional_name


def _roll_names(cfg: Any) -> Sequence[str]:
    return cfg.chance_space.names


def _encode_roll(cfg: Any, v: int) -> Any:
    return None if v == 0 else _roll_names(cfg)[v - 1]


def _decode_roll(cfg: Any, v: Any, fail: Any) -> int:
    return optional_name(_roll_names)["decode"](cfg, v, fail) + 1


CODEC = DictCodec("pig", (
    Key("moves", **integer()),
    Key("scores"),
    Key("turn_total", **integer()),
    Key("turn_player", **integer()),
    Key("current_player", **integer()),
    # the last roll of the game by its outcome's name ("roll 5"), None before the first roll
    Key("last_roll", encode=_encode_roll, decode=_decode_roll),
    Key("rng"),
))
