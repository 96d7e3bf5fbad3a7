"""Dim Sum Jam: the spec shared by the C++ core glue and the pure-Python reference.

No rules logic lives here: only the named rule options (every RESEARCH.md ruling, every
achievement, the Reverse-token variant and the tick clock), the validated component data and
its facts (``Config.vip_mask``, ``card_by_number``, ...), the fixed action space with readable
names and ``render``. The core declares the observation layout (``game.observation_layout``).
See docs/rules/dim_sum_jam.md for what each option does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Dict, List, Mapping, Tuple

from ..._common import ActionSpace, GameConfig, GameInfo, Option, check_provenance, load_data, resolve_options

NAME = "dim_sum_jam"
# Played as a team (rulebook, "Object of the game"); only the future draws are hidden.
INFO = GameInfo(title="Dim Sum Jam", information="perfect", utility="cooperative",
                arena_options={"players": 2}, picture=({"players": 4}, 7, 14))

# ---------------------------------------------------------------------------------------------
# Fixed component facts (the data file states them with provenance; the engine is built for them)

NUM_TYPES = 7
NUMBERS_PER_TYPE = 7
NUM_TOKENS = NUM_TYPES * NUMBERS_PER_TYPE  # token id = type * 7 + (number - 1)
NUM_TABLES = 7
MAX_ICONS = 7          # icons on one order card (data may use 1..7, repeats allowed)
MAX_CARDS = 64         # order cards in a data set (a card set fits in a 64-bit mask)
TEA = NUM_TOKENS       # the slot value of an exotic tea lying on an order card
EMPTY = -1             # the slot value of an empty icon
MAX_TICKS_PER_CALL = 1_000_000  # larger tick charges are rejected as absurd
MAX_CAPACITY = 1_000_000        # the largest glass (ticks); same as reference.tick_clock.MAX_CAPACITY

PHASES = ("play", "reward", "timeout_discard", "stuck_discard", "stand", "over")
OUTCOMES = ("win", "deck_out", "complaints")
"""Ending (a) the last VIP fulfilled; (b) the deck is empty when a table needs a card while a VIP is
unfulfilled; (c) the complaint limit is reached."""

_DATA = load_data(NAME)
CONSTANTS: Dict[str, int] = {c["name"]: c["value"] for c in _DATA["constants"]}
TYPE_CODES: Tuple[str, ...] = tuple(t["code"] for t in _DATA["token_types"])
TYPE_NAMES: Tuple[str, ...] = tuple(t["name"] for t in _DATA["token_types"])
TOKEN_CODES: Tuple[str, ...] = tuple(f"{TYPE_CODES[t // 7]}{t % 7 + 1}" for t in range(NUM_TOKENS))
TOKEN_NAMES: Tuple[str, ...] = tuple(f"{TYPE_NAMES[t // 7]} {t % 7 + 1}" for t in range(NUM_TOKENS))
TOKEN_BY_CODE: Dict[str, int] = {c: t for t, c in enumerate(TOKEN_CODES)}

# ---------------------------------------------------------------------------------------------
# Actions: one fixed space for every config (448 actions)

A_PLAY = 0                                   # + token * 7 + (table - 1): "play Shumai 3 on table 5"
A_TEA = A_PLAY + NUM_TOKENS * NUM_TABLES     # + (table - 1) * 7 + type: "tea on table 2 Egg Tarts"
A_FLIP = A_TEA + NUM_TABLES * NUM_TYPES      # "flip the glass"
A_TAKE_TEA = A_FLIP + 1                      # "take exotic tea"
A_REVERSE = A_TAKE_TEA + 1                   # "flip the reverse token" (variant, team_once)
A_DISCARD = A_REVERSE + 1                    # + token: "discard Xiaolongbao 6"
A_DONE = A_DISCARD + NUM_TOKENS              # "done discarding"
A_STAND_SAME = A_DONE + 1                    # "stand the glass: same side up"
A_STAND_TURNED = A_STAND_SAME + 1            # "stand the glass: other side up"
A_CANNOT_SERVE = A_STAND_TURNED + 1          # "cannot serve: lay the glass down" (DSJ-7)
NUM_ACTIONS = A_CANNOT_SERVE + 1


def _action_names() -> List[str]:
    names = [f"play {TOKEN_NAMES[t]} on table {k + 1}" for t in range(NUM_TOKENS) for k in range(NUM_TABLES)]
    names += [f"tea on table {k + 1} {TYPE_NAMES[y]}" for k in range(NUM_TABLES) for y in range(NUM_TYPES)]
    names += ["flip the glass", "take exotic tea", "flip the reverse token"]
    names += [f"discard {TOKEN_NAMES[t]}" for t in range(NUM_TOKENS)]
    names += ["done discarding", "stand the glass: same side up", "stand the glass: other side up",
              "cannot serve: lay the glass down"]
    assert len(names) == NUM_ACTIONS
    return names


ACTION_SPACE = ActionSpace(_action_names())

# ---------------------------------------------------------------------------------------------
# Chance outcomes (a game made with chance="explicit" stops at each random event): one fixed
# range per config, tokens [0, 49), cards [49, 49 + cards), the two backs of the set-up shuffle,
# then the seats. The core's ids are the same (dim_sum_jam/engine.hpp, chance_token ..).

CHANCE_EVENTS = ("setup_shuffle", "setup_card", "setup_seat", "setup_deal", "card", "draw", "refill")
"""The pending event (state field ``chance`` = index + 1; 0 none): the set-up's shuffle of the top
section's backs (one node per position), its seven table cards, the start player and the deal; in
play the card turned up after a fulfilment, the draw after a play or a reward, and each token of
a replenish after discarding."""

C_TOKEN = 0                    # + token: "draw Shumai 3"
C_CARD = C_TOKEN + NUM_TOKENS  # + card id: "turn up card 12"


def chance_back(num_cards: int, vip: bool) -> int:
    """The outcome id of a shuffled back: "shuffle a regular back" / "shuffle a VIP back"."""
    return C_CARD + num_cards + int(vip)


def chance_seat(num_cards: int, seat: int) -> int:
    """The outcome id of the start player: "seat 2 starts"."""
    return C_CARD + num_cards + 2 + seat


def _chance_space(cards: Tuple["Card", ...], players: int) -> ActionSpace:
    names = [f"draw {TOKEN_NAMES[t]}" for t in range(NUM_TOKENS)]
    names += [f"turn up card {card.number}" for card in cards]
    names += ["shuffle a regular back", "shuffle a VIP back"]
    names += [f"seat {p} starts" for p in range(players)]
    assert len(names) == chance_seat(len(cards), players)
    return ActionSpace(names)

# ---------------------------------------------------------------------------------------------
# Options

ACHIEVEMENTS: Dict[str, Dict[str, Any]] = {
    "copper-1": {"single_hand": True},
    "copper-2": {"extra_vips": 1},
    "copper-3": {"tea_supply": 1},
    "copper-4": {"hand_limit": 4},
    "silver-1": {"tea_supply": 0},
    "silver-2": {"play_next_hand": True},
    "silver-3": {"extra_vips": 2},
    "silver-4": {"random_table_order": True},
    "gold-1": {"eyes_closed": True},
    "gold-2": {"complaint_limit": 1},
    "gold-3": {"no_talking": True},
    "gold-4": {"extra_vips": 3},
}
"""Each rulebook achievement as the individual options behind it (RESEARCH.md DSJ-20)."""

NO_RULES_EFFECT = ("single_hand", "random_table_order", "eyes_closed", "no_talking")

_TICKS_PER_SECOND = 10
_GLASS_TICKS = CONSTANTS["hourglass_seconds"] * _TICKS_PER_SECOND

OPTIONS: Dict[str, Option] = {o.name: o for o in (
    Option("players", 4, "number of players (2-5 on the box, DSJ-21)", kind=int, minimum=2, maximum=5,
           ruling="DSJ-21"),
    Option("achievement", None, "play under a rulebook achievement; sets the options behind it",
           choices=tuple(ACHIEVEMENTS), allow_none=True, ruling="DSJ-20"),
    Option("single_hand", False, "copper-1: everyone plays with one hand (no rules effect)", kind=bool,
           ruling="DSJ-20"),
    Option("extra_vips", 0, "copper-2 / silver-3 / gold-4: extra VIP cards shuffled into the top section",
           kind=int, minimum=0, maximum=MAX_CARDS, ruling="DSJ-14, DSJ-20"),
    Option("tea_supply", CONSTANTS["exotic_tea"], "exotic tea tokens in the game (copper-3: 1, silver-1: 0)",
           kind=int, minimum=0, maximum=CONSTANTS["exotic_tea"], ruling="DSJ-20"),
    Option("hand_limit", CONSTANTS["hand_size"], "tokens dealt and refilled to (copper-4: 4)", kind=int,
           minimum=1, maximum=7, ruling="DSJ-20"),
    Option("play_next_hand", False, "silver-2: each player plays, draws and discards with the next "
           "player's (clockwise) tokens", kind=bool, ruling="DSJ-20"),
    Option("random_table_order", False, "silver-4: tables laid out in random order (display only; "
           "table numbers and rules unchanged)", kind=bool, ruling="DSJ-20"),
    Option("eyes_closed", False, "gold-1: one player plays with eyes closed (no rules effect)", kind=bool,
           ruling="DSJ-20"),
    Option("complaint_limit", CONSTANTS["complaint_tokens"], "complaints that lose (gold-2: 1)", kind=int,
           minimum=1, maximum=CONSTANTS["complaint_tokens"], ruling="DSJ-20"),
    Option("no_talking", False, "gold-3: no verbal discussion (no rules effect)", kind=bool, ruling="DSJ-20"),
    Option("reverse_variant", False, "play the Changing Turn Order variant with the Reverse token "
           "(a reconstruction: the printed rule is missing)", kind=bool, ruling="RESEARCH 1.2 Reverse token"),
    Option("reverse_trigger", "on_fulfil", "what reverses the direction of play in the variant",
           choices=("on_fulfil", "on_self_table", "team_once"), ruling="RESEARCH 1.2 Reverse token"),
    Option("ticks_per_second", _TICKS_PER_SECOND, "clock resolution (display only)", kind=int, minimum=1,
           maximum=1000, ruling="ARCHITECTURE 4"),
    Option("glass_ticks", _GLASS_TICKS, "ticks in a full hourglass (120 s at 10 ticks a second)", kind=int,
           minimum=1, maximum=MAX_CAPACITY, ruling="ARCHITECTURE 4"),
    Option("ticks_per_action", 50, "ticks a play costs when apply() is given no ticks; 0 turns time off",
           kind=int, minimum=0, maximum=MAX_CAPACITY, ruling="ARCHITECTURE 4"),
    Option("ticks_per_team_decision", 0, "ticks the flip-or-tea decision costs (the glass runs, DSJ-4)",
           kind=int, minimum=0, maximum=MAX_CAPACITY, ruling="DSJ-4"),
    Option("flip_model", "physical", "flipping leaves capacity - top (physical) or a full glass (full)",
           choices=("physical", "full"), ruling="DSJ-1"),
    Option("stand_side", "choose", "after the stuck rule the player chooses the side (choose) or the "
           "glass goes back as it lay (same_side_up)", choices=("choose", "same_side_up"), ruling="DSJ-3"),
    Option("timeout_discard", "all_players", "who may discard and replenish after a time-out",
           choices=("all_players", "active_player"), ruling="DSJ-5"),
    Option("timeout_resume", "keep_table", "after a time-out the active player keeps the required table "
           "(keep_table) or plays anywhere (free_play)", choices=("keep_table", "free_play"), ruling="DSJ-6"),
    Option("decline_tea", True, "a player whose only plays are teas may take the stuck rule instead",
           kind=bool, ruling="DSJ-7"),
    Option("max_free_redraws", 3, "termination guard: free redraws of a stuck player before the turn "
           "passes", kind=int, minimum=0, maximum=10, ruling="DSJ-9"),
    Option("opening_free", "first_turn", "free placement for the first turn of the game (first_turn) or "
           "for every player's first turn (first_round)", choices=("first_turn", "first_round"),
           ruling="DSJ-10"),
    Option("draw_after_tea", False, "the player draws a token after playing an exotic tea", kind=bool,
           ruling="DSJ-11"),
    Option("cards", None, "order card faces in the data-file format (list of card dicts); None = packaged",
           kind=list, allow_none=True, ruling="RESEARCH 1.2 card faces"),
    Option("interrupted_reward", "reward_first", "a time-out that interrupts the team's reward decision: the "
           "reward is chosen before the time-out's flip, one complaint (reward_first), or after it, when a forced "
           "flip empties the refilled glass for a second complaint (timeout_first)",
           choices=("reward_first", "timeout_first"), ruling="DSJ-22"),
)}

# ---------------------------------------------------------------------------------------------
# Card data


@dataclass(frozen=True)
class Card:
    number: int
    vip: bool
    icons: Tuple[int, ...]   # token type per icon space
    provenance: str
    source: str


def validate_cards(cards: Any) -> Tuple[Card, ...]:
    """Order cards in the data-file format, validated, sorted by number (card id = position)."""
    if not isinstance(cards, list):
        raise TypeError(f"cards must be a list of card dicts, got {type(cards).__name__}")
    if not 1 <= len(cards) <= MAX_CARDS:
        raise ValueError(f"cards must hold 1 to {MAX_CARDS} cards, got {len(cards)}")
    out, numbers = [], set()
    for i, c in enumerate(cards):
        where = f"cards[{i}]"
        if not isinstance(c, Mapping):
            raise TypeError(f"{where} must be a dict, got {type(c).__name__}")
        missing = {"number", "kind", "icons", "provenance", "source"} - set(c)
        if missing:
            raise ValueError(f"{where} is missing {sorted(missing)}")
        extra = set(c) - {"number", "kind", "icons", "provenance", "source"}
        if extra:
            raise ValueError(f"{where} has unknown keys {sorted(extra)}")
        n = c["number"]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 999:
            raise ValueError(f"{where}.number must be an int in [1, 999], got {n!r}")
        if n in numbers:
            raise ValueError(f"{where}.number {n} is used twice")
        numbers.add(n)
        if c["kind"] not in ("regular", "vip"):
            raise ValueError(f"{where}.kind must be 'regular' or 'vip', got {c['kind']!r}")
        icons = c["icons"]
        if not isinstance(icons, list) or not 1 <= len(icons) <= MAX_ICONS:
            raise ValueError(f"{where}.icons must be a list of 1 to {MAX_ICONS} type codes, got {icons!r}")
        for icon in icons:
            if icon not in TYPE_CODES:
                raise ValueError(f"{where}.icons: {icon!r} is not a type code; codes are {list(TYPE_CODES)}")
        check_provenance(c, where)
        if not isinstance(c["source"], str):
            raise TypeError(f"{where}.source must be a str")
        out.append(Card(n, c["kind"] == "vip", tuple(TYPE_CODES.index(x) for x in icons),
                        c["provenance"], c["source"]))
    return tuple(sorted(out, key=lambda card: card.number))


def card_dicts(cards: Tuple[Card, ...]) -> List[Dict[str, Any]]:
    return [{"number": c.number, "kind": "vip" if c.vip else "regular",
             "icons": [TYPE_CODES[y] for y in c.icons], "provenance": c.provenance, "source": c.source}
            for c in cards]


def _check_data_file(data: Mapping[str, Any]) -> None:
    for key in ("token_types", "tokens", "tables", "constants"):
        for i, entry in enumerate(data[key]):
            check_provenance(entry, f"{NAME}.json {key}[{i}]")
    if len(data["tokens"]) != NUM_TOKENS or len(data["tables"]) != NUM_TABLES:
        raise ValueError(f"{NAME}.json must list {NUM_TOKENS} tokens and {NUM_TABLES} tables")


_check_data_file(_DATA)
DEFAULT_CARDS = validate_cards(_DATA["cards"])

# ---------------------------------------------------------------------------------------------
# Config


@dataclass(frozen=True)
class Config(GameConfig):
    cards: Tuple[Card, ...]
    deck_length: int

    @property
    def time_on(self) -> bool:
        return self.options["ticks_per_action"] > 0

    # -- card facts (card id = position in ``cards``, sorted by number) -------------------------
    @cached_property
    def card_icons(self) -> Tuple[Tuple[int, ...], ...]:
        """The token type of each icon space, per card id."""
        return tuple(c.icons for c in self.cards)

    @cached_property
    def card_by_number(self) -> Dict[int, int]:
        """Card number (as printed) -> card id."""
        return {c.number: i for i, c in enumerate(self.cards)}

    @cached_property
    def vip_mask(self) -> int:
        return sum(1 << i for i, c in enumerate(self.cards) if c.vip)

    @cached_property
    def all_cards(self) -> int:
        return (1 << len(self.cards)) - 1

    @cached_property
    def regular_mask(self) -> int:
        return self.all_cards & ~self.vip_mask

    @property
    def top_section(self) -> int:
        """Cards in the deck's top section: the regular ones and the extra VIPs shuffled in."""
        return CONSTANTS["deck_top_regular"] + self.options["extra_vips"]


def _apply_achievement(given: Mapping[str, Any], resolved: Dict[str, Any]) -> None:
    name = resolved["achievement"]
    if name is None:
        return
    for key, value in ACHIEVEMENTS[name].items():
        if key in given and given[key] != value:
            raise ValueError(f"{NAME} option {key!r}={given[key]!r} contradicts achievement {name!r}, "
                             f"which sets {key}={value!r}")
        resolved[key] = value


def make_config(**given: Any) -> Config:
    options = resolve_options(NAME, OPTIONS, given)
    _apply_achievement(given, options)
    cards = DEFAULT_CARDS if options["cards"] is None else validate_cards(options["cards"])
    options["cards"] = None if options["cards"] is None else card_dicts(cards)
    regular = sum(not c.vip for c in cards)
    vips = len(cards) - regular
    need_regular = CONSTANTS["deck_top_regular"] + CONSTANTS["deck_bottom_regular"]
    if regular < need_regular:
        raise ValueError(f"{NAME} option 'cards' needs at least {need_regular} regular cards, got {regular}")
    if vips < CONSTANTS["deck_vips"] + options["extra_vips"]:
        raise ValueError(f"{NAME} option 'extra_vips'={options['extra_vips']} needs "
                         f"{CONSTANTS['deck_vips'] + options['extra_vips']} VIP cards, the cards have {vips}")
    if options["ticks_per_action"] > options["glass_ticks"]:
        raise ValueError(f"{NAME} option 'ticks_per_action' must be at most glass_ticks "
                         f"({options['glass_ticks']}), got {options['ticks_per_action']}")
    deck_length = need_regular + CONSTANTS["deck_vips"] + options["extra_vips"]
    return Config(players=options["players"], options=options, cards=cards, deck_length=deck_length,
                  action_space=ACTION_SPACE, min_return=0.0, max_return=1.0,
                  chance_space=_chance_space(cards, options["players"]))


# ---------------------------------------------------------------------------------------------
# render


def _slot_text(slot: Any, icon: str) -> str:
    if slot is None:
        return f"({icon}?)"   # an empty icon space
    return "[tea ]" if slot == "tea" else f"[{slot:4s}]"


def render(d: Dict[str, Any]) -> str:
    """A readable multi-line picture of a state given its to_dict()."""
    clock = d["clock"]
    glass = "lying down" if clock["lying"] else "standing"
    lines = [f"Dim Sum Jam  phase={d['phase']}  active=P{d['active']}  "
             f"direction={'clockwise' if d['direction'] == 1 else 'counter-clockwise'}"
             + (f"  outcome={d['outcome']}" if d["outcome"] else "")]
    lines.append(f"glass {glass}: {clock['top']}/{clock['capacity']} ticks in the top  |  complaints "
                 f"{d['complaints']}  |  tea: supply {d['tea_supply']}, reception {d['tea_reception']}")
    req = d["required_table"]
    lines.append(f"next play: {'any table' if req == 0 else f'table {req}'}  |  deck (top first): "
                 f"{d['deck'] or '(empty)'}")
    for k, table in enumerate(d["tables"]):
        if table["card"] is None:
            lines.append(f"  table {k + 1}: (no card)")
            continue
        lines.append(f"  table {k + 1}: card {table['card']:>2} "
                     + " ".join(_slot_text(s, i) for s, i in zip(table["slots"], table["icons"])))
    for p, hand in enumerate(d["hands"]):
        mark = "*" if p == d["active"] else " "
        lines.append(f" {mark}P{p}: {' '.join(hand) or '(no tokens)'}")
    lines.append(f"bag {len(d['bag'])} tokens, discard pile {len(d['discard'])}: {' '.join(d['discard'])}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# The C++ core's view: the config fields by name (src/dimsum_core/dim_sum_jam/schema.cpp)

from .ending import ending, observation_labels  # noqa: E402,F401  (ending.py uses the names above)


def config_values(cfg: Config) -> Dict[str, Any]:
    o = cfg.options
    return {
        "players": cfg.players, "hand_limit": o["hand_limit"], "tea_supply": o["tea_supply"],
        "complaint_limit": o["complaint_limit"], "extra_vips": o["extra_vips"],
        "play_next_hand": int(o["play_next_hand"]), "reverse_variant": int(o["reverse_variant"]),
        "reverse_trigger": ("on_fulfil", "on_self_table", "team_once").index(o["reverse_trigger"]),
        "glass_ticks": o["glass_ticks"], "ticks_per_action": o["ticks_per_action"],
        "ticks_per_team_decision": o["ticks_per_team_decision"],
        "flip_full": int(o["flip_model"] == "full"), "stand_same_only": int(o["stand_side"] == "same_side_up"),
        "timeout_all_players": int(o["timeout_discard"] == "all_players"),
        "resume_free_play": int(o["timeout_resume"] == "free_play"), "decline_tea": int(o["decline_tea"]),
        "max_free_redraws": o["max_free_redraws"], "opening_first_round": int(o["opening_free"] == "first_round"),
        "draw_after_tea": int(o["draw_after_tea"]), "deck_top_regular": CONSTANTS["deck_top_regular"],
        "deck_vips": CONSTANTS["deck_vips"], "deck_bottom_regular": CONSTANTS["deck_bottom_regular"],
        "cards": [[int(card.vip), len(card.icons), *card.icons, *[-1] * (MAX_ICONS - len(card.icons))]
                  for card in cfg.cards],
        "timeout_flips_first": int(o["interrupted_reward"] == "timeout_first"),
    }


def dict_from_fields(cfg: Config, fields: Mapping[str, Any]) -> Dict[str, Any]:
    from .state_dict import CODEC

    return CODEC.to_dict(cfg, fields)


def fields_from_dict(cfg: Config, d: Mapping[str, Any]) -> Dict[str, Any]:
    from .state_dict import CODEC

    return CODEC.from_dict(cfg, d)

