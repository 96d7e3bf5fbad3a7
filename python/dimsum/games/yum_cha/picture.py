"""Yum Cha as a picture: the face-down deck, the face-up centre, and each seat's hand, cards
coloured by tier (tier name and set points on each dim sum card), tea cards with their
multiplier, takeaway cards, the scores and whose turn it is.

The whole table is drawn from ``state.to_dict()``; a seat's view from ``state.observation(p)``
only: its own hand face up, the cards the others were seen taking from the centre (YC-14) face up
in their hands and the rest of their hands face down, the centre, the deck's size, the scores.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from ...render.svg import HIGHLIGHT, INK, MUTED, Svg, seat_label, wrap, wrap_words
from ...render.view import ending_line, observed, one_hot, view_line, who_acts

# Tier colours, in the rulebook's tier order (Small .. Top), then tea and takeaway.
TIER_COLOURS = ("#f4c95d", "#f29e4c", "#e76f51", "#e5989b", "#8ecae6", "#6a8fd8", "#9b72cf")
TEA_COLOUR = "#74a57f"
TAKEAWAY_COLOUR = "#a47551"
BACK_COLOUR = "#9d2b2b"

CARD_W, CARD_H, GAP = 58, 80, 6
WIDTH = 900
PER_ROW = 12  # centre cards in a row


def _card_colour(card: Any) -> str:
    if card.kind == 0:
        return TIER_COLOURS[card.tier % len(TIER_COLOURS)]
    return TEA_COLOUR if card.kind == 1 else TAKEAWAY_COLOUR


def _card_label(cfg: Any, card: Any) -> str:
    if card.kind == 0:
        return f"{cfg.tier_names[card.tier]} · {card.value} pt"
    return f"Tea ×{card.value}" if card.kind == 1 else "Takeaway"


def _name_lines(name: str, width: int = 10) -> List[str]:
    return wrap_words(name, width)[:3]


def draw_card(svg: Svg, cfg: Any, t: int, x: float, y: float, count: int = 1, mark: bool = False) -> None:
    """Card type ``t`` face up at (x, y); ``count`` > 1 adds a badge, ``mark`` outlines it."""
    svg.zone()  # one piece: a replay page stores each distinct piece once
    card = cfg.types[t]
    colour = _card_colour(card)
    svg.rect(x, y, CARD_W, CARD_H, fill="#fffdf8", stroke=HIGHLIGHT if mark else INK, rx=5,
             stroke_width=2.5 if mark else 1)
    svg.rect(x + 3, y + 3, CARD_W - 6, 16, fill=colour, stroke=None, rx=3)
    svg.text(x + CARD_W / 2, y + 14, _card_label(cfg, card), size=7.5, anchor="middle", weight="bold")
    for i, line in enumerate(_name_lines(card.name)):
        svg.text(x + CARD_W / 2, y + 36 + 11 * i, line, size=9, anchor="middle")
    if card.kind == 1:  # a tea card: a small cup
        svg.path(f"M{x + 21},{y + 64} h16 v6 a8,8 0 0 1 -16,0 z", fill=colour, stroke=INK)
    elif card.kind == 2:  # a takeaway box
        svg.polygon([(x + 20, y + 62), (x + 38, y + 62), (x + 35, y + 75), (x + 23, y + 75)], fill=colour)
    else:  # a steamer basket: the tier's colour
        svg.rect(x + 19, y + 64, 20, 10, fill=colour, stroke=INK, rx=3)
    if count > 1:
        svg.badge(x + CARD_W - 4, y + 4, count)


def draw_back(svg: Svg, x: float, y: float, count: int = 1, fan: float = 0) -> None:
    """A face-down card (the deck), or ``count`` of them fanned ``fan`` apart (hidden cards in a
    hand) with a badge saying how many."""
    svg.zone()  # one piece: a replay page stores each distinct piece once
    for i in range(count if fan else 1):
        cx = x + i * fan
        svg.rect(cx, y, CARD_W, CARD_H, fill=BACK_COLOUR, stroke=INK, rx=5)
        svg.rect(cx + 5, y + 5, CARD_W - 10, CARD_H - 10, fill="none", stroke="#e9c46a", rx=3)
        svg.circle(cx + CARD_W / 2, y + CARD_H / 2, 11, fill="none", stroke="#e9c46a", stroke_width=2)
    if count > 1:
        svg.badge(x + (count - 1) * fan + CARD_W - 4, y + 4, count)


# -- what is drawn: one scene, from the whole table or from one seat's observation ---------------

def _expand(counts: Sequence[int]) -> List[int]:
    return [t for t, c in enumerate(counts) if c for _ in range(c)]


def _scene_all(state: Any) -> Dict[str, Any]:
    f = state.fields()
    d = state.to_dict()
    n = state.game.players
    seats = [{"shown": _expand(f["hands"][p]), "hidden": 0, "score": f["scores"][p]} for p in range(n)]
    notes = []
    if d["last_discard"] is not None:
        notes.append(f"last discard: {d['last_discard']}")
    notes.append(f"round starter: seat {d['starter']}")
    notes.append("declarations: " + ", ".join(str(v) for v in d["declarations"]))
    return {"round": d["round"], "turn": d["turn"], "phase": d["phase"], "seats": seats,
            "centre": list(f["centre"]), "deck": sum(f["deck"]), "last_taken": f["last_taken"],
            "notes": notes}


def _scene_seat(state: Any, p: int) -> Dict[str, Any]:
    o = observed(state, p)
    n = state.game.players
    T = state.game.spec.num_types
    seats = []
    for q in range(n):
        rel = (q - p) % n
        size = o["hand_sizes"][rel]
        if q == p:
            shown = _expand(o["hand"])
        else:  # what the others were seen taking from the centre and still hold (YC-14)
            block = (rel - 1) * T
            shown = _expand(o["known"][block:block + T])
        seats.append({"shown": shown, "hidden": size - len(shown), "score": o["scores"][rel]})
    phase = one_hot(o["phase"])
    taken = one_hot(o["last_taken"])
    return {"round": one_hot(o["round"]) or 0, "turn": o["turn"][0],
            "phase": ("draw", "discard")[phase] if phase is not None else None, "seats": seats,
            "centre": o["centre"], "deck": o["deck_size"][0], "last_taken": -1 if taken is None else taken,
            "notes": []}


def _headline(state: Any, scene: Dict[str, Any]) -> str:
    verbs = {"draw": "draws from the deck or the centre", "discard": "discards or declares"}
    who = who_acts(state, scene["phase"], verbs, "the dealer (chance) acts")
    rounds = state.game.options["rounds"]
    return f"Yum Cha · round {scene['round'] + 1} of {rounds} · turn {scene['turn'] + 1} · {who}"


def draw(state: Any, player: Optional[int], names: Optional[Sequence[str]] = None) -> Svg:
    cfg = state.game.spec
    scene = _scene_all(state) if player is None else _scene_seat(state, player)
    centre = [(t, c) for t, c in enumerate(scene["centre"]) if c]
    centre_rows = wrap(centre, PER_ROW)
    seat_rows = [wrap(list(range(len(s["shown"]) + min(s["hidden"], 1))), 13) for s in scene["seats"]]
    top = 58
    centre_h = max(132, 30 + len(centre_rows) * (CARD_H + GAP))
    seat_h = [28 + len(rows) * (CARD_H + GAP) for rows in seat_rows]
    svg = Svg(WIDTH, 0, title=_headline(state, scene))
    svg.banner([_headline(state, scene), view_line(player, "hand")])

    # the deck, face down, and the centre, face up (any centre card may be taken: YC-1)
    svg.panel(12, top, 90, centre_h, "Deck")
    if scene["deck"]:
        draw_back(svg, 28, top + 24)
    svg.text(57, top + 24 + CARD_H + 16, f"{scene['deck']} cards", size=11, anchor="middle")
    svg.panel(110, top, WIDTH - 122, centre_h, f"Centre ({sum(c for _, c in centre)} cards, face up)")
    for r, row in enumerate(centre_rows):
        for i, (t, c) in enumerate(row):
            draw_card(svg, cfg, t, 122 + i * (CARD_W + GAP), top + 22 + r * (CARD_H + GAP), c)
    if not centre:
        svg.text(122, top + 50, "empty", size=11, fill=MUTED)

    y = top + centre_h + 12
    for q, (seat, rows, h) in enumerate(zip(scene["seats"], seat_rows, seat_h)):
        to_act = q == state.current_player
        svg.panel(12, y, WIDTH - 24, h, "", stroke=HIGHLIGHT if to_act else "#c9bba5",
                  stroke_width=2 if to_act else 1)
        size = len(seat["shown"]) + seat["hidden"]
        label = f"{seat_label(q, player, names)} · {size} cards · {seat['score']} points"
        svg.text(22, y + 17, label + ("  ◀ to act" if to_act else ""), size=12, weight="bold",
                 fill=HIGHLIGHT if to_act else INK)
        shown = seat["shown"]
        for i, t in enumerate(shown):
            x = 22 + (i % 13) * (CARD_W + GAP)
            draw_card(svg, cfg, t, x, y + 24 + (i // 13) * (CARD_H + GAP),
                      mark=to_act and t == scene["last_taken"] and shown.index(t) == i)
        if seat["hidden"]:
            i = len(shown)
            draw_back(svg, 22 + (i % 13) * (CARD_W + GAP), y + 24 + (i // 13) * (CARD_H + GAP), seat["hidden"],
                      fan=16)
        y += h + 8
    notes = scene["notes"] + ([] if scene["last_taken"] < 0 else
                              [f"taken from the centre this turn: {cfg.types[scene['last_taken']].name}"])
    if notes:
        y = svg.paragraph(12, y + 12, " · ".join(notes), size=11, max_chars=140, fill=MUTED)
    ending = ending_line(state)
    if ending:
        y = svg.paragraph(12, y + 14, ending, size=12, max_chars=130, weight="bold")
    svg.height = y + 10
    return svg
