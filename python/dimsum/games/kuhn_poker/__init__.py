"""Kuhn poker: its option, the deck, the action space and the observation's names.

OpenSpiel's ``kuhn_poker`` (its rules, its one option by its OpenSpiel name, its default), and
dimsum's hidden-information template game: Pig's package plus what a game with private cards adds
(its own ``resample`` in the core, ``resample_history`` for explicit chance, seat views that hide
the other cards; docs/ADDING_A_GAME.md). No rules logic lives here; src/dimsum_core/kuhn_poker/ and
dimsum.reference.kuhn_poker hold the rules, and docs/rules/kuhn_poker.md states them (KP-n).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Mapping

from ..._common import ActionSpace, GameConfig, GameInfo, Option, check_provenance, load_data, resolve_options
from .ending import ending  # noqa: F401  (state.outcome)
from .hidden_history import resample_history  # noqa: F401  (explicit mode's resample: dimsum._views)

NAME = "kuhn_poker"
# Each seat's card is hidden from the others; the winner's gain is the others' loss (OpenSpiel's
# kuhn_poker: imperfect information, zero-sum).
INFO = GameInfo(title="Kuhn Poker", information="imperfect", utility="zero_sum", arena_options={"players": 2},
                picture=({"players": 3}, 3, 2))

MAX_PLAYERS = 10  # OpenSpiel's kuhn_poker: 2 to 10

PASS, BET = 0, 1


def _chips() -> Dict[str, int]:
    """The deck and the chips of data/kuhn_poker.json, their provenance checked."""
    data = load_data(NAME)
    check_provenance(data["deck"], "kuhn_poker data 'deck'")
    check_provenance(data["chips"], "kuhn_poker data 'chips'")
    return {"extra_cards": data["deck"]["extra_cards"], "ante": data["chips"]["ante"], "bet": data["chips"]["bet"]}


CHIPS = _chips()
# The core's rules are written for these (src/dimsum_core/kuhn_poker/rules.cpp): the data file
# records where they come from, and a change to it must fail here rather than disagree there.
if CHIPS != {"extra_cards": 1, "ante": 1, "bet": 1}:
    raise ValueError(f"kuhn_poker data: {CHIPS}; the engine plays OpenSpiel's deck of players + 1 cards, "
                     "ante 1 and bet 1")

OPTIONS: Dict[str, Option] = {o.name: o for o in (
    Option("players", 2, "number of players; the deck has one card more", kind=int, minimum=2, maximum=MAX_PLAYERS,
           ruling="KP-1"),
)}


@dataclass(frozen=True)
class Config(GameConfig):
    @property
    def num_cards(self) -> int:
        """The deck: cards 0 (lowest) to players (highest) (KP-2)."""
        return self.players + 1

    @property
    def max_decisions(self) -> int:
        """The longest betting: all pass but the last seat, who bets, and the others answer (KP-5)."""
        return 2 * self.players - 1


def card_name(card: int) -> str:
    return f"card {card}"


def make_config(**options: Any) -> Config:
    opts = resolve_options(NAME, OPTIONS, options)
    players = opts["players"]
    cards = players + 1
    # chance outcome k deals card k; the decisions pass and bet share ids 0 and 1, and the ids the
    # deal uses beyond them are never legal at a decision (common/engine.hpp: outcomes <= actions)
    return Config(
        players=players, options=opts,
        action_space=ActionSpace(["pass", "bet"] + [f"unused {a}" for a in range(2, cards)]),
        chance_space=ActionSpace([f"deal {card_name(k)}" for k in range(cards)]),
        min_return=-2.0, max_return=2.0 * (players - 1))


# ---------------------------------------------------------------------------------------------
# Names for the observation's one-hot entries (state.observation_string lists the set ones by
# name); the pot contributions are shown as numbers, seat 0 first.

def observation_labels(cfg: Config) -> Dict[str, List[str]]:
    return {"player": [f"seat {p}" for p in range(cfg.players)],
            "private_card": [card_name(k) for k in range(cfg.num_cards)]}


# ---------------------------------------------------------------------------------------------
# A readable picture of a state, from its to_dict() (the whole table: every card)

def _to_act(d: Mapping[str, Any]) -> str:
    if d["current_player"] == -1:
        return "the game is over"
    if d["current_player"] == -2:
        return "chance deals"
    return f"seat {d['current_player']} to pass or bet"


def render(d: Mapping[str, Any]) -> str:
    lines = [f"Kuhn poker, {len(d['cards'])} players, {_to_act(d)}",
             f"betting: {d['betting'] or '-'} (p pass, b bet)"]
    lines += [f"seat {p}: {'-' if card is None else card_name(card)}" for p, card in enumerate(d["cards"])]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# The C++ core's view: its config fields by name (src/dimsum_core/kuhn_poker/schema.cpp), and the
# readable dict of its state fields (state_dict.py)

def config_values(cfg: Config) -> Dict[str, Any]:
    return {"players": cfg.players}


def dict_from_fields(cfg: Config, fields: Mapping[str, Any]) -> Dict[str, Any]:
    from .state_dict import CODEC

    return CODEC.to_dict(cfg, fields)


def fields_from_dict(cfg: Config, d: Mapping[str, Any]) -> Dict[str, Any]:
    from .state_dict import CODEC

    return CODEC.from_dict(cfg, d)
