"""Kuhn poker's legend (``dimsum.play.legend``): the cards and the two decisions."""

from __future__ import annotations

from typing import Any, List, Tuple


def legend(game: Any) -> List[Tuple[str, str]]:
    top = game.spec.players
    return [("card 0 .. card %d" % top, f"the deck, card 0 the lowest and card {top} the highest; each seat "
                                        "holds one, face down to the others"),
            ("p / pass", "check, or fold to a bet"),
            ("b / bet", "put one more chip in the pot, or call a bet"),
            ("pot", "the chips every seat has put in; the best card among those still in takes it")]
