"""The readable dict form of a Dim Sum Jam state, shared by the core and the reference engine.

Both engines keep the same *fields* (the reference State's attributes: token masks, table
cards and slots, the deck's backs, the clock, ...); this module turns fields into the canonical
dict and back, validating everything on the way in (conservation of tokens, teas and cards,
phase consistency) so that ``state_from_dict`` rejects a bad position with a message naming
the field, and into the flat ints the C++ core exports and imports
(src/dimsum_core/dim_sum_jam/io.cpp).
"""

from __future__ import annotations

import functools
from typing import Any, Dict, List, Mapping, Tuple

from ..._common import check_int, set_bits
from ...reference.rng import MASK64
from ...reference.tick_clock import TickClock
from .. import dim_sum_jam as spec
from ..dim_sum_jam import EMPTY, NUM_TABLES, NUM_TOKENS, OUTCOMES, PHASES, TEA, TOKEN_BY_CODE, TOKEN_CODES

KEYS = ("game", "players", "phase", "active", "direction", "discarder", "resume", "required_table",
        "opening_free_turns", "stuck_complained", "free_redraws", "draw_pending", "hands", "bag",
        "discard", "tables", "deck", "cards_out", "tea_supply", "tea_reception", "complaints",
        "reverse_used", "clock", "outcome", "rng")

FIELDS = ("phase", "active", "direction", "discarder", "resume", "required", "opening_left", "case3",
          "redraws", "draw_pending", "hands", "bag", "discard", "table_card", "slots", "deck", "out",
          "tea_supply", "tea_reception", "complaints", "reverse_used", "clock", "outcome", "rng")
"""The state's fields (the reference State's attribute names)."""

_TIMED_PHASES = ("play", "reward")


class CardInfo:
    """What the rules need to know about a config's cards, as masks and tuples."""

    def __init__(self, cards: Tuple[spec.Card, ...]) -> None:
        self.icons: Tuple[Tuple[int, ...], ...] = tuple(c.icons for c in cards)
        self.numbers: Tuple[int, ...] = tuple(c.number for c in cards)
        self.by_number: Dict[int, int] = {c.number: i for i, c in enumerate(cards)}
        self.vip_mask = sum(1 << i for i, c in enumerate(cards) if c.vip)
        self.all_cards = (1 << len(cards)) - 1
        self.regular_mask = self.all_cards & ~self.vip_mask


@functools.lru_cache(maxsize=64)
def card_info(cards: Tuple[spec.Card, ...]) -> CardInfo:
    return CardInfo(cards)


# ---------------------------------------------------------------------------------------------
# Fields -> dict

def state_to_dict(cfg: spec.Config, f: Any) -> Dict[str, Any]:
    """The canonical dict of a state given an object with the FIELDS as attributes."""
    info = card_info(cfg.cards)
    tables = []
    for k in range(NUM_TABLES):
        card = f.table_card[k]
        if card < 0:
            tables.append({"card": None, "icons": [], "slots": []})
            continue
        tables.append({"card": info.numbers[card],
                       "icons": [spec.TYPE_CODES[y] for y in info.icons[card]],
                       "slots": [None if s == EMPTY else "tea" if s == TEA else TOKEN_CODES[s]
                                 for s in f.slots[k][:len(info.icons[card])]]})
    codes = lambda mask: [TOKEN_CODES[t] for t in set_bits(mask)]  # noqa: E731
    rng = f.rng
    return {
        "game": spec.NAME,
        "players": cfg.players,
        "phase": f.phase,
        "active": f.active,
        "direction": f.direction,
        "discarder": None if f.discarder < 0 else f.discarder,
        "resume": f.resume or None,
        "required_table": f.required,
        "opening_free_turns": f.opening_left,
        "stuck_complained": f.case3,
        "free_redraws": f.redraws,
        "draw_pending": f.draw_pending,
        "hands": [codes(h) for h in f.hands],
        "bag": codes(f.bag),
        "discard": codes(f.discard),
        "tables": tables,
        "deck": f.deck,
        "cards_out": [info.numbers[c] for c in set_bits(f.out)],
        "tea_supply": f.tea_supply,
        "tea_reception": f.tea_reception,
        "complaints": f.complaints,
        "reverse_used": f.reverse_used,
        "clock": f.clock.to_dict(),
        "outcome": f.outcome,
        "rng": list(rng.state()) if hasattr(rng, "state") else list(rng),
    }


# ---------------------------------------------------------------------------------------------
# Dict -> validated fields

def _need(cond: bool, msg: str) -> None:
    if not cond:
        raise ValueError(msg)


def _bool(d: Mapping[str, Any], key: str) -> bool:
    if not isinstance(d[key], bool):
        raise TypeError(f"{key} must be True or False, got {d[key]!r}")
    return d[key]


def _tokens(value: Any, where: str, seen: Dict[int, str]) -> int:
    """A list of token codes as a mask; every token may appear in one place only."""
    if not isinstance(value, list):
        raise TypeError(f"{where} must be a list of token codes, got {type(value).__name__}")
    mask = 0
    for code in value:
        if not isinstance(code, str) or code not in TOKEN_BY_CODE:
            raise ValueError(f"{where}: {code!r:.40} is not a token code (like 'SHM3')")
        t = TOKEN_BY_CODE[code]
        _need(t not in seen, f"{where}: token {code} is also in {seen.get(t)}")
        seen[t] = where
        mask |= 1 << t
    return mask


def _is_card_number(info: CardInfo, value: Any) -> bool:
    return type(value) is int and value in info.by_number  # not True for card 1


class Fields:
    """The FIELDS of one state as attributes (what state_to_dict and the checks read)."""

    def __init__(self, cfg: spec.Config, **values: Any) -> None:
        self.cfg = cfg
        self.__dict__.update(values)


def state_fields_from_dict(cfg: spec.Config, d: Any) -> Dict[str, Any]:
    """Validated FIELDS from a dict; ValueError/TypeError names the first bad field."""
    if not isinstance(d, Mapping):
        raise TypeError(f"a dim_sum_jam state dict is a dict, got {type(d).__name__}")
    o = cfg.options
    n = cfg.players
    info = card_info(cfg.cards)
    missing = [k for k in KEYS if k not in d]
    _need(not missing, f"dim_sum_jam state dict: missing keys {missing}")
    extra = sorted(str(k) for k in set(d) - set(KEYS))
    _need(not extra, f"state dict has unknown keys {extra}")
    _need(d["game"] == spec.NAME, f"game must be {spec.NAME!r}, got {d['game']!r:.40}")
    _need(check_int(d["players"], "players") == n, f"players must be {n} for this game, got {d['players']}")
    f: Dict[str, Any] = {}
    _need(isinstance(d["phase"], str) and d["phase"] in PHASES,
          f"phase must be one of {list(PHASES)}, got {d['phase']!r:.40}")
    f["phase"] = d["phase"]
    f["active"] = check_int(d["active"], "active", 0, n - 1)
    _need(d["direction"] in (1, -1) and type(d["direction"]) is int,
          f"direction must be 1 or -1, got {d['direction']!r:.40}")
    f["direction"] = d["direction"]
    if not o["reverse_variant"]:
        _need(f["direction"] == 1, "direction must be 1 without the reverse variant")
    f["discarder"] = -1 if d["discarder"] is None else check_int(d["discarder"], "discarder", 0, n - 1)
    _need(d["resume"] is None or (isinstance(d["resume"], str) and d["resume"] in ("play", "reward")),
          f"resume must be null, 'play' or 'reward', got {d['resume']!r:.40}")
    f["resume"] = d["resume"] or ""
    f["required"] = check_int(d["required_table"], "required_table", 0, NUM_TABLES)
    f["opening_left"] = check_int(d["opening_free_turns"], "opening_free_turns", 0, n - 1)
    f["case3"] = _bool(d, "stuck_complained")
    f["redraws"] = check_int(d["free_redraws"], "free_redraws", 0, o["max_free_redraws"])
    f["draw_pending"] = _bool(d, "draw_pending")
    f["reverse_used"] = _bool(d, "reverse_used")
    # tokens: every one of the 49 in exactly one place
    seen: Dict[int, str] = {}
    if not isinstance(d["hands"], list) or len(d["hands"]) != n:
        raise ValueError(f"hands must be a list of {n} lists")
    f["hands"] = [_tokens(h, f"hands[{p}]", seen) for p, h in enumerate(d["hands"])]
    for p, h in enumerate(f["hands"]):
        _need(h.bit_count() <= o["hand_limit"], f"hands[{p}] holds {h.bit_count()} tokens, "
              f"more than the hand limit {o['hand_limit']}")
    f["bag"] = _tokens(d["bag"], "bag", seen)
    f["discard"] = _tokens(d["discard"], "discard", seen)
    teas_on_cards = _read_tables(info, f, d["tables"], seen)
    _need(len(seen) == NUM_TOKENS, f"tokens missing from every place: "
          f"{[TOKEN_CODES[t] for t in range(NUM_TOKENS) if t not in seen]}")
    # the deck and the cards
    deck = d["deck"]
    if not isinstance(deck, str) or set(deck) - {"R", "V"} or len(deck) > spec.MAX_CARDS:
        raise ValueError(f"deck must be a string of 'R' and 'V' backs (top first), got {deck!r:.80}")
    f["deck"] = deck
    if not isinstance(d["cards_out"], list):
        raise TypeError("cards_out must be a list of card numbers")
    out = 0
    for number in d["cards_out"]:
        _need(_is_card_number(info, number), f"cards_out: {number!r:.40} is not a card number")
        c = info.by_number[number]
        _need(not out >> c & 1, f"cards_out: card {number} listed twice")
        _need(c not in f["table_card"], f"cards_out: card {number} is also on a table")
        out |= 1 << c
    f["out"] = out
    unseen = _unseen(info, f)
    _need(deck.count("R") <= (unseen & info.regular_mask).bit_count(),
          f"deck has {deck.count('R')} regular backs but only "
          f"{(unseen & info.regular_mask).bit_count()} regular cards are unseen")
    _need(deck.count("V") <= (unseen & info.vip_mask).bit_count(),
          f"deck has {deck.count('V')} VIP backs but only {(unseen & info.vip_mask).bit_count()} VIP cards are unseen")
    # teas: supply + reception + on cards = the game's teas
    f["tea_supply"] = check_int(d["tea_supply"], "tea_supply", 0, o["tea_supply"])
    f["tea_reception"] = check_int(d["tea_reception"], "tea_reception", 0, o["tea_supply"])
    _need(f["tea_supply"] + f["tea_reception"] + teas_on_cards == o["tea_supply"],
          f"teas: supply {f['tea_supply']} + reception {f['tea_reception']} + on cards {teas_on_cards} "
          f"must be {o['tea_supply']}")
    f["complaints"] = check_int(d["complaints"], "complaints", 0, o["complaint_limit"])
    f["clock"] = TickClock.from_dict(d["clock"], o["glass_ticks"])
    _need(d["outcome"] is None or (isinstance(d["outcome"], str) and d["outcome"] in OUTCOMES),
          f"outcome must be null or one of {list(OUTCOMES)}, got {d['outcome']!r:.40}")
    f["outcome"] = d["outcome"]
    rng = d["rng"]
    if (not isinstance(rng, list) or len(rng) != 4
            or any(isinstance(w, bool) or not isinstance(w, int) or not 0 <= w <= MASK64 for w in rng)):
        raise ValueError("rng must be a list of 4 integers in [0, 2**64)")
    _need(any(rng), "rng: an all-zero generator state never leaves zero")
    f["rng"] = [int(w) for w in rng]
    _check_phase(cfg, info, Fields(cfg, **f))
    return f


def _read_tables(info: CardInfo, f: Dict[str, Any], tables: Any, seen: Dict[int, str]) -> int:
    if not isinstance(tables, list) or len(tables) != NUM_TABLES:
        raise ValueError(f"tables must be a list of {NUM_TABLES} table dicts")
    teas = 0
    f["table_card"] = [-1] * NUM_TABLES
    f["slots"] = [[] for _ in range(NUM_TABLES)]
    for k, table in enumerate(tables):
        where = f"tables[{k}]"
        if not isinstance(table, dict) or set(table) != {"card", "icons", "slots"}:
            raise ValueError(f"{where} must be a dict with keys card, icons, slots")
        if table["card"] is None:
            _need(table["slots"] == [] and table["icons"] == [], f"{where}: a table with no card has no slots")
            continue
        _need(_is_card_number(info, table["card"]), f"{where}.card: {table['card']!r:.40} is not a card number")
        card = info.by_number[table["card"]]
        _need(card not in f["table_card"], f"{where}.card: card {table['card']} is on two tables")
        icons = info.icons[card]
        _need(table["icons"] == [spec.TYPE_CODES[y] for y in icons],
              f"{where}.icons must be the card's icons {[spec.TYPE_CODES[y] for y in icons]}")
        slots = table["slots"]
        _need(isinstance(slots, list) and len(slots) == len(icons),
              f"{where}.slots must be a list of {len(icons)} entries (null, 'tea' or a token code)")
        values = []
        for i, slot in enumerate(slots):
            if slot is None:
                values.append(EMPTY)
            elif slot == "tea":
                values.append(TEA)
                teas += 1
            else:
                t = TOKEN_BY_CODE.get(slot) if isinstance(slot, str) else None
                _need(t is not None, f"{where}.slots[{i}]: {slot!r:.40} is not null, 'tea' or a token code")
                _need(t // 7 == icons[i], f"{where}.slots[{i}]: {slot} does not match the icon "
                      f"{spec.TYPE_CODES[icons[i]]}")
                _tokens([slot], f"{where}.slots", seen)
                values.append(t)
        f["table_card"][k] = card
        f["slots"][k] = values
    return teas


# -- what the checks derive from the fields (the reference State computes the same for play) --

def _unseen(info: CardInfo, f: Any) -> int:
    table_card = f["table_card"] if isinstance(f, dict) else f.table_card
    out = f["out"] if isinstance(f, dict) else f.out
    on_tables = 0
    for c in table_card:
        if c >= 0:
            on_tables |= 1 << c
    return info.all_cards & ~on_tables & ~out


def _empty_types(info: CardInfo, f: Fields, k: int) -> int:
    card = f.table_card[k]
    if card < 0:
        return 0
    mask = 0
    for i, slot in enumerate(f.slots[k]):
        if slot == EMPTY:
            mask |= 1 << info.icons[card][i]
    return mask


def _can_play(cfg: spec.Config, info: CardInfo, f: Fields) -> bool:
    """The active player has a token play or a tea play on an allowed table."""
    hand_owner = (f.active + 1) % cfg.players if cfg.options["play_next_hand"] else f.active
    hand = f.hands[hand_owner]
    tables = range(NUM_TABLES) if f.required == 0 else range(f.required - 1, f.required)
    for k in tables:
        empty = _empty_types(info, f, k)
        if f.tea_reception and empty:
            return True
        if any(empty >> (t // 7) & 1 for t in set_bits(hand)):
            return True
    return False


def _vips_left(info: CardInfo, f: Fields, excluding_table: int) -> int:
    on_tables = sum(1 for j, c in enumerate(f.table_card)
                    if j != excluding_table and c >= 0 and info.vip_mask >> c & 1)
    return on_tables + f.deck.count("V")


def _check_phase(cfg: spec.Config, info: CardInfo, s: Fields) -> None:
    """Phase consistency: the fields a phase uses are set, the others are at rest."""
    o = cfg.options
    over = s.phase == "over"
    _need(over == (s.outcome is not None), "outcome must be set exactly when phase is 'over'")
    _need((s.phase == "timeout_discard") == (s.discarder >= 0), "discarder is set exactly in 'timeout_discard'")
    _need((s.phase == "timeout_discard") == bool(s.resume), "resume is set exactly in 'timeout_discard'")
    _need(not s.draw_pending or s.phase == "reward" or (s.phase == "timeout_discard" and s.resume == "reward"),
          "draw_pending is only set while the reward is undecided")
    lying_phases = ("stuck_discard", "stand")
    if not over:
        _need(s.clock.lying == (s.phase in lying_phases), "the glass lies down exactly in 'stuck_discard' and 'stand'")
        _need(s.complaints < o["complaint_limit"], "complaints must be below the limit while the game runs")
        _need(s.phase not in lying_phases or (s.case3 and s.required == 0),
              "the stuck rule needs stuck_complained true and required_table 0")
        _need(_vips_left(info, s, excluding_table=-1) > 0,
              "a running game needs an unfulfilled VIP on a table or in the deck")
        for k in range(NUM_TABLES):
            _need(s.table_card[k] >= 0, f"tables[{k}] has no card while the game runs")
            _need(EMPTY in s.slots[k], f"tables[{k}] is full: it would have been fulfilled")
        if cfg.time_on:
            if s.phase == "timeout_discard":
                _need(s.clock.top == 0, "a time-out needs an empty top")
            elif s.phase in _TIMED_PHASES:
                _need(s.clock.top > 0, "an empty standing glass in 'play' or 'reward' is an unresolved time-out")
        if s.phase == "play":
            _need(_can_play(cfg, info, s),
                  "phase 'play' but the active player cannot play: that is phase 'stuck_discard'")
    else:
        if s.outcome == "complaints":
            _need(s.complaints == o["complaint_limit"], "outcome 'complaints' needs complaints at the limit")
        else:
            _need(s.complaints < o["complaint_limit"], "complaints reached the limit: the outcome is 'complaints'")
        full = [k for k in range(NUM_TABLES) if s.table_card[k] >= 0 and EMPTY not in s.slots[k]]
        empty = [k for k in range(NUM_TABLES) if s.table_card[k] < 0]
        if s.outcome == "win":
            _need(len(full) == 1 and info.vip_mask >> s.table_card[full[0]] & 1 and not empty
                  and _vips_left(info, s, excluding_table=full[0]) == 0,
                  "outcome 'win' needs the last VIP fulfilled on its table and no other VIP left")
        elif s.outcome == "deck_out":
            _need(len(empty) == 1 and not full and s.deck == "",
                  "outcome 'deck_out' needs one table without a card, no full card and an empty deck")
        else:
            _need(not full and not empty, "a 'complaints' ending leaves every table with an unfinished card")


# ---------------------------------------------------------------------------------------------
# The flat int form the C++ core exports and imports (src/dimsum_core/dim_sum_jam/io.cpp):
# 21 scalars, 4 rng words, the hands, bag and discard masks, 7 table cards, 7 x 7 slots.

_RESUME = ("play", "reward")
_MAX_ICONS = spec.MAX_ICONS


def _int64(x: int) -> int:
    return x - (1 << 64) if x >= (1 << 63) else x


def _deck_vips(deck: str) -> int:
    return sum(1 << i for i, back in enumerate(deck) if back == "V")


def fields_to_ints(cfg: spec.Config, f: Mapping[str, Any]) -> List[int]:
    clock = f["clock"]
    v = [PHASES.index(f["phase"]), f["active"], f["direction"], f["discarder"],
         _RESUME.index(f["resume"]) if f["resume"] else -1, f["required"], f["opening_left"], int(f["case3"]),
         f["redraws"], int(f["draw_pending"]), f["tea_supply"], f["tea_reception"], f["complaints"],
         int(f["reverse_used"]), OUTCOMES.index(f["outcome"]) if f["outcome"] else -1, len(f["deck"]),
         _int64(_deck_vips(f["deck"])), _int64(f["out"]), clock.top, clock.capacity, int(clock.lying)]
    v += [_int64(w) for w in f["rng"]]
    v += list(f["hands"]) + [f["bag"], f["discard"]]
    v += list(f["table_card"])
    for k in range(NUM_TABLES):
        slots = list(f["slots"][k])
        v += slots + [EMPTY] * (_MAX_ICONS - len(slots))
    return v


def ints_to_fields(cfg: spec.Config, v: List[int]) -> Fields:
    n = cfg.players
    deck_len, deck_vips = v[15], v[16] & MASK64
    info = card_info(cfg.cards)
    at = 25 + n + 2
    table_card = list(v[at:at + NUM_TABLES])
    at += NUM_TABLES
    slots = []
    for k in range(NUM_TABLES):
        card = table_card[k]
        slots.append(list(v[at:at + len(info.icons[card])]) if card >= 0 else [])
        at += _MAX_ICONS
    return Fields(
        cfg, phase=PHASES[v[0]], active=v[1], direction=v[2], discarder=v[3],
        resume=_RESUME[v[4]] if v[4] >= 0 else "", required=v[5], opening_left=v[6], case3=bool(v[7]),
        redraws=v[8], draw_pending=bool(v[9]), tea_supply=v[10], tea_reception=v[11], complaints=v[12],
        reverse_used=bool(v[13]), outcome=OUTCOMES[v[14]] if v[14] >= 0 else None,
        deck="".join("V" if deck_vips >> i & 1 else "R" for i in range(deck_len)), out=v[17] & MASK64,
        clock=TickClock(v[19], v[18], bool(v[20])), rng=[w & MASK64 for w in v[21:25]],
        hands=list(v[25:25 + n]), bag=v[25 + n], discard=v[26 + n], table_card=table_card, slots=slots)
