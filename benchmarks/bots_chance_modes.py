"""The bots' strength in both chance modes, and the heuristic's agreement between them.

Not a test (minutes of play): ``python -m benchmarks.bots_chance_modes [games] [positions]``
prints the tables docs/BOTS.md ("Chance modes") quotes.

1. Strength. For each game, each bot is played in both modes from the same game seeds: in
   ``chance="sampled"`` games apply draws the chance; in ``chance="explicit"`` games nature
   draws every chance node with its exact probability from a generator of its own, as
   OpenSpiel plays them (dimsum.testing's weighted choice), so the bots never see the state's
   generator resolve a real event. Competitive games: the bot under test in one seat (seat
   g % players in game g) against the weaker kind in the others (the heuristic against random
   players, IS-MCTS against heuristics); its win rate counts a shared win as a share. Dim Sum
   Jam is cooperative: a team of the bot in every seat, the share of games the team wins.
   Wilson 95% intervals (dimsum.arena.ratings.wilson).
2. Agreement. On ``positions`` decision positions per game reached by random play, equal in
   both modes (dimsum.testing.twin_positions), the share where a heuristic bot with the same
   seed picks the same action.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Dict, List, Tuple

import dimsum
from dimsum import bots
from dimsum.arena.ratings import wilson
from dimsum.reference.rng import Rng, derive_seed
from dimsum.testing import _weighted_choice as nature_draw  # an outcome with its exact probability
from dimsum.testing import twin_positions

# (game, options, bot under test, its parameters, the others' kind). IS-MCTS is kept cheap (50
# simulations); Yum Cha's IS-MCTS plays one-round games (a four-round rollout is 2,400 actions).
LINEUPS: List[Tuple[str, Dict[str, Any], str, Dict[str, Any], str]] = [
    ("pig", {}, "heuristic", {}, "random"),
    ("pig", {}, "ismcts", {"simulations": 50}, "heuristic"),
    ("nice_buns", {}, "heuristic", {}, "random"),
    ("nice_buns", {}, "ismcts", {"simulations": 50}, "heuristic"),
    ("yum_cha", {}, "heuristic", {}, "random"),
    ("yum_cha", {"rounds": 1}, "ismcts", {"simulations": 50}, "heuristic"),
    ("dim_sum_jam", {}, "heuristic", {}, "heuristic"),
    ("dim_sum_jam", {"players": 3}, "ismcts", {"simulations": 50}, "ismcts"),
]


def play_one(game: Any, kind: str, params: Dict[str, Any], others: str, seed: int) -> float:
    """The win (1, a share of a shared win, or 0) of the bot under test in game `seed`."""
    cooperative = game.name == "dim_sum_jam"
    seat = seed % game.players
    players = [bots.make(kind if p == seat or cooperative else others, game, seed=derive_seed(seed, p),
                         **(params if p == seat or cooperative else {})) for p in range(game.players)]
    nature = Rng(derive_seed(seed, 0xC4A1CE))
    state = game.new_state(seed)
    while not state.is_terminal:
        if state.is_chance_node:
            state.apply(nature_draw(state, nature))
        else:
            state.apply(players[state.current_player].act(state))
    winners = state.outcome.winners
    if cooperative:
        return 1.0 if winners else 0.0
    return 1.0 / len(winners) if seat in winners else 0.0


def strength(games: int) -> List[str]:
    rows = ["| game | bot (others) | sampled: win rate [95%] | explicit: win rate [95%] | overlap |",
            "| --- | --- | --- | --- | --- |"]
    for name, options, kind, params, others in LINEUPS:
        cells = []
        intervals = []
        for mode in ("sampled", "explicit"):
            game = dimsum.make(name, chance=mode, **options)
            wins = sum(play_one(game, kind, params, others, seed) for seed in range(games))
            low, high = wilson(wins, games)
            intervals.append((low, high))
            cells.append(f"{wins / games:.3f} [{low:.3f}, {high:.3f}]")
        spec = kind + "".join(f":{k}={v}" for k, v in params.items())
        setup = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
        against = "team" if name == "dim_sum_jam" else f"vs {others}"
        overlap = intervals[0][0] <= intervals[1][1] and intervals[1][0] <= intervals[0][1]
        rows.append(f"| {name} ({setup}) | {spec} ({against}) | {cells[0]} | {cells[1]} | "
                    f"{'yes' if overlap else 'NO'} |")
        print(rows[-1], file=sys.stderr, flush=True)
    return rows


def agreement(positions: int) -> List[str]:
    rows = ["| game | positions | same choice |", "| --- | ---: | ---: |"]
    for name in dimsum.games():
        sampled_game, explicit_game = dimsum.make(name), dimsum.make(name, chance="explicit")
        seen = same = seed = 0
        while seen < positions:
            for sampled, explicit in twin_positions(name, {}, seed):
                a = bots.make("heuristic", sampled_game, seed=seen).act(sampled)
                same += a == bots.make("heuristic", explicit_game, seed=seen).act(explicit)
                seen += 1
                if seen == positions:
                    break
            seed += 1
        rows.append(f"| {name} | {seen:,} | {same / seen:.2%} |")
        print(rows[-1], file=sys.stderr, flush=True)
    return rows


def main(argv: List[str]) -> None:
    games = int(argv[0]) if argv else 300
    positions = int(argv[1]) if len(argv) > 1 else 10_000
    wall, cpu = time.perf_counter(), time.process_time()
    print("\n".join(agreement(positions)))
    print()
    print("\n".join(strength(games)))
    print(f"\n({games} games per mode and line-up, {positions:,} positions per game; "
          f"{time.perf_counter() - wall:.0f} s wall, {time.process_time() - cpu:.0f} s CPU)")


if __name__ == "__main__":
    main(sys.argv[1:])
