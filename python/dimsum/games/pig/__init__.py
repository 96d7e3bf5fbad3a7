"""Pig: options, the die, the action space and the observation's names.

OpenSpiel's ``pig`` (its rules, its options by their OpenSpiel names, its defaults), and dimsum's
template game: the smallest package a game needs (docs/ADDING_A_GAME.md walks through it). No
rules logic lives here; src/dimsum_core/pig/ and dimsum.reference.pig hold the rules, and
docs/rules/pig.md states them (PIG-n).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Mapping

from ..._common import ActionSpace, GameConfig, GameInfo, Option, check_provenance, load_data, resolve_options
from .ending import ending  # noqa: F401  (state.outcome)

NAME = "pig"
# Nothing is hidden but the future rolls; the winner's +1 is paid by the others (OpenSpiel's returns).
INFO = GameInfo(title="Pig", information="perfect", utility="zero_sum", arena_options={"players": 2},
                picture=({"players": 3}, 5, 44))

MAX_PLAYERS = 10        # OpenSpiel's pig: 2 to 10
MAX_FACES = 100         # the core's kMaxFaces
MAX_WINSCORE = 10_000
MAX_HORIZON = 1_000_000

ROLL, HOLD = 0, 1


def _defaults() -> Dict[str, int]:
    """The die and the target of data/pig.json, their provenance checked."""
    data = load_data(NAME)
    check_provenance(data["die"], "pig data 'die'")
    check_provenance(data["target"], "pig data 'target'")
    return {"faces": data["die"]["faces"], "winscore": data["target"]["score"]}


_DEFAULT = _defaults()

OPTIONS: Dict[str, Option] = {o.name: o for o in (
    Option("players", 2, "number of players", kind=int, minimum=2, maximum=MAX_PLAYERS, ruling="PIG-1"),
    Option("winscore", _DEFAULT["winscore"], "the target score: the first to bank it wins", kind=int, minimum=1,
           maximum=MAX_WINSCORE, ruling="PIG-5"),
    Option("diceoutcomes", _DEFAULT["faces"], "the die's number of faces", kind=int, minimum=2, maximum=MAX_FACES,
           ruling="PIG-2"),
    Option("horizon", 1000, "the most decisions (rolls and holds) of a game; reaching it ends the game, no winner",
           kind=int, minimum=1, maximum=MAX_HORIZON, ruling="PIG-6"),
    Option("piglet", False, "OpenSpiel's piglet: a roll is a 1 (lose the turn total) or adds 1", kind=bool,
           ruling="PIG-7"),
)}


@dataclass(frozen=True)
class Config(GameConfig):
    winscore: int
    faces: int
    horizon: int
    piglet: bool

    @property
    def num_outcomes(self) -> int:
        """A roll's chance outcomes: one per face, or two with piglet (a 1, or not)."""
        return 2 if self.piglet else self.faces

    @property
    def max_gain(self) -> int:
        """The most one roll adds to the turn total."""
        return 1 if self.piglet else self.faces

    @property
    def max_total(self) -> int:
        """The highest score or turn total a game reaches: rolling stops at the target (PIG-3)."""
        return self.winscore - 1 + self.max_gain

    def points(self, outcome: int) -> int:
        """What a roll's outcome adds to the turn total; 0 is a 1, which loses it (PIG-3)."""
        return 0 if outcome == 0 else 1 if self.piglet else outcome + 1


def _chance_names(faces: int, piglet: bool) -> List[str]:
    """Outcome o: the die shows o + 1; piglet's two: a 1, or any other face."""
    if piglet:
        return ["roll 1", f"roll 2-{faces}"]
    return [f"roll {o + 1}" for o in range(faces)]


def _action_names(num_actions: int) -> List[str]:
    """roll and hold; the ids the chance outcomes share after them are never legal at a decision."""
    return ["roll", "hold"] + [f"unused {a}" for a in range(2, num_actions)]


def make_config(**options: Any) -> Config:
    opts = resolve_options(NAME, OPTIONS, options)
    players, faces, piglet = opts["players"], opts["diceoutcomes"], opts["piglet"]
    chance = _chance_names(faces, piglet)
    return Config(
        players=players, options=opts, winscore=opts["winscore"], faces=faces, horizon=opts["horizon"],
        piglet=piglet, action_space=ActionSpace(_action_names(max(2, len(chance)))),
        chance_space=ActionSpace(chance),
        min_return=-1.0 / (players - 1), max_return=1.0)


# ---------------------------------------------------------------------------------------------
# Names for the observation's one-hot entries (state.observation_string lists the set ones by
# name); the scores are shown as numbers, my seat first, zeros included.

def observation_labels(cfg: Config) -> Dict[str, List[str]]:
    seats = ["me"] + [f"seat+{k}" for k in range(1, cfg.players)]
    return {"turn_player": seats, "last_roll": list(cfg.chance_space.names)}


# ---------------------------------------------------------------------------------------------
# A readable picture of a state, from its to_dict()

def _to_act(d: Mapping[str, Any]) -> str:
    if d["current_player"] == -1:
        return "the game is over"
    if d["current_player"] == -2:
        return f"seat {d['turn_player']} rolls (chance to cast the die)"
    return f"seat {d['current_player']} to roll or hold"


def render(d: Mapping[str, Any]) -> str:
    last = d["last_roll"][len("roll "):] if d["last_roll"] is not None else "-"  # "roll 5" -> "5"
    lines = [f"Pig, move {d['moves']}, {_to_act(d)}",
             f"turn of seat {d['turn_player']}: turn total {d['turn_total']}, last roll {last}"]
    lines += [f"seat {p}: {score}" for p, score in enumerate(d["scores"])]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# The C++ core's view: its config fields by name (src/dimsum_core/pig/schema.cpp), and the
# readable dict of its state fields (state_dict.py)

def config_values(cfg: Config) -> Dict[str, Any]:
    return {"players": cfg.players, "winscore": cfg.winscore, "diceoutcomes": cfg.faces, "horizon": cfg.horizon,
            "piglet": int(cfg.piglet)}


def dict_from_fields(cfg: Config, fields: Mapping[str, Any]) -> Dict[str, Any]:
    from .state_dict import CODEC

    return CODEC.to_dict(cfg, fields)


def fields_from_dict(cfg: Config, d: Mapping[str, Any]) -> Dict[str, Any]:
    from .state_dict import CODEC

    return CODEC.from_dict(cfg, d)
