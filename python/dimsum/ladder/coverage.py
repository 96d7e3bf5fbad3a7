"""Does a copy of a rung get that rung's rating? Rates one rung of a ladder as a candidate (under
another name) with seeds 0 to N-1 and counts the seeds whose 95% interval holds the rung's own
rating: about 95% of them if the ratings and intervals are right (docs/LADDER.md).

    python -m dimsum.ladder.coverage --ladder pig-2p --rung heuristic --seeds 20 --width 150
    python -m dimsum.ladder.coverage --ladder nice_buns-2p --rung heuristic --seeds 20 --one-seat

``--one-seat`` rates as the MCP server rates an agent (``dimsum.mcp.ladder_tools``): the candidate
in one seat a game, each game dealt on its own; otherwise as ``python -m dimsum ladder`` does
(``dimsum.ladder.rate``: the arena's rounds, duplicate deals). Prints one line a seed and the count,
with the CPU time used.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, List, Optional

from ..reference.rng import derive_seed
from .ladders import Ladder
from .rater import DEFAULT_MAX_GAMES, Rater

DEALS = 0x4445414C  # "DEAL": a one-seat game's own deal, apart from the match's seeds


def rate_one_seat(ladder: Ladder, spec: str, seed: int, width: Optional[float] = None,
                  max_games: int = DEFAULT_MAX_GAMES) -> Rater:
    """Rates the bot ``spec`` as the MCP server rates an agent: one seat a game, each game its own
    deal; the candidate and the rung play on copies whose future is redrawn, as in the arena."""
    import dimsum.bots

    game = ladder.make_game()
    kind, params = dimsum.bots.parse_spec(spec)
    rater = Rater(ladder, seed, width, max_games, one_seat=True)
    while (plan := rater.next_match()) is not None:
        assert plan.rung is not None  # a competitive ladder: every match is against a rung
        rung_kind, rung_params = dimsum.bots.parse_spec(plan.rung.spec)
        results = []
        for planned in plan.games():
            bots = {s: dimsum.bots.make(rung_kind, game, seed=planned.rung_seeds[s], **rung_params)
                    for s in planned.rung_seeds}
            for s in planned.candidate_seats:
                bots[s] = dimsum.bots.make(kind, game, seed=plan.schedule.bot_seed(planned.index, s), **params)
            state = game.new_state(derive_seed(plan.seed ^ DEALS, planned.index))
            futures = derive_seed(plan.seed ^ DEALS, planned.index + (1 << 32))
            step = 0
            while not state.is_terminal:
                state.apply(bots[state.current_player].act(state.clone(derive_seed(futures, step))))
                step += 1
            results.append({"index": planned.index, "returns": state.returns(), "winners": state.outcome.winners})
        rater.record(plan, results)
    return rater


def main(argv: Optional[List[str]] = None) -> int:
    import dimsum.ladder

    p = argparse.ArgumentParser(prog="python -m dimsum.ladder.coverage", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ladder", required=True, choices=dimsum.ladder.shipped())
    p.add_argument("--rung", required=True, help="the rung to rate as a candidate (its spec)")
    p.add_argument("--seeds", type=int, default=20)
    p.add_argument("--width", type=float, help="as python -m dimsum ladder's (default 100)")
    p.add_argument("--max-games", type=int, default=DEFAULT_MAX_GAMES)
    p.add_argument("--one-seat", action="store_true", help="as the MCP server rates an agent")
    args = p.parse_args(argv)
    ladder = dimsum.ladder.load_file(dimsum.ladder.ladders.shipped_path(args.ladder))
    try:
        target = ladder.rung(args.rung)
    except ValueError as e:
        p.error(str(e))
    if ladder.cooperative and args.one_seat:
        p.error(f"{ladder.name} rates a team: --one-seat does not apply")
    started = _cpu()
    covered, games = 0, 0
    for seed in range(args.seeds):
        if args.one_seat:
            rater = rate_one_seat(ladder, target.spec, seed, args.width, args.max_games)
            estimate, played = rater.estimate(), rater.games_played
        else:
            report: Any = dimsum.ladder.rate(ladder, target.spec, seed=seed, width=args.width,
                                             max_games=args.max_games, progress=False, name="copy")
            estimate, played = report.rating, report.games
        inside = estimate.low <= target.rating <= estimate.high
        covered += inside
        games += played
        print(f"seed {seed:3d}: {estimate.value:8.3f} [{estimate.low:.3f}, {estimate.high:.3f}] {played:4d} games "
              f"{'covers' if inside else 'MISSES'} {target.rating:.3f}", flush=True)
    mode = "one seat a game, own deals" if args.one_seat else "the arena's rounds"
    print(f"{args.rung} on {ladder.name} ({mode}): its rating inside the interval in {covered} of {args.seeds} "
          f"seeds; {games} games, {_cpu() - started:.1f} s CPU")
    return 0


def _cpu() -> float:
    times = os.times()
    return time.process_time() + times.children_user + times.children_system


if __name__ == "__main__":
    sys.exit(main())
