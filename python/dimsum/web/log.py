"""The move log and the legend of the table page: per-seat log lines and the components' legend.

Both are one function each so that a shared events/legend module for every view (terminal, MCP,
llm, browser) can take their place: ``seat_events`` tells one step as a seat may see it, and
``legend`` lists what a game's components mean, from what the game declares.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

from .. import CHANCE
from ..play.views import game_view_module


def _name(seat: int, viewer: Optional[int]) -> str:
    return "you" if seat == viewer else f"seat {seat}"


def seat_events(before: Any, after: Any, seat: Optional[int], action: Optional[int]) -> List[str]:
    """The log lines seat ``seat`` (None: a spectator) reads for the step from ``before`` to
    ``after``: ``action`` played by ``before``'s player, or None when only time passed (the sand
    ran out). A seat's move is announced at the table (every move in these games is made in the
    open); a chance outcome is not told (a draw may be secret); the game's own note on the step
    (a complaint and its cause) follows."""
    lines = []
    if action is None:
        lines.append("The sand ran out: time passed with no move.")
    elif before.current_player != CHANCE:
        lines.append(f"{_name(before.current_player, seat)}: {before.action_name(action)}")
    module = game_view_module(after.game.name)
    note = getattr(module, "step_note", None)
    if note is not None:
        text = note(before, after, lambda s: _name(s, seat))
        if text:
            lines.append(text)
    if after.is_terminal and not before.is_terminal:
        lines.append(f"Game over: {after.outcome.description}")
    return lines


def legend(game: Any) -> List[Tuple[str, str]]:
    """What the components on the table mean, from what the game declares: Yum Cha's tiers and
    their set points and its teas' multipliers (Yum Cha rulebook, "Scoring"); Dim Sum Jam's token
    codes; every game's moves are named on their buttons."""
    out: List[Tuple[str, str]] = []
    if game.name == "yum_cha":
        cfg = game.spec
        for tier, name in enumerate(cfg.tier_names):
            members = [t.name for t in cfg.types if t.kind == 0 and t.tier == tier]
            out.append((f"{name} tier", f"{', '.join(members)}: three different ones make a set worth "
                                        f"{cfg.tier_points[tier]} pt"))
        for t in cfg.types:
            if t.kind == 1:
                out.append((t.name, f"tea: a pair of it multiplies the declarer's set points by {t.value}"))
            elif t.kind == 2:
                out.append((t.name, "takeaway: scores a set for a player who did not declare (no tea multiplier)"))
    elif game.name == "dim_sum_jam":
        from ..games import dim_sum_jam as dsj

        out += [(code, name) for code, name in zip(dsj.TYPE_CODES, dsj.TYPE_NAMES)]
        out += [("(XLB)", "an empty slot of an order card, wanting that dim sum"), ("TEA", "an exotic tea on a slot"),
                ("R / V", "the order deck's backs: a regular order, a VIP order")]
    out.append(("glowing button", "a legal move: click it to play it"))
    return out
