"""Nice Buns: options, components, dice and the action space.

Shared by the C++ core glue and the reference engine; no rules logic lives here (the rules are
in dimsum.reference.nice_buns and docs/rules/nice_buns.md).

Bun *kinds* are numbered once for all configs: 0 blue, 1 green, 2 red, 3 yellow (the four
colours, in this fixed "colour order"), 4 fish head. Every collection (the bag, the serving
tray, the buns in front of a player) is a count per kind. The three dice are numbered 0 small,
1 medium, 2 large; a group of dice is a 3-bit mask (bit d = die d).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Tuple

from ..._common import (ActionSpace, GameConfig, GameInfo, Option, check_provenance, check_seat_option, load_data,
                       resolve_options)

NAME = "nice_buns"
# Everything is public but the bag's order (NB-12); the turn cap gives everyone 0.
INFO = GameInfo(title="Nice Buns", information="perfect", utility="general_sum",
                arena_options={"players": 2}, showcase=True, picture=({"players": 4}, 7, 40))
MAX_PLAYERS = 6          # six plates [RULEBOOK]
MAX_FACES = 12           # faces a die may have (the core keeps them in a fixed array)
MAX_DRAW = 6             # buns one "draw" face may take from the bag

COLOURS = ("blue", "green", "red", "yellow")
FISH = 4
KINDS = COLOURS + ("fish head",)
DICE = ("small", "medium", "large")
FACE_ACTIONS = ("draw", "put_back", "take", "give", "steal", "swap")
DRAW, PUT_BACK, TAKE, GIVE, STEAL, SWAP = range(6)

PHASES = ("split", "choose", "act", "fish", "plate", "over")
SPLIT_PHASE, CHOOSE_PHASE, ACT_PHASE, FISH_PHASE, PLATE_PHASE, OVER = range(len(PHASES))
# Explicit chance mode only (chance="explicit"): the game stopped before a random event, a chance
# node. The phase names the event: the start player, a bun for the tray, a starting bun, the roll
# of the die at ``die``, a bun for the draw die at ``die``.
CHANCE_PHASES = ("start_player", "tray", "starting_bun", "roll", "draw")
START_PLAYER_PHASE, TRAY_PHASE, STARTING_BUN_PHASE, ROLL_PHASE, DRAW_PHASE = range(
    len(PHASES), len(PHASES) + len(CHANCE_PHASES))
NC = len(COLOURS)     # colours
NK = len(KINDS)       # kinds: the colours and fish heads
DONE = len(DICE)      # the die pointer after the large die

# The four ways to split the three dice into two groups (NB-2). Each is named by the mask of
# one group; the other group is its complement. 3/0 is allowed ("very rarely useful").
SPLITS = (0b111, 0b011, 0b101, 0b110)

FISH_TIEBREAK = ("owner", "colour_order")

OPTIONS: Dict[str, Option] = {o.name: o for o in (
    Option("players", 4, "number of players (six plates: 2 to 6)", kind=int, minimum=2, maximum=MAX_PLAYERS,
           ruling="NB players"),
    Option("start_player", None, "seat that rolls first (None: drawn at random)", kind=int, minimum=0,
           maximum=MAX_PLAYERS - 1, allow_none=True, ruling="NB-1"),
    Option("fish_tiebreak", "owner",
           "when fish heads must move and several sets tie for largest: the owner chooses ('owner') "
           "or the first tied colour in colour order blue, green, red, yellow ('colour_order')",
           choices=FISH_TIEBREAK, ruling="NB-7"),
    Option("manual_plating", False,
           "complete triples are plated by the owner's choice (a decision each time the cascade runs) "
           "instead of automatically", kind=bool, ruling="NB-9"),
    Option("mandatory_dice", True,
           "the medium and large dice must be used when possible; False adds a 'pass' choice",
           kind=bool, ruling="NB-5/NB-6"),
    Option("fish_movable", True,
           "fish heads count as 'one of your buns' for put back, give, steal and swap", kind=bool,
           ruling="NB-5/NB-6"),
    Option("max_turns", 1000, "turn cap: the game ends as a draw (all returns 0) after this many turns",
           kind=int, minimum=1, maximum=100_000, ruling="NB-10 guard"),
    Option("dice", None,
           "die faces in the format of data/nice_buns.json 'dice' (None: the default faces; "
           "a die left out keeps its default faces)", kind=dict, allow_none=True),
)}


@dataclass(frozen=True)
class Face:
    """One die face: what the holder of the die does."""

    action: int                    # DRAW, PUT_BACK, TAKE, GIVE, STEAL or SWAP
    count: int = 0                 # DRAW: buns drawn from the bag
    colours: Tuple[int, ...] = ()  # TAKE: colours that may be taken from the tray

    @property
    def name(self) -> str:
        if self.action == DRAW:
            return f"draw {self.count}"
        if self.action == TAKE:
            if len(self.colours) == len(COLOURS):
                return "take any colour"
            return "take " + "/".join(COLOURS[c] for c in self.colours)
        return FACE_ACTIONS[self.action].replace("_", " ")


@dataclass(frozen=True, eq=False)
class Config(GameConfig):
    colour_counts: Tuple[int, ...]      # buns of each colour in the game
    fish_heads: int
    tray_size: int
    starting_buns: int
    set_size: int
    greedy_size: int
    sets_to_win: int
    dice: Tuple[Tuple[Face, ...], ...]  # dice[d][face index]

    # -- the action space, in this order (P = players) -------------------------------------------
    #   0..3    split (SPLITS order)          4..11  choose group (mask 0..7)
    #   12..15  take colour from tray         16..20 put back kind
    #   give kind k to seat t: GIVE + k*P + t  steal kind k from seat t: STEAL + k*P + t
    #   swap my kind a for seat t's kind b: SWAP + (a*P + t)*5 + b
    #   fish head to colour (4), plate colour (4), keep buns unplated, pass
    SPLIT = 0
    CHOOSE = 4
    TAKE = 12
    PUT_BACK = 16
    GIVE = 21

    @property
    def STEAL(self) -> int:  # noqa: N802 (an offset, like the class constants above)
        return self.GIVE + len(KINDS) * self.players

    @property
    def SWAP(self) -> int:  # noqa: N802
        return self.STEAL + len(KINDS) * self.players

    @property
    def FISH_TO(self) -> int:  # noqa: N802
        return self.SWAP + len(KINDS) * len(KINDS) * self.players

    @property
    def PLATE(self) -> int:  # noqa: N802
        return self.FISH_TO + len(COLOURS)

    @property
    def KEEP(self) -> int:  # noqa: N802
        return self.PLATE + len(COLOURS)

    @property
    def PASS(self) -> int:  # noqa: N802
        return self.KEEP + 1

    def give_action(self, kind: int, target: int) -> int:
        return self.GIVE + kind * self.players + target

    def steal_action(self, kind: int, target: int) -> int:
        return self.STEAL + kind * self.players + target

    def swap_action(self, mine: int, target: int, theirs: int) -> int:
        return self.SWAP + (mine * self.players + target) * len(KINDS) + theirs


# ---------------------------------------------------------------------------------------------
# Component data

def _fail(message: str) -> None:
    raise ValueError(f"nice_buns data: {message}")


def _int_field(entry: Mapping[str, Any], key: str, lo: int, hi: int, where: str) -> int:
    v = entry.get(key) if isinstance(entry, Mapping) else None
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        _fail(f"{where}: {key!r} must be an int in [{lo}, {hi}], got {v!r}")
    return v


def _check_entry(entry: Any, where: str, allowed: Tuple[str, ...]) -> None:
    if not isinstance(entry, Mapping):
        _fail(f"{where} must be a dict, got {type(entry).__name__}")
    unknown = sorted(set(entry) - set(allowed) - {"provenance", "source"})
    if unknown:
        _fail(f"{where}: unknown key(s) {unknown}; allowed: {sorted(set(allowed) | {'provenance', 'source'})}")
    check_provenance(entry, f"nice_buns data {where}")
    if "source" in entry and not isinstance(entry["source"], str):
        _fail(f"{where}: 'source' must be a str")


def parse_face(face: Any, where: str) -> Face:
    """One die face of the data format, validated."""
    _check_entry(face, where, ("action", "count", "colours"))
    action = face.get("action")
    if action not in FACE_ACTIONS:
        _fail(f"{where}: 'action' must be one of {list(FACE_ACTIONS)}, got {action!r}")
    a = FACE_ACTIONS.index(action)
    if a != DRAW and "count" in face:
        _fail(f"{where}: only a 'draw' face has a 'count'")
    if a != TAKE and "colours" in face:
        _fail(f"{where}: only a 'take' face has 'colours'")
    if a == DRAW:
        return Face(DRAW, count=_int_field(face, "count", 1, MAX_DRAW, where))
    if a == TAKE:
        colours = face.get("colours")
        if not isinstance(colours, list) or not colours:
            _fail(f"{where}: a 'take' face needs 'colours', a non-empty list of {list(COLOURS)}")
        for c in colours:
            if c not in COLOURS:
                _fail(f"{where}: unknown colour {c!r}; the colours are {list(COLOURS)}")
        if len(set(colours)) != len(colours):
            _fail(f"{where}: a colour appears twice in {colours}")
        return Face(TAKE, colours=tuple(sorted(COLOURS.index(c) for c in colours)))
    return Face(a)


def parse_die(die: Any, name: str) -> Tuple[Face, ...]:
    where = f"dice.{name}"
    _check_entry(die, where, ("faces",))
    faces = die.get("faces")
    if not isinstance(faces, list) or not 1 <= len(faces) <= MAX_FACES:
        _fail(f"{where}: 'faces' must be a list of 1 to {MAX_FACES} faces")
    return tuple(parse_face(f, f"{where}.faces[{i}]") for i, f in enumerate(faces))


def parse_dice(dice: Any) -> Tuple[Tuple[Face, ...], ...]:
    """The three dice ({"small": {...}, "medium": ..., "large": ...}), validated."""
    if not isinstance(dice, Mapping):
        _fail(f"dice must be a dict with keys {list(DICE)}, got {type(dice).__name__}")
    unknown = sorted(set(dice) - set(DICE))
    if unknown:
        _fail(f"dice: unknown die {unknown}; the dice are {list(DICE)}")
    missing = [d for d in DICE if d not in dice]
    if missing:
        _fail(f"dice: missing {missing}")
    return tuple(parse_die(dice[d], d) for d in DICE)


def parse_components(data: Mapping[str, Any]) -> Dict[str, Any]:
    """Counts of the packaged data (colours, fish heads, tray, plates, sets), validated."""
    colours = data.get("colours")
    if not isinstance(colours, list) or [c.get("name") if isinstance(c, Mapping) else None
                                         for c in colours] != list(COLOURS):
        _fail(f"'colours' must list {list(COLOURS)} in this order")
    for i, c in enumerate(colours):
        _check_entry(c, f"colours[{i}]", ("name", "count"))
    for key, allowed in (("fish_heads", ("count",)), ("plates", ("count",)), ("serving_tray", ("size",)),
                         ("starting_buns", ("count",)), ("sets", ("set_size", "greedy_size", "sets_to_win"))):
        _check_entry(data.get(key), key, allowed)
    sets = data["sets"]
    out = {
        "colour_counts": tuple(_int_field(c, "count", 1, 60, f"colours[{i}]") for i, c in enumerate(colours)),
        "fish_heads": _int_field(data["fish_heads"], "count", 0, 60, "fish_heads"),
        "plates": _int_field(data["plates"], "count", 2, MAX_PLAYERS, "plates"),
        "tray_size": _int_field(data["serving_tray"], "size", 1, 20, "serving_tray"),
        "starting_buns": _int_field(data["starting_buns"], "count", 0, len(COLOURS), "starting_buns"),
        "set_size": _int_field(sets, "set_size", 2, 9, "sets"),
        "greedy_size": _int_field(sets, "greedy_size", 3, 10, "sets"),
        "sets_to_win": _int_field(sets, "sets_to_win", 1, len(COLOURS), "sets"),
    }
    if out["greedy_size"] != out["set_size"] + 1:
        _fail("sets: greedy_size must be set_size + 1 (a full set is safe, one more is greedy)")
    return out


# ---------------------------------------------------------------------------------------------
# Config

def _group_name(mask: int) -> str:
    return "+".join(DICE[d] for d in range(3) if mask >> d & 1) or "none"


def split_name(mask: int) -> str:
    """'small+large | medium' for the split whose first group is ``mask``."""
    return f"{_group_name(mask)} | {_group_name(7 ^ mask)}"


class SeatNamedActions(ActionSpace):
    """The action space, whose names say "seat N" as every view does; ``parse`` still accepts the
    older spelling "player N" ("give red to player 1"), so that scripts written before keep working."""

    __slots__ = ()

    def parse(self, text: Any) -> int:
        if isinstance(text, str):
            text = re.sub(r"\bplayer (\d+)", r"seat \1", text, flags=re.IGNORECASE)
        return super().parse(text)


def _action_names(players: int) -> List[str]:
    names = [f"split: {split_name(m)}" for m in SPLITS]
    names += [f"choose group: {_group_name(m)}" for m in range(8)]
    names += [f"take {c} from tray" for c in COLOURS]
    names += [f"put back {k}" for k in KINDS]
    names += [f"give {k} to seat {t}" for k in KINDS for t in range(players)]
    names += [f"steal {k} from seat {t}" for k in KINDS for t in range(players)]
    names += [f"swap my {a} for seat {t}'s {b}" for a in KINDS for t in range(players) for b in KINDS]
    names += [f"fish head to {c}" for c in COLOURS]
    names += [f"plate {c}" for c in COLOURS]
    names += ["keep buns unplated", "pass"]
    return names


def face_outcome(dice: Tuple[Tuple[Face, ...], ...], die: int, face: int) -> int:
    """The chance outcome of ``face`` rolled on ``die``: after the five bun kinds, die by die."""
    return NK + sum(len(d) for d in dice[:die]) + face


def seat_outcome(dice: Tuple[Tuple[Face, ...], ...], seat: int) -> int:
    """The chance outcome "seat N starts": after every die's faces."""
    return face_outcome(dice, len(DICE), 0) + seat


def _chance_names(players: int, dice: Tuple[Tuple[Face, ...], ...]) -> List[str]:
    """The chance outcomes: a bun of each kind drawn (the tray, a starting bun, a draw die), each
    face of each die (a die may show the same face twice, so the face index is in the name), then
    the start player."""
    names = [f"draw {k}" for k in KINDS]
    names += [f"{DICE[d]} die: {f.name} (face {i})" for d in range(len(DICE)) for i, f in enumerate(dice[d])]
    names += [f"seat {p} starts" for p in range(players)]
    return names


def make_config(**options: Any) -> Config:
    opts = resolve_options(NAME, OPTIONS, options)
    players = opts["players"]
    check_seat_option(NAME, "start_player", opts["start_player"], players)
    data = load_data(NAME)
    comps = parse_components(data)
    if players > comps["plates"]:
        raise ValueError(f"nice_buns option 'players': {players} players need {players} plates, "
                         f"the game has {comps['plates']}")
    dice_data = dict(data["dice"])
    if opts["dice"] is not None:
        user = opts["dice"]
        unknown = sorted(set(user) - set(DICE))
        if unknown:
            raise ValueError(f"nice_buns option 'dice': unknown die {unknown}; the dice are {list(DICE)}")
        dice_data.update(copy.deepcopy(user))   # a die left out keeps its default faces
        opts["dice"] = copy.deepcopy(user)      # the config owns its data
    dice = parse_dice(dice_data)
    # Setup must be possible: the tray and every player's non-matching starting buns.
    coloured = sum(comps["colour_counts"])
    if coloured < comps["tray_size"] + players * comps["starting_buns"]:
        _fail("too few coloured buns for the tray and the starting buns")
    return Config(
        players=players, options=opts,
        colour_counts=comps["colour_counts"], fish_heads=comps["fish_heads"],
        tray_size=comps["tray_size"], starting_buns=comps["starting_buns"],
        set_size=comps["set_size"], greedy_size=comps["greedy_size"], sets_to_win=comps["sets_to_win"],
        dice=dice, action_space=SeatNamedActions(_action_names(players)),
        chance_space=ActionSpace(_chance_names(players, dice)),
        min_return=0.0, max_return=1.0)


# ---------------------------------------------------------------------------------------------
# A readable picture of a state, from its to_dict()

def _buns(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{c} {k}" for k, c in counts.items() if c) or "-"


def render(d: Mapping[str, Any]) -> str:
    phase = d["phase"]
    head = f"Nice Buns, turn {d['turn']}, " + (
        "start player not drawn yet" if d["roller"] is None else f"seat {d['roller']} rolled")
    if phase == "over":
        head += ", game over: " + ("a draw (turn cap)" if d["winner"] is None else f"seat {d['winner']} wins")
    elif phase in CHANCE_PHASES:
        head += f", chance: {phase}" + (f" ({d['die']} die)" if phase in ("roll", "draw") else "")
    else:
        head += f", phase {phase}"
    lines = [head]
    lines.append("dice: " + ", ".join(f"{die} {d['dice'][die]['shows']}" for die in DICE)
                 + (f"   split: {d['split']}" if d["split"] is not None else "")
                 + (f"   chooser takes: {d['chooser_takes']}" if d["chooser_takes"] is not None else ""))
    if d["chooser_takes"] is not None and phase != "over":
        lines.append(f"next die: {d['die']}" + (f" ({d['draws_left']} to draw)" if d["draws_left"] else "")
                     + (f"   cascade pending: {d['cascade']}" if d["cascade"] else ""))
    lines.append(f"bag: {_buns(d['bag'])}   tray: {_buns(d['tray'])}")
    for p, seat in enumerate(d["seats"]):
        fish = f" (fish on {seat['fish_on']})" if seat["fish_on"] else ""
        plate = "+".join(seat["plate"]) or "-"
        lines.append(f"seat {p}: plate {plate}   in front: {_buns(seat['front'])}{fish}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# The C++ core's view: its config fields by name (src/dimsum_core/nice_buns/schema.cpp), and the
# readable dict of its state fields (state_dict.py)

def config_values(cfg: Config) -> Dict[str, Any]:
    o = cfg.options
    values: Dict[str, Any] = {
        "players": cfg.players, "start_player": -1 if o["start_player"] is None else o["start_player"],
        "fish_tiebreak": FISH_TIEBREAK.index(o["fish_tiebreak"]), "manual_plating": int(o["manual_plating"]),
        "mandatory_dice": int(o["mandatory_dice"]), "fish_movable": int(o["fish_movable"]),
        "max_turns": o["max_turns"],
        "colour_counts": list(cfg.colour_counts), "fish_heads": cfg.fish_heads, "tray_size": cfg.tray_size,
        "starting_buns": cfg.starting_buns, "set_size": cfg.set_size, "greedy_size": cfg.greedy_size,
        "sets_to_win": cfg.sets_to_win,
    }
    for name, die in zip(DICE, cfg.dice):
        values[f"{name}_die"] = [[f.action, f.count, sum(1 << c for c in f.colours)] for f in die]
    return values


def dict_from_fields(cfg: Config, fields: Mapping[str, Any]) -> Dict[str, Any]:
    from .state_dict import CODEC

    return CODEC.to_dict(cfg, fields)


def fields_from_dict(cfg: Config, d: Mapping[str, Any]) -> Dict[str, Any]:
    from .state_dict import CODEC

    return CODEC.from_dict(cfg, d)



# ---------------------------------------------------------------------------------------------
# Names for the observation's entries (state.observation_string); seats are absolute, as in the
# observation and the actions

def observation_labels(cfg: Config) -> Dict[str, List[str]]:
    seats = [f"seat {p}" for p in range(cfg.players)]
    per_die = list(FACE_ACTIONS) + ["draw count"] + [f"take {c}" for c in COLOURS]
    return {
        "observer": seats,
        "current_player": seats,
        "phase": list(PHASES),
        "roller": seats,
        "dice": [f"{die} {what}" for die in DICE for what in per_die],
        "split": [split_name(m) for m in SPLITS],
        "chooser_dice": list(DICE),
        "die": list(DICE) + ["done"],
        "bag": list(KINDS),
        "tray": list(COLOURS),
        "front": [f"{seat} {k}" for seat in seats for k in KINDS],
        "fish_on": [f"{seat} fish on {c}" for seat in seats for c in COLOURS],
        "plates": [f"{seat} {c}" for seat in seats for c in COLOURS],
        "cascade": [f"{which} {seat}" for which in ("first", "second") for seat in seats],
        "winner": seats,
    }


from .ending import ending  # noqa: E402  (it reads the names above)
