"""Each game's boundary as the core declares it (src/dimsum_core/common/schema.hpp), read by name.

The core declares, once per game, its config fields, its state fields and its observation
slices. This module is the Python side of that declaration, written once for every game:

- ``FieldSpec``: one declared field (name, shape, bounds), as ``game.state_fields`` lists them;
- ``pack_config`` / ``flatten_fields`` / ``unflatten``: named values to and from the core's flat
  form, in the order and shapes the core gives (no offset is written anywhere by hand);
- ``DictCodec`` and its key types: a game's readable dict (``state.to_dict()``) declared as a
  list of keys, each naming the field it shows and how (a card name, a phase name, ...).

Every error about a state names its field the same way:
``<game> state field '<name>': <what is wrong>; <what is allowed>``.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class FieldSpec:
    """One declared field: ``shape`` is () for one int, (n,) for a list, (rows, cols) for lists
    of lists; every value is in [lo, hi] unless ``word`` (a 64-bit pattern, like the RNG)."""

    name: str
    doc: str
    offset: int
    shape: Tuple[int, ...]
    lo: int
    hi: int
    word: bool = False
    counted: bool = False  # config only: the number of rows is the value's length
    keyed_when_set: bool = False  # config only: in the fingerprint only when not 0 (appended later)
    # config only: a size the core computes (ConfigInfo, by the same name); never handed over, and
    # in the fingerprint only so that it keeps the keys it had when Python handed it over
    derived: bool = False

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


class FieldError(ValueError):
    """A state (or config) field that is wrong: the message names the field and what is allowed."""


class FieldTypeError(TypeError):
    """A state (or config) field of the wrong type (a str where an int goes): same message form."""


def field_error(game: str, field: str, wrong: str, allowed: str, kind: str = "state") -> FieldError:
    return FieldError(f"{game} {kind} field {field!r}: {wrong}; {allowed}")


def field_type_error(game: str, field: str, wrong: str, allowed: str, kind: str = "state") -> FieldTypeError:
    return FieldTypeError(f"{game} {kind} field {field!r}: {wrong}; {allowed}")


def _is_int(v: Any) -> bool:
    return type(v) is int or (isinstance(v, numbers.Integral) and not isinstance(v, bool))


def _flat_values(game: str, f: FieldSpec, value: Any, kind: str, rows: Optional[int] = None) -> List[int]:
    """A field's value (int, list, or list of lists) as a flat list, its shape checked."""
    shape = f.shape if rows is None else ((rows,) if len(f.shape) == 1 else (rows, f.shape[-1]))
    if not shape:
        if not _is_int(value):
            raise field_type_error(game, f.name, f"got {type(value).__name__} {value!r:.60}", "an int is allowed",
                                   kind)
        return [int(value)]
    what = f"a list of {shape[0]} ints" if len(shape) == 1 else f"a list of {shape[0]} lists of {shape[1]} ints"
    if not isinstance(value, (list, tuple)):
        raise field_type_error(game, f.name, f"got {type(value).__name__} {value!r:.60}", f"it is {what}", kind)
    if len(value) != shape[0]:
        raise field_error(game, f.name, f"got {value!r:.60}", f"it is {what}", kind)
    if len(shape) == 1:
        rows_of = [value]
    else:
        rows_of = value
        if any(not isinstance(r, (list, tuple)) for r in rows_of):
            raise field_type_error(game, f.name, f"got {value!r:.60}", f"it is {what}", kind)
        if any(len(r) != shape[1] for r in rows_of):
            raise field_error(game, f.name, f"got {value!r:.60}", f"it is {what}", kind)
    out = [v for row in rows_of for v in row]
    if any(type(v) is not int for v in out):  # the fast path: plain ints
        for v in out:
            if not _is_int(v):
                raise field_type_error(game, f.name, f"holds {type(v).__name__} {v!r:.40}", f"it is {what}", kind)
        out = [int(v) for v in out]
    return out


def _as_int64(f: FieldSpec, values: List[int]) -> List[int]:
    if f.word:  # a 64-bit pattern: stored as int64, shown unsigned
        return [v - (1 << 64) if v > (1 << 63) - 1 else v for v in values]
    return values


def pack_config(game: str, fields: Sequence[FieldSpec], values: Mapping[str, Any]) -> List[int]:
    """A game package's named config values in the core's order; a counted field is preceded by
    its number of rows. A derived field is the core's to compute: it takes no value. Missing or
    unknown names are a bug in the game package."""
    return _pack(game, [f for f in fields if not f.derived], values)


def fingerprint_values(game: str, fields: Sequence[FieldSpec], values: Mapping[str, Any],
                       derived: Mapping[str, int]) -> List[int]:
    """What a config's fingerprint (to_bytes' header) is made of: the packed values, each derived
    field at its place with the size the core computed (``derived``, by name), and without the
    fields keyed only when set that are at 0 (so a field appended later, at its default, keeps
    the keys of states saved before it existed)."""
    kept = [f for f in fields if not (f.keyed_when_set and not values.get(f.name))]
    unknown = [f.name for f in kept if f.derived and f.name not in derived]
    if unknown:
        raise AssertionError(f"{game}: derived config fields {unknown} are none of the core's sizes {sorted(derived)}")
    return _pack(game, kept, {f.name: derived[f.name] if f.derived else values[f.name] for f in kept})


def _pack(game: str, fields: Sequence[FieldSpec], values: Mapping[str, Any]) -> List[int]:
    unknown = sorted(set(values) - {f.name for f in fields})
    missing = [f.name for f in fields if f.name not in values]
    if unknown or missing:
        raise AssertionError(f"{game}: config_values gives unknown fields {unknown} and misses {missing}")
    out: List[int] = []
    for f in fields:
        value = values[f.name]
        if f.counted:
            rows = len(value) if isinstance(value, (list, tuple)) else -1
            out.append(rows)
            out += _as_int64(f, _flat_values(game, f, value, "config", rows=max(rows, 0)))
        else:
            out += _as_int64(f, _flat_values(game, f, value, "config"))
    return out


def flatten_fields(game: str, fields: Sequence[FieldSpec], values: Mapping[str, Any]) -> List[int]:
    """Named state fields (every one, nothing else) as the core's flat form."""
    if not isinstance(values, Mapping):
        raise TypeError(f"{game} state fields are a dict of field name -> value, got {type(values).__name__}")
    names = [f.name for f in fields]
    unknown = sorted(str(k) for k in set(values) - set(names))
    missing = [n for n in names if n not in values]
    if unknown or missing:
        raise ValueError(f"{game} state fields: missing {missing}, unknown {unknown}; the fields are {names}")
    out: List[int] = []
    for f in fields:
        flat = _flat_values(game, f, values[f.name], "state")
        lo, hi = (0, MASK64) if f.word else (f.lo, f.hi)
        if flat and (min(flat) < lo or max(flat) > hi):
            i, bad = next((i, v) for i, v in enumerate(flat) if not lo <= v <= hi)
            where = f"[{i}]" if len(flat) > 1 else ""
            raise field_error(game, f"{f.name}{where}", f"{bad} is out of range", f"allowed [{lo}, {hi}]")
        out += _as_int64(f, flat)
    return out


def unflatten(f: FieldSpec, flat: List[int]) -> Any:
    """One field's flat values in its declared shape (int, list, or list of lists)."""
    if f.word:
        flat = [v & MASK64 for v in flat]
    if not f.shape:
        return flat[0]
    if len(f.shape) == 1:
        return flat
    cols = f.shape[1]
    return [flat[r * cols:(r + 1) * cols] for r in range(f.shape[0])]


# ---------------------------------------------------------------------------------------------
# The readable dict, declared per game as a list of keys

Encode = Callable[[Any, Any], Any]             # (cfg, field value) -> readable value
Decode = Callable[[Any, Any, "Fail"], Any]     # (cfg, readable value, fail) -> field value


class Fail:
    """Raises the one error format for the key being read: ``fail(wrong, allowed)`` (a
    ValueError), ``fail.type(wrong, allowed)`` for a value of the wrong type (a TypeError)."""

    def __init__(self, game: str, key: str) -> None:
        self.game, self.key = game, key

    def __call__(self, wrong: str, allowed: str) -> None:
        raise field_error(self.game, self.key, wrong, allowed)

    def type(self, wrong: str, allowed: str) -> None:
        raise field_type_error(self.game, self.key, wrong, allowed)

    def at(self, index: Any) -> "Fail":
        return Fail(self.game, f"{self.key}[{index!r}]" if not isinstance(index, int) else f"{self.key}[{index}]")


@dataclass(frozen=True)
class Key:
    """One key of a game's readable dict: it shows the state field ``field`` (default: the key
    itself) through ``encode``, and reads it back through ``decode`` (default: the value as is,
    its shape and bounds checked by the core).

    A key that shows several fields together (a table: its card and its slots) names them in
    ``fields``; its ``encode`` then takes a dict of those fields and its ``decode`` returns one.
    """

    name: str
    field: Optional[str] = None
    encode: Optional[Encode] = None
    decode: Optional[Decode] = None
    fields: Tuple[str, ...] = ()
    required: bool = True  # a key a dict may leave out: its field then reads `default`
    default: Any = None

    @property
    def field_name(self) -> str:
        return self.field or self.name


@dataclass(frozen=True)
class ConfigKey:
    """A key of the readable dict that shows a value of the config (the number of players), not
    a state field: ``to_dict`` shows ``value(cfg)``; ``from_dict`` checks it and sets no field."""

    name: str
    value: Callable[[Any], Any]


class DictCodec:
    """A game's readable dict: ``{"game": name, key: value, ...}`` from the named state fields
    and back. Fields that no key shows are derived by the game (``derive``), never guessed."""

    def __init__(self, game: str, keys: Sequence[Any],
                 derive: Optional[Callable[[Any, Dict[str, Any]], None]] = None) -> None:
        self.game = game
        self.keys = tuple(keys)  # Key or ConfigKey, in the dict's order
        self.names = ("game",) + tuple(k.name for k in self.keys)
        self.derive = derive

    def to_dict(self, cfg: Any, fields: Mapping[str, Any]) -> Dict[str, Any]:
        d: Dict[str, Any] = {"game": self.game}
        for k in self.keys:
            if isinstance(k, ConfigKey):
                d[k.name] = k.value(cfg)
            elif k.fields:
                d[k.name] = k.encode(cfg, {name: fields[name] for name in k.fields})
            else:
                v = fields[k.field_name]
                d[k.name] = k.encode(cfg, v) if k.encode else v
        return d

    def from_dict(self, cfg: Any, d: Any) -> Dict[str, Any]:
        if not isinstance(d, Mapping):
            raise TypeError(f"a {self.game} state dict is a dict, got {type(d).__name__}")
        optional = {k.name for k in self.keys if isinstance(k, Key) and not k.required}
        missing = [k for k in self.names if k not in d and k != "game" and k not in optional]
        unknown = sorted(str(k) for k in set(d) - set(self.names))
        if missing or unknown:
            raise ValueError(f"{self.game} state dict: missing keys {missing}, unknown keys {unknown}; "
                             f"the keys are {list(self.names)}")
        if d.get("game", self.game) != self.game:
            raise field_error(self.game, "game", f"got {d['game']!r:.40}", f"this is a {self.game} state")
        fields: Dict[str, Any] = {}
        for k in self.keys:
            if isinstance(k, ConfigKey):
                _check_config_key(self.game, k, cfg, d[k.name])
                continue
            if k.name not in d:  # an optional key left out
                fields[k.field_name] = k.default
                continue
            v = d[k.name]
            if k.fields:
                fields.update(k.decode(cfg, v, Fail(self.game, k.name)))
            else:
                fields[k.field_name] = k.decode(cfg, v, Fail(self.game, k.name)) if k.decode else v
        if self.derive:
            self.derive(cfg, fields)
        return fields


def _check_config_key(game: str, k: ConfigKey, cfg: Any, got: Any) -> None:
    want = k.value(cfg)
    if isinstance(want, int) and not _is_int(got):
        raise field_type_error(game, k.name, f"got {type(got).__name__} {got!r:.40}", "an int is allowed")
    if got != want:
        raise field_error(game, k.name, f"got {got!r:.40}", f"this game has {want!r}")


# -- key types: the readable forms every game uses ---------------------------------------------

def integer() -> Dict[str, Any]:
    """An int field shown as is; a value of another type is a TypeError naming the key."""
    return {"decode": _plain_int}


def enum(names: Sequence[str]) -> Dict[str, Any]:
    """An int field shown as one of ``names``."""
    names = tuple(names)

    def decode(cfg: Any, v: Any, fail: Fail) -> int:
        if not isinstance(v, str) or v not in names:
            fail(f"got {v!r:.40}", f"one of {list(names)} is allowed")
        return names.index(v)

    return {"encode": lambda cfg, v: names[v], "decode": decode}


def optional(inner: Optional[Dict[str, Any]] = None, none: int = -1) -> Dict[str, Any]:
    """A field whose ``none`` value is shown as None; other values through ``inner``."""
    enc = (inner or {}).get("encode") or (lambda cfg, v: v)
    dec = (inner or {}).get("decode") or _plain_int

    return {"encode": lambda cfg, v: None if v == none else enc(cfg, v),
            "decode": lambda cfg, v, fail: none if v is None else dec(cfg, v, fail)}


def boolean() -> Dict[str, Any]:
    """A 0/1 field shown as False/True."""

    def decode(cfg: Any, v: Any, fail: Fail) -> int:
        if not isinstance(v, bool):
            fail.type(f"got {v!r:.40}", "True or False is allowed")
        return int(v)

    return {"encode": lambda cfg, v: bool(v), "decode": decode}


def _plain_int(cfg: Any, v: Any, fail: Fail) -> int:
    if not _is_int(v):
        fail.type(f"got {type(v).__name__} {v!r:.40}", "an int is allowed")
    return int(v)


def named_counts(vocabulary: Callable[[Any], Sequence[str]], zeros: bool = False) -> Dict[str, Any]:
    """A list of counts (one per name of ``vocabulary(cfg)``) shown as {name: count}, zeros left
    out unless ``zeros``; names left out of a dict read as zero."""

    def encode_one(cfg: Any, counts: List[int]) -> Dict[str, int]:
        names = vocabulary(cfg)
        return {names[i]: c for i, c in enumerate(counts) if c or zeros}

    def decode_one(cfg: Any, value: Any, fail: Fail) -> List[int]:
        names = vocabulary(cfg)
        if not isinstance(value, Mapping):
            fail.type(f"got {type(value).__name__}", "a dict of name -> count is allowed")
        counts = [0] * len(names)
        for name, c in value.items():
            if name not in names:
                fail(f"unknown name {name!r:.40}", f"the names are {list(names)}")
            if not _is_int(c):
                fail.at(name).type(f"got {c!r:.40}", "a count is an int >= 0")
            if c < 0:
                fail.at(name)(f"got {c!r:.40}", "a count is an int >= 0")
            counts[names.index(name)] = int(c)
        return counts

    return {"encode": encode_one, "decode": decode_one}


def per_player(inner: Dict[str, Any]) -> Dict[str, Any]:
    """A field with one row per player, each row shown through ``inner``."""

    def encode(cfg: Any, rows: List[Any]) -> List[Any]:
        return [inner["encode"](cfg, r) for r in rows]

    def decode(cfg: Any, value: Any, fail: Fail) -> List[Any]:
        if not isinstance(value, list):
            fail.type(f"got {type(value).__name__} {value!r:.60}", f"a list of {cfg.players} entries is allowed")
        if len(value) != cfg.players:
            fail(f"got {value!r:.60}", f"a list of {cfg.players} entries, one per player, is allowed")
        return [inner["decode"](cfg, v, fail.at(p)) for p, v in enumerate(value)]

    return {"encode": encode, "decode": decode}


def optional_name(vocabulary: Callable[[Any], Sequence[str]]) -> Dict[str, Any]:
    """An index into ``vocabulary(cfg)`` shown as its name, -1 as None."""

    def decode(cfg: Any, v: Any, fail: Fail) -> int:
        names = vocabulary(cfg)
        if v is None:
            return -1
        if not isinstance(v, str) or v not in names:
            fail(f"got {v!r:.40}", f"None or one of {list(names)} is allowed")
        return list(names).index(v)

    return {"encode": lambda cfg, v: None if v < 0 else vocabulary(cfg)[v], "decode": decode}

