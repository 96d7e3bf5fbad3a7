"""Yum Cha's legend (``dimsum.play.legend``): which dim sum belong to which tier and what a tier's
set scores, what each tea multiplies, the takeaway card. Read from the game's deck (its ``deck``
option, by default data/yum_cha.json), so that it always says what this game is played with (Yum
Cha rulebook, "Scoring")."""

from __future__ import annotations

from typing import Any, List, Tuple

from . import KIND_DIM_SUM, KIND_TAKEAWAY, KIND_TEA


def legend(game: Any) -> List[Tuple[str, str]]:
    cfg = game.spec
    out = []
    for tier, (name, points) in enumerate(zip(cfg.tier_names, cfg.tier_points)):
        members = [t.name for t in cfg.types if t.kind == KIND_DIM_SUM and t.tier == tier]
        out.append((f"{name} tier", f"{', '.join(members) or 'no cards'}; a set of three different {name} "
                                    f"dim sum scores {points} point{'s' if points != 1 else ''}"))
    for t in cfg.types:
        if t.kind == KIND_TEA:
            out.append((t.name, f"tea: a pair of {t.name} multiplies the declarer's set points by {t.value}"))
    if any(t.kind == KIND_TAKEAWAY for t in cfg.types):
        out.append(("Takeaway", "never part of a complete hand; if you did not declare, each takeaway card "
                                "lets one of your sets score its tier's points (no tea multiplier)"))
    out.append(("complete hand", "11 cards: three sets (three different dim sum of one tier) and a pair of "
                                 "identical tea; then you may declare Yum Cha"))
    out.append(("x2 (in a hand)", "two copies of that card"))
    return out
