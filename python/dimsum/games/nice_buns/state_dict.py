"""The readable dict form of a Nice Buns state: the core's state fields (declared in
src/dimsum_core/nice_buns/schema.cpp) shown with phase, dice, colour and seat names.

Counts are ``{kind name: count}`` with every kind shown (zeros included); a seat is
``{"front": counts, "fish_on": colour or None, "plate": [colours]}``. ``current_player`` may be
left out of a dict: the core then derives it from the position (-2 at a chance node). In explicit
chance mode the phase may name a chance event (``CHANCE_PHASES``) and ``roller`` is None before the
start player is drawn. Every value is checked against
its field's declared bounds and the position as a whole by the core (``Engine::validate``, for
both engines), which names the field that is wrong.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping

from ..._schema import ConfigKey, DictCodec, Fail, Key, enum, integer, named_counts, optional
from . import CHANCE_PHASES, COLOURS, DICE, KINDS, NAME, PHASES, SPLITS, _group_name, split_name

DERIVE_CURRENT = -3   # the core's kDeriveCurrent: a dict that leaves current_player out

INT = integer()


def _seat_value(cfg: Any, v: Any, fail: Fail) -> int:
    seat = INT["decode"](cfg, v, fail)
    if seat < 0:
        fail(f"got {seat}", f"a seat in [0, {cfg.players - 1}] is allowed")
    return seat


SEAT = {"decode": _seat_value}
BUNS = named_counts(lambda cfg: KINDS, zeros=True)


def _dice() -> Dict[str, Any]:
    """The face index of each die, shown with the face's name: {die: {"face": i, "shows": name}}."""

    def encode(cfg: Any, faces: List[int]) -> Dict[str, Any]:
        return {DICE[d]: {"face": faces[d], "shows": cfg.dice[d][faces[d]].name} for d in range(len(DICE))}

    def decode(cfg: Any, value: Any, fail: Fail) -> List[int]:
        if not isinstance(value, Mapping) or set(value) != set(DICE):
            fail(f"got {value!r:.60}", f"a dict with keys {list(DICE)}")
        faces = []
        for d, die in enumerate(DICE):
            entry, at = value[die], fail.at(die)
            if not isinstance(entry, Mapping) or not set(entry) <= {"face", "shows"} or "face" not in entry:
                at(f"got {entry!r:.60}", "a dict {'face': index, 'shows': name} ('shows' may be left out)")
            face = INT["decode"](cfg, entry["face"], at.at("face"))
            if "shows" in entry:
                names = [f.name for f in cfg.dice[d]]
                if not 0 <= face < len(names):
                    at.at("face")(f"got {face}", f"the {die} die has faces 0-{len(names) - 1}")
                if entry["shows"] != names[face]:
                    at.at("shows")(f"face {face} shows {names[face]!r}, got {entry['shows']!r:.40}",
                                   "the name of the face (or leave 'shows' out)")
            faces.append(face)
        return faces

    return {"encode": encode, "decode": decode}


def _cascade() -> Dict[str, Any]:
    """The pending seats (two slots, -1 unused) shown as a list of at most two seats."""

    def decode(cfg: Any, value: Any, fail: Fail) -> List[int]:
        if not isinstance(value, list) or len(value) > 2:
            fail(f"got {value!r:.60}", "a list of at most two seats")
        return [_seat_value(cfg, v, fail.at(i)) for i, v in enumerate(value)] + [-1] * (2 - len(value))

    return {"encode": lambda cfg, v: [p for p in v if p >= 0], "decode": decode}


def _seats() -> Dict[str, Any]:
    """The fields front, fish_on and plate, shown seat by seat."""

    def encode(cfg: Any, f: Mapping[str, Any]) -> List[Dict[str, Any]]:
        front = BUNS["encode"]
        return [{"front": front(cfg, f["front"][p]),
                 "fish_on": None if f["fish_on"][p] < 0 else COLOURS[f["fish_on"][p]],
                 "plate": [COLOURS[k] for k in range(len(COLOURS)) if f["plate"][p] >> k & 1]}
                for p in range(cfg.players)]

    def decode(cfg: Any, value: Any, fail: Fail) -> Dict[str, Any]:
        n = cfg.players
        if not isinstance(value, list) or len(value) != n:
            fail(f"got {value!r:.60}", f"a list of {n} seats")
        out: Dict[str, Any] = {"front": [], "fish_on": [], "plate": []}
        front = BUNS["decode"]
        for p, seat in enumerate(value):
            at = fail.at(p)
            if not isinstance(seat, Mapping) or set(seat) != {"front", "fish_on", "plate"}:
                at(f"got {seat!r:.60}", "a dict with keys 'front', 'fish_on', 'plate'")
            out["front"].append(front(cfg, seat["front"], at.at("front")))
            fish_on = seat["fish_on"]
            if fish_on is not None and fish_on not in COLOURS:
                at.at("fish_on")(f"got {fish_on!r:.40}", f"None or one of {list(COLOURS)}")
            out["fish_on"].append(-1 if fish_on is None else COLOURS.index(fish_on))
            plate = seat["plate"]
            if (not isinstance(plate, list) or any(c not in COLOURS for c in plate)
                    or len(set(plate)) != len(plate)):
                at.at("plate")(f"got {plate!r:.60}", f"a list of distinct colours of {list(COLOURS)}")
            out["plate"].append(sum(1 << COLOURS.index(c) for c in plate))
        return out

    return {"encode": encode, "decode": decode}


CODEC = DictCodec(NAME, (
    ConfigKey("players", lambda cfg: cfg.players),
    Key("phase", **enum(PHASES + CHANCE_PHASES)),
    Key("current_player", required=False, default=DERIVE_CURRENT, **INT),
    Key("turn", **INT),
    Key("roller", **optional(INT)),
    Key("dice", **_dice()),
    Key("split", **optional(enum([split_name(m) for m in SPLITS]))),
    Key("chooser_takes", **optional(enum([_group_name(m) for m in range(8)]))),
    Key("die", **enum(DICE + ("done",))),
    Key("draws_left", **INT),
    Key("cascade", **_cascade()),
    Key("bag", **BUNS),
    Key("tray", **named_counts(lambda cfg: COLOURS, zeros=True)),
    Key("seats", fields=("front", "fish_on", "plate"), **_seats()),
    Key("winner", **optional(SEAT)),
    Key("rng"),
))
