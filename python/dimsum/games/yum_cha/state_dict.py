"""The readable dict form of a Yum Cha state, shared by the core and the reference engine.

Both engines keep the same *fields* (plain ints and lists of counts indexed by card type);
this module turns fields into the canonical dict and back, validating everything on the way
in, so that ``state_from_dict`` rejects a bad position with a message naming the field.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from ..._common import check_int
from .. import yum_cha as spec

PHASES = ("draw", "discard", "over")

# field name -> dict key (the dict speaks the API's words)
FIELDS = ("round", "phase", "current", "starter", "turn", "hands", "known", "centre", "deck",
          "last_taken", "last_discard", "scores", "declarations", "best_round", "last_round",
          "last_declarer", "rng")
KEYS = ("round", "phase", "current_player", "starter", "turn", "hands", "known", "centre", "deck",
        "last_taken", "last_discard", "scores", "declarations", "best_round", "last_round",
        "last_declarer", "rng")


def _named(cfg: spec.Config, counts: List[int]) -> Dict[str, int]:
    return {cfg.types[t].name: c for t, c in enumerate(counts) if c}


def _type_name(cfg: spec.Config, t: int) -> Optional[str]:
    return None if t < 0 else cfg.types[t].name


def state_to_dict(fields: Any) -> Dict[str, Any]:
    """The canonical dict of a state given an object with the FIELDS as attributes."""
    cfg = fields.cfg
    return {
        "game": spec.NAME,
        "round": fields.round,
        "phase": fields.phase,
        "current_player": fields.current,
        "starter": fields.starter,
        "turn": fields.turn,
        "hands": [_named(cfg, h) for h in fields.hands],
        "known": [_named(cfg, k) for k in fields.known],
        "centre": _named(cfg, fields.centre),
        "deck": _named(cfg, fields.deck),
        "last_taken": _type_name(cfg, fields.last_taken),
        "last_discard": _type_name(cfg, fields.last_discard),
        "scores": list(fields.scores),
        "declarations": list(fields.declarations),
        "best_round": list(fields.best_round),
        "last_round": list(fields.last_round),
        "last_declarer": fields.last_declarer,
        "rng": list(fields.rng.state()) if hasattr(fields.rng, "state") else list(fields.rng),
    }


# ---------------------------------------------------------------------------------------------

def _fail(field: str, message: str) -> None:
    raise ValueError(f"yum_cha state field {field!r}: {message}")


def _counts(cfg: spec.Config, value: Any, field: str) -> List[int]:
    if not isinstance(value, Mapping):
        raise TypeError(f"yum_cha state field {field!r} must be a dict of card name -> count, "
                        f"got {type(value).__name__}")
    counts = [0] * cfg.num_types
    for name, c in value.items():
        if not isinstance(name, str):
            _fail(field, f"card names are strings, got {name!r}")
        try:
            t = cfg.type_index(name)
        except ValueError as e:
            _fail(field, str(e))
        counts[t] = check_int(c, f"yum_cha state field {field!r}[{name!r}]", 0, spec.MAX_COPIES)
    return counts


def _int_list(value: Any, field: str, n: int, lo: int, hi: int) -> List[int]:
    if not isinstance(value, list) or len(value) != n:
        _fail(field, f"must be a list of {n} ints, got {value!r:.80}")
    return [check_int(v, f"yum_cha state field {field!r}[{i}]", lo, hi) for i, v in enumerate(value)]


def _optional_type(cfg: spec.Config, value: Any, field: str) -> int:
    if value is None:
        return -1
    if not isinstance(value, str):
        _fail(field, f"must be a card name or None, got {value!r}")
    try:
        return cfg.type_index(value)
    except ValueError as e:
        _fail(field, str(e))
    raise AssertionError


def state_fields_from_dict(cfg: spec.Config, d: Mapping[str, Any]) -> Dict[str, Any]:
    """Validated FIELDS from a dict; ValueError/TypeError names the first bad field."""
    if not isinstance(d, Mapping):
        raise TypeError(f"a yum_cha state dict is a dict, got {type(d).__name__}")
    keys = set(d) - {"game"}
    missing, unknown = sorted(set(KEYS) - keys), sorted(keys - set(KEYS))
    if missing or unknown:
        raise ValueError(f"yum_cha state dict: missing keys {missing}, unknown keys {unknown}")
    if d.get("game", spec.NAME) != spec.NAME:
        _fail("game", f"this is a {spec.NAME} game, not {d['game']!r}")
    n, rounds = cfg.players, cfg.options["rounds"]
    f: Dict[str, Any] = {}
    if d["phase"] not in PHASES:
        _fail("phase", f"must be one of {list(PHASES)}, got {d['phase']!r}")
    f["phase"] = over_phase = d["phase"]
    over = over_phase == "over"
    f["round"] = check_int(d["round"], "yum_cha state field 'round'", rounds if over else 0,
                           rounds if over else rounds - 1)
    f["current"] = check_int(d["current_player"], "yum_cha state field 'current_player'",
                             -1 if over else 0, -1 if over else n - 1)
    f["starter"] = check_int(d["starter"], "yum_cha state field 'starter'", 0, n - 1)
    f["turn"] = check_int(d["turn"], "yum_cha state field 'turn'", 0,
                          cfg.options["max_turns_per_round"])
    for key in ("hands", "known"):
        if not isinstance(d[key], list) or len(d[key]) != n:
            _fail(key, f"must be a list of {n} dicts, one per player")
        f[key] = [_counts(cfg, h, f"{key}[{p}]") for p, h in enumerate(d[key])]
    f["centre"] = _counts(cfg, d["centre"], "centre")
    f["deck"] = _counts(cfg, d["deck"], "deck")
    f["last_taken"] = _optional_type(cfg, d["last_taken"], "last_taken")
    f["last_discard"] = _optional_type(cfg, d["last_discard"], "last_discard")
    big = 1 << 15
    f["scores"] = _int_list(d["scores"], "scores", n, 0, big - 1)
    f["declarations"] = _int_list(d["declarations"], "declarations", n, 0, rounds)
    f["best_round"] = _int_list(d["best_round"], "best_round", n, 0, big - 1)
    f["last_round"] = _int_list(d["last_round"], "last_round", n, 0, big - 1)
    f["last_declarer"] = check_int(d["last_declarer"], "yum_cha state field 'last_declarer'", -1, n - 1)
    rng = d["rng"]
    if not isinstance(rng, list) or len(rng) != 4:
        _fail("rng", "must be a list of 4 ints")
    f["rng"] = [check_int(w, f"yum_cha state field 'rng'[{i}]", 0, (1 << 64) - 1) for i, w in enumerate(rng)]
    if not any(f["rng"]):
        _fail("rng", "an all-zero generator state never leaves zero")
    _check_consistency(cfg, f)
    return f


def _check_consistency(cfg: spec.Config, f: Dict[str, Any]) -> None:
    n = cfg.players
    for t, card in enumerate(cfg.types):
        total = sum(h[t] for h in f["hands"]) + f["centre"][t] + f["deck"][t]
        if total != card.copies:
            _fail("hands/centre/deck", f"{total} cards of {card.name!r} in play, the deck has {card.copies}")
    for p in range(n):
        for t in range(cfg.num_types):
            if f["known"][p][t] > f["hands"][p][t]:
                _fail(f"known[{p}]", f"more {cfg.types[t].name!r} known than player {p} holds")
    sizes = [sum(h) for h in f["hands"]]
    phase, current = f["phase"], f["current"]
    expected = [spec.HAND_SIZE] * n
    if phase == "discard":
        expected[current] += 1
    if phase == "over":
        if sorted(sizes)[:-1] != [spec.HAND_SIZE] * (n - 1) or sizes and max(sizes) > spec.HAND_SIZE + 1:
            _fail("hands", f"at the end hands hold {spec.HAND_SIZE} cards (the declarer's 11), got {sizes}")
    elif sizes != expected:
        _fail("hands", f"in phase {phase!r} with player {current} to act, hand sizes must be {expected}, got {sizes}")
    if f["last_taken"] >= 0:
        if phase != "discard":
            _fail("last_taken", "is only set between taking from the centre and discarding")
        if f["hands"][current][f["last_taken"]] == 0:
            _fail("last_taken", "the current player no longer holds it")
    if phase == "draw" and sum(f["deck"]) == 0 and sum(f["centre"]) == 0:
        _fail("deck", "the player to draw has neither a deck nor a centre to draw from")


# ---------------------------------------------------------------------------------------------
# The flat int form the C++ core exports and imports (src/dimsum_core/yum_cha/io.cpp):
# 8 scalars, 4 rng words, 4 numbers a player, then hands, known, centre, deck (T counts each).

_SCALARS = ("round", "phase", "current", "starter", "turn", "last_taken", "last_discard", "last_declarer")
_PER_PLAYER = ("scores", "declarations", "best_round", "last_round")


class Fields:
    """The FIELDS of one state as attributes (what state_to_dict reads)."""

    def __init__(self, cfg: spec.Config, **values: Any) -> None:
        self.cfg = cfg
        self.__dict__.update(values)


def fields_to_ints(cfg: spec.Config, f: Mapping[str, Any]) -> List[int]:
    n, T = cfg.players, cfg.num_types
    scalars = dict(f, phase=PHASES.index(f["phase"]))
    v = [scalars[k] for k in _SCALARS]
    v += [w - (1 << 64) if w >= (1 << 63) else w for w in f["rng"]]  # int64 bit patterns
    for p in range(n):
        v += [f[k][p] for k in _PER_PLAYER]
    for key in ("hands", "known"):
        for p in range(n):
            v += f[key][p]
    v += f["centre"] + f["deck"]
    assert len(v) == 12 + 4 * n + 2 * n * T + 2 * T
    return v


def ints_to_fields(cfg: spec.Config, v: List[int]) -> Fields:
    n, T = cfg.players, cfg.num_types
    values: Dict[str, Any] = dict(zip(_SCALARS, v[:8]))
    values["phase"] = PHASES[values["phase"]]
    values["rng"] = [w & ((1 << 64) - 1) for w in v[8:12]]
    i = 12
    for k in _PER_PLAYER:
        values[k] = [v[i + 4 * p + _PER_PLAYER.index(k)] for p in range(n)]
    i += 4 * n
    for key in ("hands", "known"):
        values[key] = [v[i + p * T:i + (p + 1) * T] for p in range(n)]
        i += n * T
    values["centre"], values["deck"] = v[i:i + T], v[i + T:i + 2 * T]
    return Fields(cfg, **values)
