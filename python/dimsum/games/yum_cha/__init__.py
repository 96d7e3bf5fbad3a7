"""Yum Cha: options, the deck, the action space and the observation layout.

Shared by the C++ core glue and the reference engine; no rules logic lives here.
Card *types* are numbered once per config: dim sum grouped by tier (in tier order), then the
tea flavours, then the takeaway card. Every collection (a hand, the centre, the deck) is a
count per card type. See docs/rules/yum_cha.md.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Tuple

from ..._common import (ActionSpace, GameConfig, GameInfo, Option, check_provenance, check_seat_option,
                       load_data, resolve_options)
from .ending import ending  # noqa: F401  (state.outcome)
from .hidden_history import resample_history  # noqa: F401  (explicit mode's resample: dimsum._views)

NAME = "yum_cha"
# Yum Cha hides the other hands (rulebook, "Setup"); a washout shares the pot, so no constant sum.
INFO = GameInfo(title="Yum Cha", information="imperfect", utility="general_sum",
                arena_options={"players": 2}, picture=({"players": 4}, 7, 21))
HAND_SIZE = 10          # rulebook: "Hand limit of 10 cards"
MAX_TYPES = 64          # the core packs a collection into 64 four-bit counts
MAX_COPIES = 15         # ... so no more than 15 copies of one card type
MAX_PLAYERS = 6

KIND_DIM_SUM, KIND_TEA, KIND_TAKEAWAY = 0, 1, 2
DECK_OUT = ("washout", "reshuffle_centre", "centre_only")
TIE_BREAK = ("share", "declarations_then_best_round")
REWARD = ("win_share", "score")

OPTIONS: Dict[str, Option] = {o.name: o for o in (
    Option("players", 4, "number of players", kind=int, minimum=2, maximum=MAX_PLAYERS, ruling="YC-16"),
    Option("rounds", 4, "rounds in a game (rulebook: four)", kind=int, minimum=1, maximum=16),
    Option("auto_declare", False, "declare Yum Cha automatically as soon as a drawn card completes the hand",
           kind=bool, ruling="YC-5"),
    Option("forbid_immediate_return", False,
           "a card taken from the centre may not be discarded in the same turn", kind=bool, ruling="YC-3"),
    Option("deck_out", "washout", "what happens when the deck runs out", choices=DECK_OUT, ruling="YC-9"),
    Option("max_turns_per_round", 300, "turns after which a round is a washout", kind=int, minimum=1,
           maximum=10_000, ruling="YC-10"),
    Option("first_player", None, "seat that starts round 1 (None: drawn at random)", kind=int,
           minimum=0, maximum=MAX_PLAYERS - 1, allow_none=True, ruling="YC-11"),
    Option("tie_break", "share", "how tied totals after the last round are settled", choices=TIE_BREAK,
           ruling="YC-13"),
    Option("reward", "win_share", "returns(): 'win_share' (winners split 1.0) or 'score' (point totals)",
           choices=REWARD),
    Option("deck", None, "a deck in the format of data/yum_cha.json (None: the default deck)",
           kind=dict, allow_none=True),
)}


@dataclass(frozen=True)
class CardType:
    index: int
    name: str
    kind: int            # KIND_DIM_SUM, KIND_TEA or KIND_TAKEAWAY
    tier: int            # tier index for dim sum, -1 otherwise
    value: int           # set points of the tier (dim sum), multiplier (tea), 0 (takeaway)
    copies: int


@dataclass(frozen=True)
class Config(GameConfig):
    tier_names: Tuple[str, ...]
    tier_points: Tuple[int, ...]
    types: Tuple[CardType, ...]

    @property
    def num_types(self) -> int:
        return len(self.types)

    @property
    def type_names(self) -> Tuple[str, ...]:
        return tuple(t.name for t in self.types)

    def type_index(self, name: str) -> int:
        for t in self.types:
            if t.name == name:
                return t.index
        raise ValueError(f"no card type is named {name!r}; the types are {list(self.type_names)}")

    @property
    def full_deck(self) -> List[int]:
        return [t.copies for t in self.types]

    # -- the action space: 0 draw, 1+t take t, 1+T+t discard t, 1+2T declare ------------------
    @property
    def draw_action(self) -> int:
        return 0

    def take_action(self, t: int) -> int:
        return 1 + t

    def discard_action(self, t: int) -> int:
        return 1 + self.num_types + t

    @property
    def declare_action(self) -> int:
        return 1 + 2 * self.num_types

    # -- the chance outcomes (explicit chance): t "draw <card t>", T+p "seat p starts" -------------
    def draw_outcome(self, t: int) -> int:
        return t

    def starter_outcome(self, seat: int) -> int:
        return self.num_types + seat


# ---------------------------------------------------------------------------------------------
# The deck

def _require(cond: bool, message: str) -> None:
    if not cond:
        raise ValueError(f"yum_cha deck: {message}")


def _copies(entry: Mapping[str, Any], where: str) -> int:
    c = entry.get("copies")
    _require(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= MAX_COPIES,
             f"{where}: 'copies' must be an int in [0, {MAX_COPIES}], got {c!r}")
    return c


def parse_deck(deck: Mapping[str, Any], players: int) -> Tuple[Tuple[str, ...], Tuple[int, ...], Tuple[CardType, ...]]:
    """Validates a deck description and numbers its card types. Raises ValueError naming the fault."""
    _require(isinstance(deck, Mapping), f"must be a dict, got {type(deck).__name__}")
    for key in ("tiers", "dim_sum", "teas"):
        _require(isinstance(deck.get(key), list) and deck[key], f"needs a non-empty list {key!r}")
    tiers = deck["tiers"]
    tier_names: List[str] = []
    tier_points: List[int] = []
    for i, tier in enumerate(tiers):
        where = f"tiers[{i}]"
        _require(isinstance(tier, Mapping) and isinstance(tier.get("name"), str) and tier["name"],
                 f"{where} needs a 'name'")
        _require(tier["name"] not in tier_names, f"{where}: tier {tier['name']!r} appears twice")
        pts = tier.get("points")
        _require(isinstance(pts, int) and not isinstance(pts, bool) and 1 <= pts <= 9,
                 f"{where}: 'points' must be an int in [1, 9], got {pts!r}")
        check_provenance(tier, f"yum_cha deck {where}")
        tier_names.append(tier["name"])
        tier_points.append(pts)

    types: List[CardType] = []
    names: set = set()

    def add(name: Any, kind: int, tier: int, value: int, copies: int, where: str) -> None:
        _require(isinstance(name, str) and name.strip() == name and name, f"{where} needs a 'name'")
        _require(name not in names, f"{where}: card name {name!r} appears twice")
        names.add(name)
        if copies:
            types.append(CardType(len(types), name, kind, tier, value, copies))

    by_tier: List[List[Tuple[Any, int, str]]] = [[] for _ in tier_names]
    for i, card in enumerate(deck["dim_sum"]):
        where = f"dim_sum[{i}]"
        _require(isinstance(card, Mapping), f"{where} must be a dict")
        _require(card.get("tier") in tier_names,
                 f"{where}: unknown tier {card.get('tier')!r}; the tiers are {tier_names}")
        check_provenance(card, f"yum_cha deck {where}")
        by_tier[tier_names.index(card["tier"])].append((card.get("name"), _copies(card, where), where))
    for tier, cards in enumerate(by_tier):
        for name, copies, where in cards:
            add(name, KIND_DIM_SUM, tier, tier_points[tier], copies, where)
    for i, tea in enumerate(deck["teas"]):
        where = f"teas[{i}]"
        _require(isinstance(tea, Mapping), f"{where} must be a dict")
        mult = tea.get("multiplier")
        _require(isinstance(mult, int) and not isinstance(mult, bool) and 1 <= mult <= 9,
                 f"{where} ({tea.get('name')!r}): a tea needs a 'multiplier', an int in [1, 9], got {mult!r}")
        check_provenance(tea, f"yum_cha deck {where}")
        add(tea.get("name"), KIND_TEA, -1, mult, _copies(tea, where), where)
    takeaway = deck.get("takeaway", {"copies": 0, "provenance": "default"})
    _require(isinstance(takeaway, Mapping), "'takeaway' must be a dict with 'copies'")
    check_provenance(takeaway, "yum_cha deck takeaway")
    add("Takeaway", KIND_TAKEAWAY, -1, 0, _copies(takeaway, "takeaway"), "takeaway")

    _require(len(types) <= MAX_TYPES, f"at most {MAX_TYPES} card types, got {len(types)}")
    total = sum(t.copies for t in types)
    needed = players * HAND_SIZE + 1
    _require(total >= needed,
             f"{total} cards is too few: {players} players need {players * HAND_SIZE} for the deal "
             f"and one to draw ({needed})")
    _require(total <= 255, f"at most 255 cards, got {total}")
    return tuple(tier_names), tuple(tier_points), tuple(types)


# ---------------------------------------------------------------------------------------------
# Config

def _action_names(types: Tuple[CardType, ...]) -> List[str]:
    return (["draw from the deck"]
            + [f"take {t.name} from the centre" for t in types]
            + [f"discard {t.name}" for t in types]
            + ["declare Yum Cha"])


def _chance_names(types: Tuple[CardType, ...], players: int) -> List[str]:
    """The chance outcomes (explicit chance): card types [0, T) "draw <card>" (a card of the deal
    or of a draw from the deck), then seats [T, T + players) "seat N starts" (round 1's starter)."""
    return [f"draw {t.name}" for t in types] + [f"seat {p} starts" for p in range(players)]


def _max_round_points(tier_points: Tuple[int, ...], types: Tuple[CardType, ...]) -> int:
    best_tier = max(tier_points)
    best_tea = max((t.value for t in types if t.kind == KIND_TEA), default=1)
    return 3 * best_tier * max(best_tea, 1)


def make_config(**options: Any) -> Config:
    opts = resolve_options(NAME, OPTIONS, options)
    players = opts["players"]
    check_seat_option(NAME, "first_player", opts["first_player"], players)
    deck = opts["deck"] if opts["deck"] is not None else load_data(NAME)
    tier_names, tier_points, types = parse_deck(deck, players)
    if opts["deck"] is not None:
        opts["deck"] = copy.deepcopy(opts["deck"])  # the config owns its data
    rounds = opts["rounds"]
    per_round = _max_round_points(tier_points, types)
    if opts["reward"] == "win_share":
        lo, hi = 0.0, 1.0
    else:
        lo, hi = 0.0, float(rounds * per_round)
    return Config(
        players=players, options=opts, tier_names=tier_names, tier_points=tier_points, types=types,
        action_space=ActionSpace(_action_names(types)),
        chance_space=ActionSpace(_chance_names(types, players)),
        min_return=lo, max_return=hi)


# ---------------------------------------------------------------------------------------------
# Names for the observation's entries (state.observation_string): seats are relative, my seat
# first ("me", then "seat+1", the next seat to my left, ...), as the observation orders them.

def _relative_seats(players: int) -> List[str]:
    return ["me"] + [f"seat+{k}" for k in range(1, players)]


def observation_labels(cfg: Config) -> Dict[str, List[str]]:
    cards = list(cfg.type_names)
    seats = _relative_seats(cfg.players)
    return {
        "hand": cards,
        "centre": cards,
        "known": [f"{seat} {card}" for seat in seats[1:] for card in cards],
        "hand_sizes": seats,
        "scores": seats,
        "round": [f"round {r + 1}" for r in range(cfg.options["rounds"])],
        "phase": ["draw", "discard or declare"],
        "current_player": seats,
        "last_taken": cards,
    }


# ---------------------------------------------------------------------------------------------
# A readable picture of a state, from its to_dict()

def _cards(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{n} x{c}" if c > 1 else n for n, c in counts.items()) or "-"


def _to_act(d: Mapping[str, Any]) -> str:
    if d["phase"] == "over":
        return ""
    if d["current_player"] == -2:  # a chance node (explicit chance)
        pending = {"starter_draw": "round 1's starter", "deal": "the next card of the deal",
                   "deck_draw": f"seat {d.get('drawer')}'s card from the deck"}[d["phase"]]
        return f", chance to draw {pending}"
    return f", seat {d['current_player']} to act"


def render(d: Mapping[str, Any]) -> str:
    lines = [f"Yum Cha, round {d['round'] + 1}, turn {d['turn']}, phase {d['phase']}" + _to_act(d)]
    lines.append(f"deck: {sum(d['deck'].values())} cards   centre: {_cards(d['centre'])}")
    for p, hand in enumerate(d["hands"]):
        lines.append(f"seat {p} ({d['scores'][p]} pts): {_cards(hand)}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# The C++ core's view: its config fields by name (src/dimsum_core/yum_cha/schema.cpp), and the
# readable dict of its state fields (state_dict.py)

def config_values(cfg: Config) -> Dict[str, Any]:
    o = cfg.options
    return {
        "players": cfg.players, "rounds": o["rounds"],
        "first_player": -1 if o["first_player"] is None else o["first_player"],
        "auto_declare": int(o["auto_declare"]), "forbid_immediate_return": int(o["forbid_immediate_return"]),
        "deck_out": DECK_OUT.index(o["deck_out"]), "max_turns": o["max_turns_per_round"],
        "tie_break": TIE_BREAK.index(o["tie_break"]), "reward": REWARD.index(o["reward"]),
        "tier_points": list(cfg.tier_points),
        "card_types": [[t.kind, max(t.tier, 0), t.value, t.copies] for t in cfg.types],
    }


def dict_from_fields(cfg: Config, fields: Mapping[str, Any]) -> Dict[str, Any]:
    from .state_dict import CODEC

    return CODEC.to_dict(cfg, fields)


def fields_from_dict(cfg: Config, d: Mapping[str, Any]) -> Dict[str, Any]:
    from .state_dict import CODEC

    return CODEC.from_dict(cfg, d)
