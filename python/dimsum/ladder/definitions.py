"""What each shipped ladder is made of: its rungs (bot specs anyone can make), how many games each
rung plays in the rung tournament, and the tournament's seed. ``python -m dimsum.ladder.build``
plays these and writes ``dimsum/data/ladder-<game>-<players>p.json``; a test checks that the
shipped files match these definitions and this ``VERSION``.

Change a definition (a rung, a count, the seed), or anything that changes how games play, and the
ratings move: raise ``VERSION`` and rebuild every ladder, so that a rating cited with its ladder
version keeps its meaning.

Rungs span the bots that ship: the uniformly random bot (the scale's anchor in competitive games,
rated 1000), IS-MCTS with random rollouts and no heuristic bias at 8 simulations (a bridge between
random and the heuristic), the game's heuristic bot, the shipped policy where there is one for the
game and player count, and IS-MCTS at budgets the machine that built them could afford. A pair of
rungs plays as many games as the smaller of their ``games`` (rounded up to whole rounds), so slow
rungs play fewer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple

VERSION = 1
ANCHOR = "random"  # competitive ladders: this rung's rating is fixed at ANCHOR_RATING
ANCHOR_RATING = 1000.0
BUILD_SEED = 1

RANDOM = "random"
BRIDGE = "ismcts:bias=0,rollout=random,simulations=8"
HEURISTIC = "heuristic"
POLICY = "policy:weights=shipped"


def ismcts(simulations: int) -> str:
    return f"ismcts:simulations={simulations}"


@dataclass(frozen=True)
class RungDefinition:
    spec: str  # also the rung's name: a spec written the way dimsum.arena names it (parameters sorted)
    games: int  # games this rung plays against each other rung (a pair plays the smaller count)


@dataclass(frozen=True)
class LadderDefinition:
    game: str
    players: int
    rungs: Tuple[RungDefinition, ...]
    seed: int = BUILD_SEED

    @property
    def name(self) -> str:
        return ladder_name(self.game, self.players)


def ladder_name(game: str, players: int) -> str:
    return f"{game}-{players}p"


def _ladder(game: str, players: int, *rungs: Tuple[str, int]) -> LadderDefinition:
    return LadderDefinition(game, players, tuple(RungDefinition(spec, games) for spec, games in rungs))


# Every game at its default player count, and each count the package ships a policy for. Sizes:
# about 15 minutes of one CPU for all of them (docs/LADDER.md gives the intervals they bought).
DEFINITIONS: Dict[str, LadderDefinition] = {d.name: d for d in (
    _ladder("pig", 2, (RANDOM, 400), (BRIDGE, 400), (HEURISTIC, 400), (ismcts(32), 400), (ismcts(128), 400)),
    _ladder("nice_buns", 2, (RANDOM, 300), (BRIDGE, 300), (HEURISTIC, 300), (POLICY, 300), (ismcts(32), 300),
            (ismcts(128), 200)),
    _ladder("nice_buns", 4, (RANDOM, 140), (HEURISTIC, 140), (POLICY, 140), (ismcts(32), 112), (ismcts(128), 56)),
    _ladder("yum_cha", 4, (RANDOM, 140), (HEURISTIC, 140), (POLICY, 140), (ismcts(4), 28)),
    _ladder("dim_sum_jam", 4, (RANDOM, 400), (HEURISTIC, 400), (POLICY, 400), (ismcts(8), 300), (ismcts(32), 200),
            (ismcts(128), 100)),
)}


def definition(game: str, players: int) -> Optional[LadderDefinition]:
    return DEFINITIONS.get(ladder_name(game, players))


def default_definition(game: str, players: int, games: int = 200) -> LadderDefinition:
    """A ladder for a game and player count that ships none: random, the bridge (not in a
    cooperative game, where random and the heuristic are rated apart anyway), the heuristic, the
    shipped policy if there is one, IS-MCTS at 32 and 128 simulations; ``games`` each."""
    import dimsum
    from ..baselines.shipped import shipped

    cooperative = dimsum.game_info(game).cooperative
    specs = [RANDOM] + ([] if cooperative else [BRIDGE]) + [HEURISTIC]
    specs += [POLICY] if ladder_name(game, players) in shipped() else []
    specs += [ismcts(32), ismcts(128)]
    return _ladder(game, players, *((spec, games) for spec in specs))
