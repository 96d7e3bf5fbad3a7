"""Pig as a picture: each seat's banked score as a bar toward the target, the turn total as the
part of the bar the seat to act would bank by holding, the die showing the last roll, and whose
turn it is.

Pig hides nothing but the future rolls, so a seat's view shows the same table as the whole one
(its own seat marked "you"); the generator's state, the only hidden field, is never drawn.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ...render.svg import HIGHLIGHT, INK, MUTED, Svg, seat_label
from ...render.view import ending_line, view_line, who_acts

WIDTH = 760
BAR_X, BAR_W, BAR_H, ROW_H = 190, 420, 18, 30
BANKED, AT_RISK, TRACK = "#e76f51", "#f4c95d", "#efe6d6"
# pip positions on a 3x3 grid (0-8, row by row) for faces 1-6; other faces are written as numbers
PIPS = {1: (4,), 2: (0, 8), 3: (0, 4, 8), 4: (0, 2, 6, 8), 5: (0, 2, 4, 6, 8), 6: (0, 2, 3, 5, 6, 8)}


def draw_die(svg: Svg, x: float, y: float, size: float, face: Optional[int], label: str) -> None:
    """A die at (x, y) showing ``face`` (pips up to 6, a number above), blank before the first roll."""
    svg.zone()  # one piece: a replay page stores each distinct piece once
    svg.rect(x, y, size, size, fill="#fffdf8", stroke=INK, rx=size / 6, stroke_width=1.5)
    if face is None:
        svg.text(x + size / 2, y + size / 2 + 5, "?", size=16, anchor="middle", fill=MUTED)
    elif face in PIPS:
        for pip in PIPS[face]:
            cx = x + size * (0.25 + 0.25 * (pip % 3))
            cy = y + size * (0.25 + 0.25 * (pip // 3))
            svg.circle(cx, cy, size / 11, fill=HIGHLIGHT if face == 1 else INK, stroke=None)
    else:
        svg.text(x + size / 2, y + size / 2 + 7, face, size=20, anchor="middle", weight="bold")
    svg.text(x + size / 2, y + size + 16, label, size=11, anchor="middle", fill=MUTED)


def _last_roll(cfg: Any, name: Optional[str]) -> tuple:
    """(the face to draw, its caption) of the last roll's name ("roll 5"; piglet's "roll 2-6")."""
    if name is None:
        return None, "no roll yet"
    if cfg.piglet:
        return (1, "rolled a 1") if name == "roll 1" else (None, f"rolled {name[5:]}")
    return int(name.split()[1]), f"last roll: {name[5:]}"


def draw(state: Any, player: Optional[int], names: Optional[Sequence[str]] = None) -> Svg:
    cfg = state.game.spec
    d = state.to_dict()
    to_act = d["turn_player"] if not state.is_terminal else None
    who = who_acts(state, "turn", {"turn": "rolls or holds"}, f"seat {d['turn_player']} casts the die (chance)")
    headline = f"Pig · move {d['moves']} of at most {cfg.horizon} · target {cfg.winscore} · {who}"
    top = 58
    scores_h = 30 + ROW_H * cfg.players
    svg = Svg(WIDTH, 0, title=headline)
    svg.banner([headline, view_line(player, "score")])

    svg.panel(12, top, WIDTH - 24, scores_h, f"Banked scores toward {cfg.winscore}")
    scale = BAR_W / max(cfg.winscore, 1)
    for p, score in enumerate(d["scores"]):
        y = top + 24 + ROW_H * p
        mine = p == to_act
        svg.text(22, y + 13, seat_label(p, player, names) + ("  ◀ to act" if mine else ""), size=12,
                 weight="bold" if mine else None, fill=HIGHLIGHT if mine else INK)
        svg.rect(BAR_X, y, BAR_W, BAR_H, fill=TRACK, stroke=None, rx=4)
        banked = min(score, cfg.winscore) * scale
        if banked:
            svg.rect(BAR_X, y, banked, BAR_H, fill=BANKED, stroke=None, rx=4)
        if mine and d["turn_total"]:  # what holding now would bank
            svg.rect(BAR_X + banked, y, min(d["turn_total"], cfg.winscore - min(score, cfg.winscore)) * scale,
                     BAR_H, fill=AT_RISK, stroke=None)
        svg.rect(BAR_X, y, BAR_W, BAR_H, fill="none", stroke=HIGHLIGHT if mine else "#c9bba5", rx=4)
        extra = f" + {d['turn_total']} this turn" if mine and d["turn_total"] else ""
        svg.text(BAR_X + BAR_W + 10, y + 13, f"{score}{extra}", size=12, weight="bold" if mine else None)

    y = top + scores_h + 12
    svg.panel(12, y, WIDTH - 24, 110, f"Seat {d['turn_player']}'s turn")
    face, caption = _last_roll(cfg, d["last_roll"])
    draw_die(svg, 40, y + 24, 54, face, caption)
    svg.zone()
    svg.text(130, y + 48, f"Turn total: {d['turn_total']}", size=16, weight="bold")
    svg.text(130, y + 72, f"Roll: add the face to the turn total; a 1 loses it. Hold: bank it. "
                          f"A {cfg.faces}-sided die{' (piglet: a roll adds 1)' if cfg.piglet else ''}.",
             size=11, fill=MUTED)
    y += 122
    ending = ending_line(state)
    if ending:
        y = svg.paragraph(12, y + 14, ending, size=12, max_chars=110, weight="bold")
    svg.height = y + 10
    return svg
