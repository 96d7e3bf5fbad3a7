"""The readable dict form of a Nice Buns state, shared by the core and the reference engine.

Both engines keep the same *fields* (small ints, lists of counts per kind, plate bitmasks);
this module turns fields into the canonical dict and back, validating everything on the way
in, so that ``state_from_dict`` rejects a bad position with a message naming the field.

One check needs the rules and is left to each engine: a position in the ``act`` phase must
offer its player two or more actions (a die with fewer resolves automatically). The reference
checks it after building its State, the core in its C++ ``validate``; both raise
:data:`ONE_OPTION_MESSAGE`.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple

from ..._common import TERMINAL, check_int
from .. import nice_buns as spec
from ..nice_buns import COLOURS, DICE, DRAW, FISH, KINDS

SPLIT, CHOOSE, ACT, FISH_PHASE, PLATE_PHASE, OVER = range(6)
NC = len(COLOURS)
NK = len(KINDS)
DONE = 3   # the die pointer after the large die

KEYS = ("game", "players", "phase", "current_player", "turn", "roller", "dice", "split", "chooser_takes",
        "die", "draws_left", "cascade", "bag", "tray", "seats", "winner", "rng")
OPTIONAL_KEYS = ("game", "current_player")

ONE_OPTION_MESSAGE = ("a die with fewer than two legal actions is resolved automatically; "
                      "build the position one step earlier (e.g. in the choose phase)")


class Fields:
    """The fields of one state as attributes, named like the reference State's.

    phase (index into spec.PHASES), current_player, turn, roller, dice (face index per die),
    split (index into spec.SPLITS or -1), chooser_mask (-1 or a 3-bit mask), die (0..3),
    draws_left, cascade (list of seats), bag (5 counts), tray (4 counts), front (per seat, 5
    counts), fish_on (per seat, colour or -1), plates (per seat, colour bitmask), winner (-1 or
    a seat), rng (4 words).
    """

    def __init__(self, cfg: spec.Config, **values: Any) -> None:
        self.cfg = cfg
        self.__dict__.update(values)

    def face(self, die: int) -> spec.Face:
        return self.cfg.dice[die][self.dice[die]]


def current_player_of(f: Any) -> int:
    """Who decides in a position, from its fields (NB-2/NB-3 for the dice, NB-9 for a cascade)."""
    ph = f.phase
    n = f.cfg.players
    if ph == SPLIT:
        return f.roller
    if ph == CHOOSE:
        return (f.roller + 1) % n
    if ph == ACT:
        return (f.roller + 1) % n if f.chooser_mask >> f.die & 1 else f.roller
    if ph == OVER:
        return TERMINAL
    return f.cascade[0]


# ---------------------------------------------------------------------------------------------
# Fields -> dict

def state_to_dict(f: Any) -> Dict[str, Any]:
    """The canonical dict of a state given an object with the fields as attributes."""
    cfg = f.cfg

    def named(counts: List[int], kinds: Tuple[str, ...]) -> Dict[str, int]:
        return {kinds[k]: counts[k] for k in range(len(kinds))}

    rng = f.rng.state() if hasattr(f.rng, "state") else list(f.rng)
    return {
        "game": spec.NAME,
        "players": cfg.players,
        "phase": spec.PHASES[f.phase],
        "current_player": f.current_player,
        "turn": f.turn,
        "roller": f.roller,
        "dice": {DICE[d]: {"face": f.dice[d], "shows": cfg.dice[d][f.dice[d]].name} for d in range(3)},
        "split": None if f.split < 0 else spec.split_name(spec.SPLITS[f.split]),
        "chooser_takes": None if f.chooser_mask < 0 else spec.group_name(f.chooser_mask),
        "die": (DICE + ("done",))[f.die],
        "draws_left": f.draws_left,
        "cascade": list(f.cascade),
        "bag": named(f.bag, KINDS),
        "tray": named(f.tray, COLOURS),
        "seats": [{"front": named(f.front[p], KINDS),
                   "fish_on": None if f.fish_on[p] < 0 else COLOURS[f.fish_on[p]],
                   "plate": [COLOURS[k] for k in range(NC) if f.plates[p] >> k & 1]}
                  for p in range(cfg.players)],
        "winner": None if f.winner < 0 else f.winner,
        "rng": list(rng),
    }


# ---------------------------------------------------------------------------------------------
# Dict -> fields: every field validated, then the position checked as a whole

def _bad(field: str, message: str) -> None:
    raise ValueError(f"nice_buns state: {field}: {message}")


def _counts(d: Any, kinds: Tuple[str, ...], field: str) -> List[int]:
    """A dict of counts by kind name; missing kinds are 0."""
    if not isinstance(d, dict):
        raise TypeError(f"nice_buns state: {field} must be a dict of counts by name, got {type(d).__name__}")
    unknown = sorted(set(d) - set(kinds))
    if unknown:
        _bad(field, f"unknown name(s) {unknown}; the names are {list(kinds)}")
    return [check_int(d.get(k, 0), f"nice_buns state: {field}[{k!r}]", 0, 255) for k in kinds]


def _choice(value: Any, allowed: Tuple[Any, ...], field: str) -> int:
    if value not in allowed:
        _bad(field, f"must be one of {list(allowed)}, got {value!r}")
    return allowed.index(value)


def state_fields_from_dict(cfg: spec.Config, d: Mapping[str, Any]) -> Fields:
    """Validated Fields from a dict; ValueError/TypeError names the first bad field.

    Everything is checked but the rules-dependent ONE_OPTION_MESSAGE check (see the module doc).
    """
    if not isinstance(d, Mapping):
        raise TypeError(f"a nice_buns state dict is a dict, got {type(d).__name__}")
    n = cfg.players
    unknown = sorted(set(d) - set(KEYS))
    missing = [k for k in KEYS if k not in d and k not in OPTIONAL_KEYS]
    if unknown:
        _bad("keys", f"unknown key(s) {unknown}; the keys are {list(KEYS)}")
    if missing:
        _bad("keys", f"missing {missing}")
    if d.get("game", spec.NAME) != spec.NAME:
        _bad("game", f"must be {spec.NAME!r}, got {d['game']!r}")
    if check_int(d["players"], "nice_buns state: players") != n:
        _bad("players", f"this game has {n} players, got {d['players']}")
    s = Fields(cfg, dice=[0, 0, 0], front=[[0] * NK for _ in range(n)], fish_on=[-1] * n, plates=[0] * n)
    s.phase = _choice(d["phase"], spec.PHASES, "phase")
    s.turn = check_int(d["turn"], "nice_buns state: turn", 1, cfg.options["max_turns"])
    s.roller = check_int(d["roller"], "nice_buns state: roller", 0, n - 1)

    dice = d["dice"]
    if not isinstance(dice, dict) or sorted(dice) != sorted(DICE):
        _bad("dice", f"must be a dict with keys {list(DICE)}")
    for i, die in enumerate(DICE):
        entry = dice[die]
        if not isinstance(entry, dict) or not set(entry) <= {"face", "shows"} or "face" not in entry:
            _bad(f"dice.{die}", "must be a dict {'face': index, 'shows': name}")
        s.dice[i] = check_int(entry["face"], f"nice_buns state: dice.{die}.face", 0, len(cfg.dice[i]) - 1)
        if "shows" in entry and entry["shows"] != s.face(i).name:
            _bad(f"dice.{die}.shows", f"face {s.dice[i]} shows {s.face(i).name!r}, got {entry['shows']!r}")

    split_names = tuple(spec.split_name(m) for m in spec.SPLITS)
    s.split = -1 if d["split"] is None else _choice(d["split"], split_names, "split")
    if d["chooser_takes"] is None:
        s.chooser_mask = -1
    else:
        if s.split < 0:
            _bad("chooser_takes", "a group is taken only after the split")
        m = spec.SPLITS[s.split]
        groups = (spec.group_name(m), spec.group_name(7 ^ m))
        s.chooser_mask = (m, 7 ^ m)[_choice(d["chooser_takes"], groups, "chooser_takes")]
    s.die = _choice(d["die"], DICE + ("done",), "die")
    s.draws_left = check_int(d["draws_left"], "nice_buns state: draws_left", 0, spec.MAX_DRAW)

    cascade = d["cascade"]
    if not isinstance(cascade, list) or len(cascade) > 2:
        _bad("cascade", "must be a list of at most two seats")
    s.cascade = [check_int(p, "nice_buns state: cascade[]", 0, n - 1) for p in cascade]
    if len(set(s.cascade)) != len(s.cascade):
        _bad("cascade", "a seat appears twice")

    s.bag = _counts(d["bag"], KINDS, "bag")
    s.tray = _counts(d["tray"], COLOURS, "tray")
    seats = d["seats"]
    if not isinstance(seats, list) or len(seats) != n:
        _bad("seats", f"must be a list of {n} seats")
    for p, seat in enumerate(seats):
        where = f"seats[{p}]"
        if not isinstance(seat, dict) or sorted(seat) != ["fish_on", "front", "plate"]:
            _bad(where, "must be a dict with keys 'front', 'fish_on', 'plate'")
        s.front[p] = _counts(seat["front"], KINDS, f"{where}.front")
        s.fish_on[p] = -1 if seat["fish_on"] is None else _choice(seat["fish_on"], COLOURS, f"{where}.fish_on")
        plate = seat["plate"]
        if not isinstance(plate, list) or len(set(plate)) != len(plate):
            _bad(f"{where}.plate", "must be a list of distinct colours")
        for c in plate:
            s.plates[p] |= 1 << _choice(c, COLOURS, f"{where}.plate")
    s.winner = -1 if d["winner"] is None else check_int(d["winner"], "nice_buns state: winner", 0, n - 1)
    rng = d["rng"]
    if not isinstance(rng, list) or len(rng) != 4:
        _bad("rng", "must be a list of four 64-bit words")
    s.rng = [check_int(w, "nice_buns state: rng[]", 0, (1 << 64) - 1) for w in rng]
    if not any(s.rng):
        _bad("rng", "an all-zero generator state never leaves zero")

    _check_conservation(s)
    _check_position(s)
    s.current_player = current_player_of(s)
    if "current_player" in d and d["current_player"] != s.current_player:
        _bad("current_player", f"the position gives {s.current_player}, got {d['current_player']!r}")
    return s


def _check_conservation(s: Fields) -> None:
    """Every bun is in exactly one place: bag, tray, in front of a player, or on a plate."""
    cfg = s.cfg
    for k in range(NK):
        total = s.bag[k] + sum(f[k] for f in s.front)
        if k < NC:
            total += s.tray[k] + cfg.set_size * sum(pl >> k & 1 for pl in s.plates)
        expected = cfg.colour_counts[k] if k < NC else cfg.fish_heads
        if total != expected:
            _bad("bag/tray/seats", f"{KINDS[k]}: bag + tray + fronts + plates hold {total} buns, "
                                   f"the game has {expected}")
    if sum(s.tray) > cfg.tray_size:
        _bad("tray", f"holds {sum(s.tray)} buns, at most {cfg.tray_size}")
    if sum(s.tray) < cfg.tray_size and sum(s.bag[:NC]) > 0:
        _bad("tray", "is short while the bag still holds coloured buns (NB-10: it refills at once)")


def stability_problem(s: Any, p: int) -> Optional[str]:
    """Why seat p is not at rest after its cascade (NB-7 to NB-9), or None."""
    cfg = s.cfg
    c = s.front[p]
    fish, coloured = c[FISH], sum(c[:NC])
    on = s.fish_on[p]
    if fish == 0 or coloured == 0:
        if on >= 0:
            return "fish_on must be null without fish heads or without coloured buns"
    elif on < 0 or c[on] != max(c[:NC]):
        return "the fish heads must be on a largest set (NB-7)"
    for k in range(NC):
        if c[k] + (fish if on == k else 0) >= cfg.greedy_size:
            return f"a {COLOURS[k]} set of {cfg.greedy_size} or more must have gone back (NB-8)"
    if coloured == 0 and fish >= cfg.greedy_size:
        return f"{cfg.greedy_size} or more fish heads must have gone back (NB-8)"
    for k in range(NC):
        if c[k] == cfg.set_size and s.plates[p] >> k & 1:
            return f"a second {COLOURS[k]} set must have gone back (no doubles)"
    if fish == 0 and not cfg.options["manual_plating"]:
        for k in range(NC):
            if c[k] == cfg.set_size:
                return f"the {COLOURS[k]} set must have been plated (NB-9, automatic plating)"
    return None


def _check_position(s: Fields) -> None:
    """Phase consistency: the state must be one the engine can rest in."""
    cfg = s.cfg
    ph = s.phase
    won = [p for p in range(cfg.players) if bin(s.plates[p]).count("1") >= cfg.sets_to_win]
    if len(won) > 1:
        _bad("seats", f"seats {won} have all completed their plates")
    if s.winner >= 0 and won != [s.winner]:
        _bad("winner", f"seat {s.winner} has not completed a plate")
    if won and s.winner < 0:
        _bad("winner", f"seat {won[0]} has completed a plate, so the game is won")
    if ph == OVER and s.winner < 0 and not (s.turn == cfg.options["max_turns"] and s.die == DONE):
        _bad("phase", "a game is over when it is won or when the last turn (max_turns) is done")
    if ph != OVER and s.winner >= 0:
        _bad("phase", "a won game is over")
    if ph in (SPLIT, CHOOSE):
        if (s.split >= 0) != (ph == CHOOSE) or s.chooser_mask >= 0:
            _bad("split", "set in the choose phase only; chooser_takes is null before the choice")
        if s.die != 0 or s.draws_left:
            _bad("die", "before the choice the die is 'small' and draws_left 0")
    elif s.chooser_mask < 0:
        _bad("chooser_takes", f"must be set in the {spec.PHASES[ph]} phase")
    if ph in (FISH_PHASE, PLATE_PHASE):
        if not s.cascade:
            _bad("cascade", "the deciding seat is the first of the cascade")
    elif s.cascade:
        _bad("cascade", f"must be empty in the {spec.PHASES[ph]} phase")
    # draws_left: only a draw die at the pointer has draws left, and at rest it has at least one
    at_draw = s.die < DONE and s.face(s.die).action == DRAW
    if ph in (FISH_PHASE, PLATE_PHASE) and at_draw:
        if not 1 <= s.draws_left <= s.face(s.die).count:
            _bad("draws_left", f"must be in [1, {s.face(s.die).count}] at the {DICE[s.die]} die")
    elif ph == OVER and at_draw:
        if s.draws_left > s.face(s.die).count:
            _bad("draws_left", f"at most {s.face(s.die).count}")
    elif s.draws_left:
        _bad("draws_left", "must be 0 unless a draw die is still drawing")
    if ph == ACT:
        if s.die == DONE or s.face(s.die).action == DRAW:
            _bad("die", "the act phase waits for a die that asks a decision (not a draw die)")
    for p in range(cfg.players):
        if p in s.cascade:
            continue    # its cascade has not run yet (checked below if it is deciding now)
        problem = stability_problem(s, p)
        if problem and not (ph == OVER and s.winner >= 0):
            _bad(f"seats[{p}]", problem)
    if ph == FISH_PHASE:
        p = s.cascade[0]
        c = s.front[p]
        if cfg.options["fish_tiebreak"] != "owner":
            _bad("phase", "the fish phase exists only with fish_tiebreak='owner'")
        if c[FISH] == 0 or sum(c[:NC]) == 0 or s.fish_on[p] >= 0:
            _bad(f"seats[{p}]", "a fish choice needs fish heads, coloured buns and fish_on null")
        if sum(1 for k in range(NC) if c[k] == max(c[:NC])) < 2:
            _bad(f"seats[{p}]", "a fish choice needs two or more tied largest sets")
    if ph == PLATE_PHASE:
        p = s.cascade[0]
        if not cfg.options["manual_plating"]:
            _bad("phase", "the plate phase exists only with manual_plating=True")
        problem = stability_problem(s, p)
        if problem:
            _bad(f"seats[{p}]", problem)
        if s.front[p][FISH] or not any(s.front[p][k] == cfg.set_size and not s.plates[p] >> k & 1
                                       for k in range(NC)):
            _bad(f"seats[{p}]", "the plate phase needs no fish heads and a set to plate")


# ---------------------------------------------------------------------------------------------
# The flat int form the C++ core exports and imports (src/dimsum_core/nice_buns/io.cpp):
#   0 phase, 1 current player, 2 turn, 3 roller, 4..6 dice faces, 7 split (-1..3),
#   8 chooser mask (-1..7), 9 die (0..3), 10 draws_left, 11 winner (-1..P-1),
#   12 cascade length, 13..14 cascade seats (-1 when unused), 15..18 rng words (int64 bit
#   patterns), 19..23 bag (5 kinds), 24..27 tray (4 colours), then per seat: front (5 kinds),
#   fish_on (-1..3), plate bitmask.

HEADER = 28
PER_SEAT = NK + 2


def num_ints(cfg: spec.Config) -> int:
    return HEADER + PER_SEAT * cfg.players


def fields_to_ints(cfg: spec.Config, f: Fields) -> List[int]:
    cascade = list(f.cascade) + [-1] * (2 - len(f.cascade))
    v = [f.phase, f.current_player, f.turn, f.roller, *f.dice, f.split, f.chooser_mask, f.die, f.draws_left,
         f.winner, len(f.cascade), *cascade]
    v += [w - (1 << 64) if w >= (1 << 63) else w for w in f.rng]
    v += list(f.bag) + list(f.tray)
    for p in range(cfg.players):
        v += list(f.front[p]) + [f.fish_on[p], f.plates[p]]
    assert len(v) == num_ints(cfg)
    return v


def ints_to_fields(cfg: spec.Config, v: List[int]) -> Fields:
    n = cfg.players
    if len(v) != num_ints(cfg):
        raise ValueError(f"nice_buns fields: expected {num_ints(cfg)} ints, got {len(v)}")
    seats = [v[HEADER + PER_SEAT * p:HEADER + PER_SEAT * (p + 1)] for p in range(n)]
    return Fields(
        cfg, phase=v[0], current_player=v[1], turn=v[2], roller=v[3], dice=list(v[4:7]), split=v[7],
        chooser_mask=v[8], die=v[9], draws_left=v[10], winner=v[11], cascade=list(v[13:13 + v[12]]),
        rng=[w & ((1 << 64) - 1) for w in v[15:19]], bag=list(v[19:24]), tray=list(v[24:28]),
        front=[s[:NK] for s in seats], fish_on=[s[NK] for s in seats], plates=[s[NK + 1] for s in seats])
