"""Dim Sum Jam's legend (``dimsum.play.legend``): the token codes (read from data/dim_sum_jam.json
through the package's ``TYPE_CODES``/``TYPE_NAMES``), and the marks of the terminal view (Dim Sum
Jam rulebook, "Components" and "Game Play")."""

from __future__ import annotations

from typing import Any, List, Tuple

from . import TYPE_CODES, TYPE_NAMES


def legend(game: Any) -> List[Tuple[str, str]]:
    out = [(code, f"{name} (a token {code}1 to {code}7: the type and its number)")
           for code, name in zip(TYPE_CODES, TYPE_NAMES)]
    example = TYPE_CODES[0]
    out += [(f"({example})", f"an empty slot of a table's order card, waiting for a {TYPE_NAMES[0]} token"),
            ("TEA", "a slot filled with exotic tea instead of a token"),
            ("R / V (deck)", "the backs of the order deck's cards: R a regular order, V a VIP order"),
            ("Glass", f"the hourglass ({game.options['glass_ticks'] / game.options['ticks_per_second']:g} s of "
                      "sand): the sand left in its top half; when it runs out the team takes a complaint"),
            ("COMPLAINT", f"the team takes one when the sand runs out or the active player cannot serve at "
                          f"the required table; {game.options['complaint_limit']} lose the game")]
    return out
