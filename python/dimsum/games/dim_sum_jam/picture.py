"""Dim Sum Jam as a picture: the hourglass with its sand (lying down when time is stopped), the
seven tables in a row, each with its order card (VIP cards marked) and the dim sum tokens and
exotic teas on its icon spaces, the order deck's backs, the tea supply and the reception card
with its teas and complaints, and every seat's tokens.

Everything drawn is public (DSJ-18): hands, tables, bag and discard contents, the deck's backs,
the clock. The hidden things, the faces of the deck's cards and the bag's order, are in no
state field and never drawn, so a seat's view is the whole table marked with whose view it is.
"""

from __future__ import annotations

import math

from typing import Any, Dict, Optional, Sequence

from . import NUM_TABLES, TYPE_CODES, TYPE_NAMES
from ...render.svg import HIGHLIGHT, INK, MUTED, Svg, num, seat_label, wrap
from ...render.view import ending_line, view_line, who_acts

TYPE_COLOURS = ("#f2cc8f", "#f4a259", "#b5c99a", "#7fb069", "#f7a1c4", "#e76f51", "#c9a227")
TEA_COLOUR = "#8d6e63"
SAND = "#e0b05a"
WIDTH = 900
TABLE_W = (WIDTH - 24 - 6 * 6) / NUM_TABLES
PHASE_TEXT = {"play": "plays a token", "reward": "chooses the team's reward (flip the glass or take tea)",
              "timeout_discard": "discards after the time-out", "stuck_discard": "cannot serve: discards",
              "stand": "stands the hourglass up again"}


def _token_type(code: str) -> int:
    return TYPE_CODES.index(code[:3])


def draw_token(svg: Svg, x: float, y: float, code: str, r: float = 13) -> None:
    """A dim sum token: its type's colour, its type code and its number (the table it sends the
    next player to)."""
    svg.zone()  # one piece: a replay page stores each distinct piece once
    svg.circle(x, y, r, fill=TYPE_COLOURS[_token_type(code)], stroke=INK)
    svg.text(x, y - 2, code[:3], size=r * 0.5, anchor="middle")
    svg.text(x, y + r * 0.65, code[3:], size=r * 0.75, anchor="middle", weight="bold")


def draw_tea(svg: Svg, x: float, y: float, r: float = 11) -> None:
    """An exotic tea token (wooden): a round token with a cup on it."""
    svg.zone()  # one piece: a replay page stores each distinct piece once
    svg.circle(x, y, r, fill=TEA_COLOUR, stroke=INK)
    svg.path(f"M{x - r / 2:.1f},{y - r / 4:.1f} h{r:.1f} v{r / 3:.1f} a{r / 2:.1f},{r / 2:.1f} 0 0 1 "
             f"-{r:.1f},0 z", fill="#f5e6c8", stroke=None)


def scaled_about(amount: float, x: float, y: float) -> str:
    """An SVG transform that scales by ``amount`` about the point (x, y)."""
    return f"translate({num(x)} {num(y)}) scale({amount:.3f}) translate({num(-x)} {num(-y)})"


def draw_hourglass(svg: Svg, clock: Dict[str, Any], ticks_per_second: int, time_on: bool, x: float,
                   y: float) -> None:
    """The two-minute hourglass at (x, y): the sand in the top and bottom bulbs in proportion to
    the ticks left and run; turned on its side when it is lying down (time stopped)."""
    cap = max(1, clock["capacity"])
    top_part = clock["top"] / cap
    w, h = 56, 96
    cx, cy = x + 62, y + 74
    svg.open_group(transform=f"rotate(90 {cx} {cy})" if clock["lying"] else None)
    left, right, top, bottom = cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2
    svg.rect(left - 6, top - 8, w + 12, 8, fill="#6d4c41", stroke=INK)
    svg.rect(left - 6, bottom, w + 12, 8, fill="#6d4c41", stroke=INK)
    # sand: the top bulb's is the top triangle scaled about the neck, the bottom's a pile scaled
    # about the bottom's centre, each by the square root of its share of the sand (so that its area
    # is that share). The replay page runs the glass between steps by rewriting these transforms
    # (data-sand, data-cx, data-cy) the same way.
    pile = bottom - (h / 2) * 0.9
    for part, amount, points, (px, py) in (
            ("top", top_part, [(left, top), (right, top), (cx, cy)], (cx, cy)),
            ("bottom", 1 - top_part, [(left, bottom), (right, bottom), (cx, pile)], (cx, bottom))):
        svg.polygon(points, fill=SAND, stroke=None, transform=scaled_about(math.sqrt(amount), px, py),
                    data_sand=part, data_cx=px, data_cy=py)
    svg.polygon([(left, top), (right, top), (cx + 3, cy), (right, bottom), (left, bottom), (cx - 3, cy)],
                fill="none", stroke=INK, stroke_width=1.5)
    svg.close_group()
    seconds = clock["top"] / max(1, ticks_per_second)
    total = clock["capacity"] / max(1, ticks_per_second)
    state_text = "lying down: time stopped" if clock["lying"] else "standing: time runs"
    if not time_on:  # ticks_per_action=0: the glass never runs (docs/rules/dim_sum_jam.md, section 4)
        state_text = "time off: the glass never runs"
    svg.text(cx, y + 140, f"{seconds:.1f} s of {total:g} s left", size=11, anchor="middle", weight="bold",
             data_glass="seconds")
    svg.text(cx, y + 153, state_text, size=10, anchor="middle", fill=MUTED)


def _draw_table(svg: Svg, cfg: Any, k: int, table: Dict[str, Any], required: bool, x: float, y: float) -> None:
    svg.zone()
    svg.rect(x, y, TABLE_W, 184, fill="#f1e3c8", stroke=HIGHLIGHT if required else "#c9bba5", rx=8,
             stroke_width=3 if required else 1)
    svg.text(x + TABLE_W / 2, y + 22, f"Table {k + 1}", size=14, anchor="middle", weight="bold",
             fill=HIGHLIGHT if required else INK)
    if table["card"] is None:
        svg.text(x + TABLE_W / 2, y + 100, "(no order)", size=11, anchor="middle", fill=MUTED)
        return
    vip = cfg.cards[cfg.card_by_number[table["card"]]].vip
    cx, cy, cw, ch = x + 6, y + 32, TABLE_W - 12, 146
    svg.rect(cx, cy, cw, ch, fill="#fff8e7" if not vip else "#fff1c1", stroke="#b8860b" if vip else INK,
             rx=6, stroke_width=2 if vip else 1)
    svg.text(cx + 6, cy + 15, f"Order {table['card']}", size=10, weight="bold")
    if vip:
        svg.rect(cx + cw - 30, cy + 4, 26, 14, fill="#b8860b", stroke=None, rx=3)
        svg.text(cx + cw - 17, cy + 14.5, "VIP", size=9, anchor="middle", fill="#ffffff", weight="bold")
    for i, (icon, slot) in enumerate(zip(table["icons"], table["slots"])):
        sx = cx + cw / 2 + (-24 if i % 2 == 0 else 24) if len(table["icons"]) > 1 else cx + cw / 2
        sy = cy + 36 + (i // 2) * 31
        if slot is None:  # an empty icon space: the dish it wants
            svg.circle(sx, sy, 14, fill="#ffffff", stroke=TYPE_COLOURS[TYPE_CODES.index(icon)], stroke_width=3)
            svg.text(sx, sy + 3.5, icon, size=9, anchor="middle", fill=MUTED)
        elif slot == "tea":
            draw_tea(svg, sx, sy, 13)
        else:
            draw_token(svg, sx, sy, slot, 14)


def _headline(state: Any, d: Dict[str, Any]) -> str:
    who = who_acts(state, d["phase"], PHASE_TEXT, "chance acts (a card turned up, a token drawn)")
    return f"Dim Sum Jam · {who}"


def _rule_line(d: Dict[str, Any]) -> str:
    req = d["required_table"]
    parts = [("the next play may go on any table" if req == 0 else f"the next play goes on table {req}")]
    parts.append("turn order " + ("clockwise" if d["direction"] == 1 else "counter-clockwise"))
    if d["discarder"] is not None:
        parts.append(f"time-out: seat {d['discarder']} discards")
    return " · ".join(parts)


def draw(state: Any, player: Optional[int], names: Optional[Sequence[str]] = None) -> Svg:
    cfg = state.game.spec
    opts = state.game.options
    d = state.to_dict()
    svg = Svg(WIDTH, 0, title=_headline(state, d))
    svg.banner([_headline(state, d), view_line(player, "token") + " · " + _rule_line(d)])
    top = 58
    # the hourglass, the supply and reception card, the deck
    svg.panel(12, top, 124, 160, "")
    draw_hourglass(svg, d["clock"], opts["ticks_per_second"], cfg.time_on, 12, top)
    svg.panel(144, top, 330, 160, "Supply and reception card")
    svg.text(156, top + 38, "Exotic tea supply", size=11)
    for i in range(d["tea_supply"]):
        draw_tea(svg, 170 + i * 28, top + 58)
    svg.rect(300, top + 24, 164, 126, fill="#fdfaf3", stroke=INK, rx=6)
    svg.text(382, top + 40, "Reception", size=11, anchor="middle", weight="bold")
    svg.text(310, top + 62, "tea (wild):", size=10)
    for i in range(d["tea_reception"]):
        draw_tea(svg, 378 + i * 26, top + 58)
    svg.text(310, top + 98, f"complaints {d['complaints']} of {opts['complaint_limit']}:", size=10)
    for i in range(opts["complaint_limit"]):
        got = i < d["complaints"]
        svg.circle(322 + i * 28, top + 124, 11, fill="#c0392b" if got else "none",
                   stroke="#c0392b" if got else MUTED, stroke_dasharray=None if got else "3,2")
        if got:
            svg.text(322 + i * 28, top + 128.5, "!", size=13, anchor="middle", fill="#ffffff", weight="bold")
    if opts["reverse_variant"]:
        svg.text(156, top + 96, "Reverse token: " + ("used" if d["reverse_used"] else "unused"), size=10)
    svg.text(156, top + 120, f"bag {len(d['bag'])} tokens", size=11)
    svg.text(156, top + 138, f"discard pile {len(d['discard'])}", size=11)
    svg.panel(482, top, WIDTH - 494, 160, f"Order deck: {len(d['deck'])} cards (top first)")
    for i, back in enumerate(d["deck"]):
        bx, by = 494 + (i % 11) * 34, top + 26 + (i // 11) * 58  # 21 cards at most: two rows
        vip = back == "V"
        svg.rect(bx, by, 30, 50, fill="#b8860b" if vip else "#3d5a80", stroke=INK, rx=4)
        svg.text(bx + 15, by + 29, "VIP" if vip else ("?" if back == "?" else ""), size=10, anchor="middle",
                 fill="#ffffff", weight="bold")
    if d["cards_out"]:
        svg.text(494, top + 152, f"orders fulfilled: {', '.join(map(str, d['cards_out']))}", size=10, fill=MUTED)
    # the seven tables
    y = top + 170
    for k, table in enumerate(d["tables"]):
        required = d["required_table"] == k + 1 and not state.is_terminal
        _draw_table(svg, cfg, k, table, required, 12 + k * (TABLE_W + 6), y)
    y += 194
    # the seats' tokens (public)
    for q, hand in enumerate(d["hands"]):
        to_act = q == state.current_player
        rows = wrap(hand, 24)
        h = 26 + 32 * len(rows)
        svg.panel(12, y, WIDTH - 24, h, "", stroke=HIGHLIGHT if to_act else "#c9bba5", stroke_width=2 if to_act else 1)
        label = seat_label(q, player, names) + (" · active" if q == d["active"] else "")
        svg.text(22, y + 17, label + ("  ◀ to act" if to_act else ""), size=12, weight="bold",
                 fill=HIGHLIGHT if to_act else INK)
        for r, row in enumerate(rows):
            for i, code in enumerate(row):
                draw_token(svg, 36 + i * 34, y + 38 + r * 32, code)
        if not hand:
            svg.text(22, y + 40, "no tokens", size=11, fill=MUTED)
        y += h + 6
    names_line = " · ".join(f"{c} {n}" for c, n in zip(TYPE_CODES, TYPE_NAMES))
    y = svg.paragraph(12, y + 12, names_line, size=10, max_chars=150, fill=MUTED)
    ending = ending_line(state)
    if ending:
        y = svg.paragraph(12, y + 14, ending, size=12, max_chars=130, weight="bold")
    svg.height = y + 10
    return svg
