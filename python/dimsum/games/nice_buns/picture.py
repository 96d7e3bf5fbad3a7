"""Nice Buns as a picture: the three dice (small, medium, large) with the faces they show and
who holds them after the split, the serving tray, the steamer bag with its contents, and each
seat's buns in front of them (the fish heads on the set they sit on) and the sets on their plate.

Everything in Nice Buns is public but the bag's order (NB-12), which no picture shows, so a
seat's view is the whole table marked with whose view it is: the same buns, dice and bag counts
that ``state.observation(p)`` holds.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

from . import COLOURS, DICE, FACE_ACTIONS, KINDS
from ...render.svg import HIGHLIGHT, INK, MUTED, Svg, seat_label
from ...render.view import ending_line, view_line, who_acts

BUN_COLOURS = {"blue": "#4d7cc7", "green": "#5aa469", "red": "#d1495b", "yellow": "#edae49",
               "fish head": "#9aa0a6"}
WIDTH = 900
DIE_SIZES = (46, 56, 66)   # the small, medium and large die
PHASE_TEXT = {"split": "splits the dice into two groups", "choose": "chooses a group of dice",
              "act": "acts with a die", "fish": "moves a fish head bun", "plate": "decides whether to plate a set"}


def draw_bun(svg: Svg, x: float, y: float, kind: str, r: float = 10) -> None:
    """A bao bun (a round bun with pleats on top); a fish head bun is grey with an eye and a tail."""
    svg.zone()  # one piece: a replay page stores each distinct piece once
    colour = BUN_COLOURS[kind]
    if kind == "fish head":
        svg.polygon([(x + r - 2, y), (x + r + 7, y - 6), (x + r + 7, y + 6)], fill=colour)
    svg.circle(x, y, r, fill=colour)
    if kind == "fish head":
        svg.circle(x - r / 3, y - r / 4, 2.2, fill=INK, stroke=None)
    else:
        svg.path(f"M{x - r / 2:.1f},{y - r / 3:.1f} Q{x:.1f},{y - r:.1f} {x + r / 2:.1f},{y - r / 3:.1f}",
                 stroke="#ffffff", stroke_width=1.5)


def _face_icon(svg: Svg, face: Any, x: float, y: float, size: float) -> None:
    """The face's picture inside a die whose top-left corner is (x, y)."""
    cx, cy = x + size / 2, y + size / 2
    action = FACE_ACTIONS[face.action]
    if action == "draw":  # pips: buns to draw from the bag
        n = face.count
        for i in range(n):
            px = cx + (i - (n - 1) / 2) * (size / 4)
            svg.circle(px, cy - 4, size / 12, fill=INK, stroke=None)
        svg.text(cx, y + size - 6, "draw", size=9, anchor="middle")
    elif action == "take":  # the colours that may be taken from the tray
        n = len(face.colours)
        for i, c in enumerate(face.colours):
            svg.circle(cx + (i - (n - 1) / 2) * (size / 5), cy - 4, size / 11, fill=BUN_COLOURS[COLOURS[c]],
                       stroke=INK, stroke_width=0.5)
        svg.text(cx, y + size - 6, "take", size=9, anchor="middle")
    else:
        arrow = {"put_back": "↓ bag", "give": "give →", "steal": "← steal", "swap": "⇄ swap"}[action]
        svg.text(cx, cy + 4, arrow, size=10 if size > 50 else 9, anchor="middle", weight="bold")


def _holders(d: Dict[str, Any], players: int) -> Dict[str, int]:
    """Which seat holds each die once the dice are split and a group chosen (NB-2)."""
    if d["chooser_takes"] is None or d["roller"] is None:
        return {}
    chooser = (d["roller"] + 1) % players
    taken = set(d["chooser_takes"].split("+")) if d["chooser_takes"] != "none" else set()
    return {die: chooser if die in taken else d["roller"] for die in DICE}


def _headline(state: Any, d: Dict[str, Any]) -> str:
    who = who_acts(state, d["phase"], PHASE_TEXT, "chance acts (a roll, a draw from the bag)")
    return f"Nice Buns · turn {d['turn']} · {who}"


def _draw_dice(svg: Svg, state: Any, d: Dict[str, Any], x: float, y: float) -> None:
    cfg = state.game.spec
    holders = _holders(d, state.game.players)
    svg.panel(x, y, 300, 150, "Dice")
    dx = x + 14
    for i, die in enumerate(DICE):
        size = DIE_SIZES[i]
        top = y + 26 + (66 - size)
        face = cfg.dice[i][d["dice"][die]["face"]]
        current = d["die"] == die and d["chooser_takes"] is not None and not state.is_terminal
        svg.rect(dx, top, size, size, fill="#ffffff", stroke=HIGHLIGHT if current else INK, rx=8,
                 stroke_width=2.5 if current else 1.2)
        _face_icon(svg, face, dx, top, size)
        svg.text(dx + size / 2, y + 108, die, size=10, anchor="middle", fill=MUTED)
        held = f"seat {holders[die]}" if die in holders else ""
        svg.text(dx + size / 2, y + 122, held, size=10, anchor="middle", weight="bold")
        dx += size + 28
    line = f"split: {d['split']}" if d["split"] else "not split yet"
    if d["chooser_takes"] is not None:
        line += f" · chooser took {d['chooser_takes']}"
    svg.text(x + 10, y + 142, line, size=10, fill=MUTED)


def _draw_tray(svg: Svg, d: Dict[str, Any], x: float, y: float) -> None:
    svg.panel(x, y, 250, 150, "Serving tray")
    svg.rect(x + 15, y + 40, 220, 70, fill="#e8d5b5", stroke=INK, rx=30)
    buns = [c for c in COLOURS for _ in range(d["tray"][c])]
    for i in range(6):
        bx, by = x + 45 + (i % 3) * 80, y + 60 + (i // 3) * 30
        if i < len(buns):
            draw_bun(svg, bx, by, buns[i])
        else:
            svg.circle(bx, by, 10, fill="none", stroke=MUTED, stroke_dasharray="3,2")


def _draw_bag(svg: Svg, d: Dict[str, Any], x: float, y: float) -> None:
    svg.panel(x, y, 310, 150, f"Steamer bag ({sum(d['bag'].values())} buns)")
    svg.path(f"M{x + 40},{y + 45} q-25,50 5,95 h70 q30,-45 5,-95 z", fill="#d9c6a5", stroke=INK)
    svg.path(f"M{x + 40},{y + 45} l10,-12 h40 l10,12", stroke=INK, stroke_width=2)
    for i, kind in enumerate(KINDS):
        bx, by = x + 170 + (i % 2) * 70, y + 45 + (i // 2) * 32
        draw_bun(svg, bx, by, kind, r=9)
        svg.text(bx + 20, by + 4, f"× {d['bag'][kind]}", size=12)


def _draw_seat(svg: Svg, state: Any, d: Dict[str, Any], q: int, viewer: Optional[int],
               names: Optional[Sequence[str]], x: float, y: float, w: float) -> None:
    seat = d["seats"][q]
    to_act = q == state.current_player
    won = d["winner"] == q
    svg.panel(x, y, w, 128, "", stroke=HIGHLIGHT if to_act or won else "#c9bba5",
              stroke_width=2 if to_act or won else 1)
    roles = []
    if d["roller"] == q:
        roles.append("rolled")
    if won:
        roles.append("WINS")
    label = seat_label(q, viewer, names) + (" · " + ", ".join(roles) if roles else "")
    svg.text(x + 10, y + 17, label + ("  ◀ to act" if to_act else ""), size=12, weight="bold",
             fill=HIGHLIGHT if to_act else INK)
    # the plate: each plated colour as a set of three buns
    px, py = x + 60, y + 68
    svg.circle(px, py, 42, fill="#ffffff", stroke=INK, stroke_width=1.5)
    svg.circle(px, py, 34, fill="none", stroke="#c9bba5")
    spots = [(px - 16, py - 12), (px + 16, py - 12), (px, py + 16)]
    for (sx, sy), colour in zip(spots, seat["plate"]):
        for ox, oy in ((-6, 4), (6, 4), (0, -6)):
            draw_bun(svg, sx + ox, sy + oy, colour, r=5.5)
    svg.text(px, y + 122, f"plate: {len(seat['plate'])} of 3 sets", size=9, anchor="middle", fill=MUTED)
    # the buns in front: one column per colour, the fish heads on the set they sit on (NB-7)
    fx = x + 118
    fish = seat["front"]["fish head"]
    for c in COLOURS:
        n = seat["front"][c]
        column = [c] * n + (["fish head"] * fish if seat["fish_on"] == c else [])
        for i, kind in enumerate(column):
            draw_bun(svg, fx + 14, y + 98 - i * 22, kind, r=9)
        fx += 36
    if fish and seat["fish_on"] is None:
        for i in range(fish):
            draw_bun(svg, fx + 14, y + 98 - i * 22, "fish head", r=9)


def draw(state: Any, player: Optional[int], names: Optional[Sequence[str]] = None) -> Svg:
    d = state.to_dict()
    n = state.game.players
    svg = Svg(WIDTH, 0, title=_headline(state, d))
    svg.banner([_headline(state, d), view_line(player, "bun")])
    top = 58
    _draw_dice(svg, state, d, 12, top)
    _draw_tray(svg, d, 320, top)
    _draw_bag(svg, d, 578, top)
    y = top + 162
    cols = 2 if n > 1 else 1
    w = (WIDTH - 24 - 8 * (cols - 1)) / cols
    for q in range(n):
        _draw_seat(svg, state, d, q, player, names, 12 + (q % cols) * (w + 8), y + (q // cols) * 136, w)
    y += ((n + cols - 1) // cols) * 136
    if d["cascade"]:
        y = svg.paragraph(12, y + 12, "buns still settling for seat(s) " + ", ".join(map(str, d["cascade"])),
                          size=11, fill=MUTED)
    ending = ending_line(state)
    if ending:
        y = svg.paragraph(12, y + 14, ending, size=12, max_chars=130, weight="bold")
    svg.height = y + 10
    return svg
