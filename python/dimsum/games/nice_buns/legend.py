"""Nice Buns' legend (``dimsum.play.legend``): the words of its screen and its moves, from the rules
page (docs/rules/nice_buns.md, NB-2 to NB-10; the Nice Buns rulebook's "How to play")."""

from __future__ import annotations

from typing import Any, List, Tuple

from . import COLOURS


def legend(game: Any) -> List[Tuple[str, str]]:
    return [("split", "the roller parts the three dice into two groups (NB-2); the next seat chooses one group "
                      "and acts its dice, the roller acts the others, small then medium then large"),
            ("in front", "a seat's unplated buns: they may be given, stolen, swapped or go back to the bag"),
            ("plate", "a seat's plated sets (three buns of a colour); plated buns are safe; three plated "
                      "colours win at once"),
            ("greedy", "a set of 4 or more in front (fish heads on it included) goes back to the bag (NB-8)"),
            ("fish head", "sits on a seat's largest set in front; while you hold one you cannot plate (NB-7)"),
            ("tray", f"the serving tray: six buns ({', '.join(COLOURS)}), never a fish head; a take face "
                     "takes from it and it refills at once (NB-10)"),
            ("bag", "the buns left to draw, in an order nobody knows (NB-12)"),
            ("draw N / take / put back", "the small and medium dice: draw N buns from the bag; take a bun of a "
                                         "face colour from the tray; put one of your unplated buns back"),
            ("give / steal / swap", "the large die: one of your unplated buns to a seat; one of a seat's unplated "
                                    "buns to you; one of yours for one of theirs (NB-6)")]
