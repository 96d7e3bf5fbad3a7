"""The readable dict form of a Yum Cha state: the core's state fields (declared in
src/dimsum_core/yum_cha/schema.cpp) shown with card names and phase names.

Each key shows one field; card counts are ``{card name: count}`` with zeros left out. Every
value is checked against its field's declared bounds and the position as a whole by the core
(``Engine::validate``), which names the field that is wrong.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..._schema import DictCodec, Key, enum, named_counts, optional_name, per_player

# "starter_draw", "deal" and "deck_draw" are chance nodes (explicit chance only): round 1's starter
# to draw, the next card of a deal, the card of a draw from the deck.
PHASES = ("draw", "discard", "over", "starter_draw", "deal", "deck_draw")


def _card_names(cfg: Any) -> Sequence[str]:
    return cfg.type_names


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
    Key("rng"),
))
