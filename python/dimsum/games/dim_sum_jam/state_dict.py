"""The readable dict form of a Dim Sum Jam state: the core's state fields (declared in
src/dimsum_core/dim_sum_jam/schema.cpp) shown with token codes, card numbers and phase names.

Tokens are lists of codes ("SHM3"); each table shows its card's number, the card's icons and a
slot per icon (None empty, "tea", or a token code); the deck is its backs, top first ("R"
regular, "V" VIP, "?" a position the set-up shuffle has not reached yet in explicit chance mode);
``cards_out`` lists card numbers; the clock is ``{top, capacity, lying}``; ``chance`` names the
pending chance event, shown only at a chance node (explicit chance mode; a dict without it has none).
Decoding checks only the form (types, codes, card numbers); every value is checked against its
field's declared bounds and the position as a whole by the core (``Engine::validate``), which
names the field that is wrong.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping

from ..._common import set_bits
from ..._schema import DictCodec, Fail, Key, boolean, enum, optional, per_player
from . import (CHANCE_EVENTS, EMPTY, MAX_ICONS, NUM_TABLES, OUTCOMES, PHASES, TEA, TOKEN_BY_CODE, TOKEN_CODES,
               TYPE_CODES)

RESUME = PHASES[:2]  # a time-out interrupts "play" or "reward"


def _tokens() -> Dict[str, Any]:
    """A token mask shown as a list of token codes, in token order."""

    def encode(cfg: Any, mask: int) -> List[str]:
        return [TOKEN_CODES[t] for t in set_bits(mask)]

    def decode(cfg: Any, value: Any, fail: Fail) -> int:
        if not isinstance(value, list):
            fail.type(f"got {type(value).__name__}", "a list of token codes (like 'SHM3') is allowed")
        mask = 0
        for code in value:
            if not isinstance(code, str) or code not in TOKEN_BY_CODE:
                fail(f"{code!r:.40} is not a token code", "token codes are like 'SHM3'")
            if mask >> TOKEN_BY_CODE[code] & 1:
                fail(f"token {code} is listed twice", "each token is in one place")
            mask |= 1 << TOKEN_BY_CODE[code]
        return mask

    return {"encode": encode, "decode": decode}


def _card_id(cfg: Any, number: Any, fail: Fail) -> int:
    if type(number) is not int or number not in cfg.card_by_number:  # True is not card 1
        fail(f"{number!r:.40} is not a card number", f"the card numbers are {sorted(cfg.card_by_number)}")
    return cfg.card_by_number[number]


def _encode_tables(cfg: Any, f: Mapping[str, Any]) -> List[Dict[str, Any]]:
    tables = []
    for card, slots in zip(f["table_cards"], f["slots"]):
        if card < 0:
            tables.append({"card": None, "icons": [], "slots": []})
            continue
        icons = cfg.card_icons[card]
        tables.append({"card": cfg.cards[card].number, "icons": [TYPE_CODES[y] for y in icons],
                       "slots": [None if s == EMPTY else "tea" if s == TEA else TOKEN_CODES[s]
                                 for s in slots[:len(icons)]]})
    return tables


def _decode_tables(cfg: Any, value: Any, fail: Fail) -> Dict[str, Any]:
    if not isinstance(value, list) or len(value) != NUM_TABLES:
        fail(f"got {value!r:.60}", f"a list of {NUM_TABLES} table dicts is allowed")
    cards, slots = [], []
    for k, table in enumerate(value):
        at = fail.at(k)
        if not isinstance(table, dict) or set(table) != {"card", "icons", "slots"}:
            at(f"got {table!r:.60}", "a dict with keys card, icons, slots is allowed")
        if table["card"] is None:
            if table["icons"] != [] or table["slots"] != []:
                at("a table with no card has icons or slots", "[] for both")
            cards.append(-1)
            slots.append([EMPTY] * MAX_ICONS)
            continue
        card = _card_id(cfg, table["card"], Fail(fail.game, f"{at.key}.card"))
        icons = [TYPE_CODES[y] for y in cfg.card_icons[card]]
        if table["icons"] != icons:
            at(f"icons {table['icons']!r:.80}", f"the icons of card {table['card']}, {icons}")
        row = table["slots"]
        if not isinstance(row, list) or len(row) != len(icons):
            at(f"slots {row!r:.80}", f"a list of {len(icons)} entries (None, 'tea' or a token code)")
        values = []
        for i, slot in enumerate(row):
            if slot is None:
                values.append(EMPTY)
            elif slot == "tea":
                values.append(TEA)
            elif isinstance(slot, str) and slot in TOKEN_BY_CODE:
                values.append(TOKEN_BY_CODE[slot])
            else:
                Fail(fail.game, f"{at.key}.slots")(f"[{i}] is {slot!r:.40}", "None, 'tea' or a token code")
        cards.append(card)
        slots.append(values + [EMPTY] * (MAX_ICONS - len(values)))
    return {"table_cards": cards, "slots": slots}


def _encode_deck(cfg: Any, f: Mapping[str, Any]) -> str:
    vips, undecided = f["deck_vips"], f["shuffle_left"]
    return "".join("?" if i < undecided else "V" if vips >> i & 1 else "R" for i in range(f["deck_size"]))


def _decode_deck(cfg: Any, value: Any, fail: Fail) -> Dict[str, Any]:
    if not isinstance(value, str) or set(value) - {"R", "V", "?"}:
        fail(f"got {value!r:.80}", "a string of 'R' and 'V' backs (top first; '?' not yet shuffled) is allowed")
    undecided = len(value) - len(value.lstrip("?"))
    if "?" in value[undecided:]:
        fail(f"got {value!r:.80}", "'?' only on top: the set-up shuffle places the backs from below")
    if len(value) > 64:  # the core bounds deck_size by the configuration; this keeps deck_vips a word
        fail(f"{len(value)} backs", f"a deck of at most {cfg.deck_length} cards in this configuration")
    return {"deck_size": len(value), "deck_vips": sum(1 << i for i, back in enumerate(value) if back == "V"),
            "shuffle_left": undecided}


def _chance() -> Dict[str, Any]:
    """The pending chance event by name (CHANCE_EVENTS), None for none (field value 0)."""

    def decode(cfg: Any, value: Any, fail: Fail) -> int:
        if value is None:
            return 0
        if not isinstance(value, str) or value not in CHANCE_EVENTS:
            fail(f"got {value!r:.40}", f"None or one of {list(CHANCE_EVENTS)} is allowed")
        return CHANCE_EVENTS.index(value) + 1

    return {"encode": lambda cfg, v: CHANCE_EVENTS[v - 1] if v else None, "decode": decode}


def _cards_out() -> Dict[str, Any]:
    """A mask of card ids shown as the cards' numbers."""

    def decode(cfg: Any, value: Any, fail: Fail) -> int:
        if not isinstance(value, list):
            fail.type(f"got {type(value).__name__}", "a list of card numbers is allowed")
        mask = 0
        for number in value:
            card = _card_id(cfg, number, fail)
            if mask >> card & 1:
                fail(f"card {number} is listed twice", "each card once")
            mask |= 1 << card
        return mask

    return {"encode": lambda cfg, mask: [cfg.cards[c].number for c in set_bits(mask)], "decode": decode}


def _decode_clock(cfg: Any, value: Any, fail: Fail) -> Dict[str, Any]:
    if not isinstance(value, dict):
        fail.type(f"got {type(value).__name__}", "a dict with keys top, capacity, lying is allowed")
    if set(value) != {"top", "capacity", "lying"}:
        fail(f"keys {sorted(map(str, value))}", "exactly the keys capacity, lying, top")
    if not isinstance(value["lying"], bool):
        fail.at("lying")(f"got {value['lying']!r:.40}", "True or False is allowed")
    return {"clock_top": value["top"], "clock_capacity": value["capacity"], "clock_lying": int(value["lying"])}


def _decode_players(cfg: Any, value: Any, fail: Fail) -> Dict[str, Any]:
    if type(value) is not int or value != cfg.players:
        fail(f"got {value!r:.40}", f"this game has {cfg.players} players")
    return {}


class _Codec(DictCodec):
    """The codec, but ``chance`` is shown only at a chance node: a sampled game's dicts are the
    same as before explicit chance existed (and a dict without it reads "no pending event")."""

    def to_dict(self, cfg: Any, fields: Mapping[str, Any]) -> Dict[str, Any]:
        d = super().to_dict(cfg, fields)
        if d["chance"] is None:
            del d["chance"]
        return d


CODEC = _Codec("dim_sum_jam", (
    # the number of players is the configuration's; it is shown (and checked) with the hands
    Key("players", fields=("hands",), encode=lambda cfg, f: len(f["hands"]), decode=_decode_players),
    Key("phase", **enum(PHASES)),
    Key("chance", required=False, default=0, **_chance()),  # explicit chance mode only
    Key("active"),
    Key("direction"),
    Key("discarder", **optional()),
    Key("resume", **optional(enum(RESUME))),
    Key("required_table"),
    Key("opening_free_turns"),
    Key("stuck_complained", **boolean()),
    Key("free_redraws"),
    Key("draw_pending", **boolean()),
    Key("hands", **per_player(_tokens())),
    Key("bag", **_tokens()),
    Key("discard", **_tokens()),
    Key("tables", fields=("table_cards", "slots"), encode=_encode_tables, decode=_decode_tables),
    Key("deck", fields=("deck_size", "deck_vips", "shuffle_left"), encode=_encode_deck, decode=_decode_deck),
    Key("cards_out", **_cards_out()),
    Key("tea_supply"),
    Key("tea_reception"),
    Key("complaints"),
    Key("reverse_used", **boolean()),
    Key("clock", fields=("clock_top", "clock_capacity", "clock_lying"),
        encode=lambda cfg, f: {"top": f["clock_top"], "capacity": f["clock_capacity"], "lying": bool(f["clock_lying"])},
        decode=_decode_clock),
    Key("outcome", **optional(enum(OUTCOMES))),
    Key("rng"),
))
