"""What a table page is sent of the game: ``seat_message(state, seat)``, built only from what that
seat may see, and ``spectator_message(state)``, built only from what every seat sees.

A seat's message holds its SVG picture (``state.to_svg(seat)``), its terminal view text, whose
turn it is, its legal moves by id and name when it is to act, the glass of a timed game and the
outcome at the end. A state and its ``resample(seat, ...)`` give the seat the same bytes (the
information contract; tests/test_web_messages.py checks it on every game).

The spectator sees what no seat hides: the zones of the pictures (``svg_pieces``) that every
seat's picture draws alike (``spectator_svg`` says which), the banner saying it is a spectator's.
"""

from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional

from .. import CHANCE
from ..play.views import view_text
from ..render import svg_pieces

_YOU = re.compile(r" \(you\)")
_VIEW_LINE = re.compile(r"Seat \d+&#39;s view: only what seat \d+ may see")
SPECTATOR_LINE = "A spectator&#39;s view: only what every seat sees"


def _names(state: Any, seat: Optional[int]) -> List[str]:
    return ["you" if p == seat else f"seat {p}" for p in range(state.game.players)]


def _glass(state: Any) -> Optional[Dict[str, Any]]:
    """A timed game's hourglass (public: the whole team sees the glass)."""
    if "ticks_per_action" not in state.game.options or state.game.options["ticks_per_action"] <= 0:
        return None
    clock = state.clock
    return {"top": int(clock.top), "capacity": int(clock.capacity), "lying": bool(clock.lying_down),
            "tps": int(state.game.options["ticks_per_second"])}


def _outcome(state: Any) -> Optional[Dict[str, Any]]:
    outcome = state.outcome
    if outcome is None:
        return None
    return {"description": outcome.description, "returns": [float(r) for r in outcome.returns],
            "winners": [int(w) for w in outcome.winners]}


def _to_act(state: Any) -> Optional[int]:
    if state.is_terminal:
        return None
    player = state.current_player
    return None if player == CHANCE else int(player)


def seat_message_dict(state: Any, seat: int) -> Dict[str, Any]:
    """``seat_message`` as a dict (the server adds the table's parts beside it)."""
    to_act = _to_act(state)
    moves = [[int(a), state.action_name(a)] for a in state.legal_actions()] if to_act == seat else []
    text = "" if state.is_chance_node else view_text(state, seat, _names(state, seat))
    return {"game": state.game.name, "seat": seat, "players": state.game.players, "to_act": to_act,
            "svg": "".join(svg_pieces(state, seat)), "text": text, "moves": moves,
            "glass": _glass(state), "outcome": _outcome(state)}


def seat_message(state: Any, seat: int) -> str:
    """The exact JSON (text) of the game a page of ``seat`` receives (its "view" part)."""
    return json.dumps(seat_message_dict(state, seat), sort_keys=True, separators=(",", ":"))


def _neutral(piece: str, drop_you: bool) -> str:
    """A zone without the banner's "whose view" line (and without "(you)" if ``drop_you``)."""
    return _VIEW_LINE.sub(SPECTATOR_LINE, _YOU.sub("", piece) if drop_you else piece)


def spectator_svg(state: Any) -> str:
    """What every seat's picture draws alike. In a game of perfect information (``GameInfo``:
    only the future is hidden) every zone is kept that all seats draw alike once the "(you)" marks
    are taken out (the whole table, in practice). In a game with hidden hands, the run of zones
    from the first that every seat draws alike, stopping at the first seat's own hand (its "(you)"
    panel): the pictures draw the public zones (banner, centre, deck) before the hands, and where a
    hand's cards are drawn depends on cards some seat cannot see."""
    from .. import game_info

    perfect = game_info(state.game.name).information == "perfect"
    views = [[_neutral(p, perfect) for p in svg_pieces(state, seat)] for seat in range(state.game.players)]
    first = views[0]
    kept = []
    for i, piece in enumerate(first[:-1]):
        alike = all(i < len(v) - 1 and v[i] == piece for v in views[1:])
        if not alike and not perfect:
            break
        if alike:
            kept.append(piece)
    if not kept:  # the frame (the svg element) is drawn alike by every picture
        kept.append(first[0])
    return "".join(kept) + first[-1]


def spectator_message_dict(state: Any) -> Dict[str, Any]:
    return {"game": state.game.name, "seat": None, "players": state.game.players, "to_act": _to_act(state),
            "svg": spectator_svg(state), "text": "", "moves": [], "glass": _glass(state),
            "outcome": _outcome(state)}


def spectator_message(state: Any) -> str:
    """The exact JSON (text) of the game a spectator's page receives (its "view" part)."""
    return json.dumps(spectator_message_dict(state), sort_keys=True, separators=(",", ":"))
