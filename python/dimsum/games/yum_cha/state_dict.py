"""The readable dict form of a Yum Cha state: the core's state fields (declared in
src/dimsum_core/yum_cha/schema.cpp) shown with card names and phase names.

Each key shows one field; card counts are ``{card name: count}`` with zeros left out. Every
value is checked against its field's declared bounds and the position as a whole by the core
(``Engine::validate``), which names the field that is wrong.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

from ..._schema import DictCodec, Fail, Key, enum, named_counts, optional_name, per_player

# "starter_draw", "deal" and "deck_draw" are chance nodes (explicit chance only): round 1's starter
# to draw, the next card of a deal, the card of a draw from the deck.
PHASES = ("draw", "discard", "over", "starter_draw", "deal", "deck_draw")


def _card_names(cfg: Any) -> Sequence[str]:
    return cfg.type_names


# deck_out="reshuffle_centre": per seat, the cards it drew from a reshuffled deck and holds unknown
# to the others (src/dimsum_core/yum_cha/redrawn.hpp), shown as [card name, deck] pairs. The field
# holds 11 codes a seat (64 x deck + card type), in descending order, 0 past the last.
SLOTS = 11


def _encode_redrawn(cfg: Any, codes: List[int]) -> List[List[Any]]:
    return [[cfg.type_names[c % 64], c // 64] for c in codes if c]


def _decode_redrawn(cfg: Any, value: Any, fail: Fail) -> List[int]:
    if not isinstance(value, list) or len(value) > SLOTS:
        fail(f"got {value!r:.60}", f"a list of at most {SLOTS} [card name, deck] pairs is allowed")
    codes = []
    for pair in value:
        if (not isinstance(pair, list) or len(pair) != 2 or pair[0] not in cfg.type_names
                or not isinstance(pair[1], int) or isinstance(pair[1], bool) or not 1 <= pair[1] < 1000):
            fail(f"got {pair!r:.60}", "[card name, deck] pairs, deck >= 1, are allowed")
        codes.append(64 * pair[1] + list(cfg.type_names).index(pair[0]))
    return sorted(codes, reverse=True) + [0] * (SLOTS - len(codes))


def _derive(cfg: Any, fields: Dict[str, Any]) -> None:
    if fields["redrawn"] is None:  # a dict without the key: nothing drawn from a reshuffled deck
        fields["redrawn"] = [[0] * SLOTS for _ in range(cfg.players)]


CODEC = DictCodec("yum_cha", (
    Key("round"),
    Key("phase", **enum(PHASES)),
    Key("current_player"),
    Key("starter"),
    Key("turn"),
    Key("hands", **per_player(named_counts(_card_names))),
    Key("known", **per_player(named_counts(_card_names))),
    Key("centre", **named_counts(_card_names)),
    Key("deck", **named_counts(_card_names)),
    Key("last_taken", **optional_name(_card_names)),
    Key("last_discard", **optional_name(_card_names)),
    Key("scores"),
    Key("declarations"),
    Key("best_round"),
    Key("last_round"),
    Key("last_declarer"),
    # explicit chance: the seat whose draw from the deck is pending (phase "deck_draw"), else -1;
    # optional, so that dicts written before explicit chance still load
    Key("drawer", required=False, default=-1),
    # deck_out="reshuffle_centre" only (redrawn.hpp); optional, so that older dicts still load
    Key("deck_number", required=False, default=0),
    Key("redrawn", required=False, default=None, **per_player({"encode": _encode_redrawn, "decode": _decode_redrawn})),
    Key("rng"),
), derive=_derive)
