"""Kuhn poker as a picture: a row a seat with its card, its chips in the pot and its betting, the
betting so far, and whose turn it is.

A seat's view (``player`` given) is drawn from that seat's observation alone (its own card and the
chips in the pot): every other card is drawn face down, even once the game is over (OpenSpiel's
observation never shows another card; who won is public, in the returns). The whole table
(``player`` None) shows every card.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from ...render.svg import HIGHLIGHT, INK, MUTED, Svg, seat_label
from ...render.view import ending_line, observed, one_hot, view_line, who_acts
from .betting import actions

WIDTH = 620
ROW_H, CARD_W, CARD_H = 58, 36, 50
FELT, CARD_FACE, CARD_BACK = "#2f6f4f", "#fffdf8", "#8c2f39"


def _cards(state: Any, player: Optional[int]) -> List[Optional[int]]:
    """The cards this picture may show: all for the whole table, else the seat's own (from its
    observation); None is face down (or not dealt)."""
    n = state.game.players
    if player is None:
        return [c if c >= 0 else None for c in state.fields()["cards"]]
    own = one_hot(observed(state, player)["private_card"])
    return [own if seat == player else None for seat in range(n)]


def _draw_card(svg: Svg, x: float, y: float, card: Optional[int], dealt: bool) -> None:
    svg.zone()
    if not dealt:
        svg.rect(x, y, CARD_W, CARD_H, fill="none", stroke=MUTED, rx=4)
    elif card is None:
        svg.rect(x, y, CARD_W, CARD_H, fill=CARD_BACK, stroke=INK, rx=4)
    else:
        svg.rect(x, y, CARD_W, CARD_H, fill=CARD_FACE, stroke=INK, rx=4, stroke_width=1.5)
        svg.text(x + CARD_W / 2, y + CARD_H / 2 + 7, card, size=20, anchor="middle", weight="bold")


def draw(state: Any, player: Optional[int], names: Optional[Sequence[str]] = None) -> Svg:
    n = state.game.players
    # public: the betting (every decision is seen by all) and how many seats hold a card
    public = state.fields()
    betting = actions(public)
    dealt = sum(1 for c in public["cards"] if c >= 0)
    contributions = observed(state, player if player is not None else 0)["pot_contribution"]
    cards = _cards(state, player)
    who = who_acts(state, "bet", {"bet": "passes or bets"}, f"chance deals seat {dealt} a card")
    headline = f"Kuhn poker · {n} players, cards 0 to {n} · pot {sum(contributions)} · {who}"
    svg = Svg(WIDTH, 0, title=headline)
    svg.banner([headline, view_line(player, "card")])
    top = 58
    svg.panel(12, top, WIDTH - 24, 30 + ROW_H * n, f"Betting so far: {betting or 'none'} (p pass, b bet)",
              fill=FELT, label_fill="#e8f0ea")
    for seat in range(n):
        y = top + 24 + ROW_H * seat
        acting = seat == state.current_player
        _draw_card(svg, 30, y, cards[seat], seat < dealt)
        svg.zone()
        svg.text(84, y + 22, seat_label(seat, player, names) + ("  ◀ to act" if acting else ""), size=13,
                 weight="bold", fill=HIGHLIGHT if acting else "#ffffff")
        mine = "".join(betting[i] for i in range(seat, len(betting), n)) or "-"
        svg.text(84, y + 40, f"{contributions[seat]} chip{'s' if contributions[seat] > 1 else ''} in the pot · "
                             f"decisions: {mine}", size=11, fill="#e8f0ea")
    y = top + 30 + ROW_H * n + 12
    ending = ending_line(state)
    if ending:
        y = svg.paragraph(12, y + 14, ending, size=12, max_chars=90, weight="bold")
    svg.height = y + 10
    return svg
