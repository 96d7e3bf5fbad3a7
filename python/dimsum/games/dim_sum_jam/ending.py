"""How a Dim Sum Jam game ended (``ending``, behind ``dimsum.Outcome``) and the names of the
observation's entries (``observation_labels``, behind ``state.observation_string``)."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Tuple

from . import NUM_TABLES, OUTCOMES, PHASES, TOKEN_CODES, TYPE_NAMES

_REASONS = {
    "win": ("team_win", "The team fulfilled the last VIP order: everyone wins."),
    "deck_out": ("deck_out", "A table needed a card from the empty order deck with a VIP unfulfilled: "
                             "the team loses."),
    "complaints": ("complaints", "The team received its {complaints}th complaint: the team loses."),
}


def ending(cfg: Any, fields: Mapping[str, Any]) -> Tuple[str, str, Tuple[int, ...]]:
    """``(reason, description, winners)`` of a finished game from its state fields: the team's
    win (every seat wins), or a loss by the deck running out or by complaints (no seat wins)."""
    if fields["outcome"] < 0:
        raise ValueError("ending: the game is not over")
    outcome = OUTCOMES[fields["outcome"]]
    reason, text = _REASONS[outcome]
    complaints = fields["complaints"]
    text = text.replace("{complaints}th", {1: "1st", 2: "2nd", 3: "3rd"}.get(complaints, f"{complaints}th"))
    winners = tuple(range(cfg.players)) if outcome == "win" else ()
    return reason, text, winners


def _seats(cfg: Any) -> List[str]:
    """Seats relative to the observer: "me", then "+1" (the next seat clockwise), ..."""
    return ["me"] + [f"+{r}" for r in range(1, cfg.players)]


def observation_labels(cfg: Any) -> Dict[str, List[str]]:
    """A name for every entry of every observation slice (docs/rules/dim_sum_jam.md section 8)."""
    seats = _seats(cfg)
    numbers = [card.number for card in cfg.cards]
    tables = [f"table {k + 1}" for k in range(NUM_TABLES)]
    per_table = lambda names: [f"{t} {n}" for t in tables for n in names]  # noqa: E731
    return {
        "phase": list(PHASES),
        "current_player": seats,
        "active_player": seats,
        "hands": [f"{seat} {code}" for seat in seats for code in TOKEN_CODES],
        "bag": list(TOKEN_CODES),
        "discard": list(TOKEN_CODES),
        "table_cards": per_table([f"card {n}" for n in numbers]),
        "table_empty_icons": per_table([f"empty {name}" for name in TYPE_NAMES]),
        "table_tokens": per_table(TOKEN_CODES),
        "table_teas": [f"{t} teas" for t in tables],
        "required_table": ["any table"] + tables,
        "deck_backs": [f"deck {i + 1} {back}" for i in range(cfg.deck_length) for back in ("regular", "VIP")],
        "cards_out": [f"card {n}" for n in numbers],
        "counts": ["tea supply", "tea on reception", "complaints", "complaints left", "deck size"],
        "clock": ["top", "bottom", "lying down", "time on"],
        "turn": ["reversed", "stuck complained", "free redraws", "draw pending", "reverse used", "discarder"],
        "outcome": list(OUTCOMES),
    }
