"""Builds a ladder: plays its rung tournament with the arena and fits the rungs' ratings.

    python -m dimsum.ladder.build                         # every shipped ladder, into dimsum/data/
    python -m dimsum.ladder.build --ladder pig-2p --workers 2
    python -m dimsum.ladder.build --game yum_cha --players 2 --out my-ladder.json   # one that ships none

Competitive games: every pair of rungs plays an arena match of two bots (every seat assignment,
duplicate deals: ``dimsum.arena.schedule``) of as many games as the smaller of their counts; a
game scores the pair as :mod:`.scores` says; the ratings are the arena's Bradley-Terry fit on the
Elo scale, shifted so that the anchor (random) is 1000; each rung's interval is its fit against
the others held fixed (:func:`.estimate.fit_fixed`, the rule a new bot is rated by).
Cooperative games: every rung plays the game as a team, its rating the win rate with its Wilson
interval. The games' seeds come from the ladder's seed, so the same definition gives the same
ladder on any machine and for any number of workers.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..reference.rng import derive_seed
from .definitions import ANCHOR, ANCHOR_RATING, DEFINITIONS, VERSION, LadderDefinition, default_definition, ladder_name
from .estimate import Observation, fit_fixed, rung_ratings, win_rate
from .ladders import Ladder, Match, Rung, shipped_path
from .scores import pair_score, team_score


def command(definition: LadderDefinition) -> str:
    """The command that rebuilds ``definition``'s ladder."""
    if definition.name in DEFINITIONS:
        return f"python -m dimsum.ladder.build --ladder {definition.name}"
    return f"python -m dimsum.ladder.build --game {definition.game} --players {definition.players} --out FILE"


def play_matches(definition: LadderDefinition, workers: int = 1, ray: Optional[str] = None, progress: bool = True,
                 say: Callable[[str], None] = lambda text: None) -> Tuple[Match, ...]:
    """The rung tournament: one arena run per pair of rungs (per rung, in a cooperative game)."""
    import dimsum
    import dimsum.arena

    game = dimsum.make(definition.game, players=definition.players)
    cooperative = dimsum.game_info(definition.game).cooperative
    rungs = definition.rungs
    groups = [(r,) for r in rungs] if cooperative else list(itertools.combinations(rungs, 2))
    matches = []
    for index, group in enumerate(groups):
        seed = derive_seed(definition.seed, index)
        started = time.process_time() + _children_seconds()
        results = dimsum.arena.run(game, [r.spec for r in group], games=min(r.games for r in group), seed=seed,
                                   workers=workers, ray=ray, progress=progress)
        rounds: Dict[int, float] = {}
        for g in results.games:
            score = team_score(g.winners) if cooperative else pair_score(g.lineup, g.returns)
            rounds[g.round] = rounds.get(g.round, 0.0) + score
        match = Match(tuple(r.spec for r in group), seed, len(results.games),
                      tuple(rounds[r] for r in range(results.schedule.rounds)))
        cpu = time.process_time() + _children_seconds() - started
        say(f"{' vs '.join(match.bots)}: {match.games} games, first bot's score {sum(match.round_scores):g} "
            f"({cpu:.1f} s CPU)")
        matches.append(match)
    return tuple(matches)


def _children_seconds() -> float:
    times = os.times()
    return times.children_user + times.children_system


def fit(definition: LadderDefinition, matches: Sequence[Match]) -> Tuple[Rung, ...]:
    """The rungs' ratings and intervals from their tournament (module docstring)."""
    import dimsum

    names = [r.spec for r in definition.rungs]
    if dimsum.game_info(definition.game).cooperative:
        rungs = []
        for match in matches:
            estimate = win_rate(sum(match.round_scores), match.games)
            rungs.append(Rung(match.bots[0], estimate.value, (estimate.low, estimate.high), match.games))
        return tuple(rungs)
    scores = {(names.index(m.bots[0]), names.index(m.bots[1])): (sum(m.round_scores), m.games) for m in matches}
    ratings = rung_ratings(names, scores, names.index(ANCHOR), ANCHOR_RATING)
    rungs = []
    for j, name in enumerate(names):
        observations = observations_of(name, matches, dict(zip(names, ratings)))
        games = sum(o.games for o in observations)
        if name == ANCHOR:
            interval = (ANCHOR_RATING, ANCHOR_RATING)  # the scale's zero: exact by definition
        else:
            alone = fit_fixed(observations)  # the others held fixed: the rule a new bot is rated by
            interval = (ratings[j] - (alone.value - alone.low), ratings[j] + (alone.high - alone.value))
        rungs.append(Rung(name, ratings[j], interval, games))
    return tuple(rungs)


def observations_of(name: str, matches: Sequence[Match], ratings: Dict[str, float]) -> List[Observation]:
    """Rung ``name``'s rounds in the tournament, as a candidate's would be: its score per round
    against the other rung, and how many games the round had."""
    found = []
    for m, match in enumerate(matches):
        if name not in match.bots:
            continue
        other = match.bots[1] if match.bots[0] == name else match.bots[0]
        per_round = match.games // len(match.round_scores)
        for r, score in enumerate(match.round_scores):
            mine = score if match.bots[0] == name else per_round - score
            found.append(Observation(ratings[other], mine, (m, r), per_round))
    return found


def build(definition: LadderDefinition, workers: int = 1, ray: Optional[str] = None, progress: bool = True,
          say: Callable[[str], None] = lambda text: None) -> Ladder:
    """Plays ``definition``'s rung tournament and returns the ladder."""
    import dimsum

    game = dimsum.make(definition.game, players=definition.players)
    cooperative = dimsum.game_info(definition.game).cooperative
    matches = play_matches(definition, workers, ray, progress, say)
    return Ladder(definition.name, VERSION, definition.game, definition.players, dict(game.options),
                  "win_rate" if cooperative else "elo", None if cooperative else (ANCHOR, ANCHOR_RATING),
                  command(definition), definition.seed, dimsum.__version__, fit(definition, matches), matches)


def main(argv: Optional[List[str]] = None) -> int:
    import dimsum

    p = argparse.ArgumentParser(prog="python -m dimsum.ladder.build", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ladder", action="append", choices=sorted(DEFINITIONS), help="a shipped ladder (repeatable; "
                   "default: all of them)")
    p.add_argument("--game", choices=dimsum.games(), help="a ladder that ships none (with --players and --out)")
    p.add_argument("--players", type=int)
    p.add_argument("--out", help="where to write it (default, for shipped ladders: dimsum/data/ladder-NAME.json)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS")
    p.add_argument("--no-progress", action="store_true")
    args = p.parse_args(argv)
    if args.game is not None:
        if args.ladder:
            p.error("--ladder and --game exclude each other")
        players = args.players if args.players is not None else dimsum.make(args.game).players
        name = ladder_name(args.game, players)
        definitions = [DEFINITIONS[name] if name in DEFINITIONS else default_definition(args.game, players)]
        if name not in DEFINITIONS and args.out is None:
            p.error(f"{name} is not a shipped ladder: give --out FILE")
    else:
        definitions = [DEFINITIONS[name] for name in (args.ladder or sorted(DEFINITIONS))]
    if args.out is not None and len(definitions) != 1:
        p.error("--out writes one ladder: name it with --ladder or --game")
    for definition in definitions:
        started = time.process_time() + _children_seconds()
        print(f"{definition.name}: {len(definition.rungs)} rungs", flush=True)
        ladder = build(definition, args.workers, args.ray, not args.no_progress,
                       lambda text: print("  " + text, flush=True))
        out = Path(args.out) if args.out is not None else shipped_path(definition.name)
        ladder.save(out)
        for rung in sorted(ladder.rungs, key=lambda r: r.rating):
            print(f"  {rung.name:<45} {rung.rating:8.3f}  [{rung.interval[0]:.3f}, {rung.interval[1]:.3f}]  "
                  f"{rung.games} games")
        cpu = time.process_time() + _children_seconds() - started
        print(f"  -> {out} ({cpu:.0f} s CPU)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
