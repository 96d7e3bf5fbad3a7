"""``python -m dimsum``, the main job: play seeded random games and print results and throughput,
then a short arena between the strongest bots there are (dimsum.bots.kinds()), with its table.

    python -m dimsum                      # 2,000 games of every game, then the arena
    python -m dimsum --game nice_buns --games 500 --players 3 --threads 2 --arena-games 0

The closing arena plays the game that declares itself the showcase (``GameInfo.showcase``), with
the options it declares for an arena (``GameInfo.arena_options``).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from typing import List, Optional

import dimsum
from dimsum.cli.args import at_least


def _python_api_rate(game, seconds: float, seed: int) -> float:
    """Steps a second of a random game driven from Python through the per-move API."""
    rng = random.Random(seed)
    steps, start = 0, time.perf_counter()
    state = game.new_state(seed)
    while time.perf_counter() - start < seconds:
        for _ in range(1000):
            if state.is_terminal:
                seed += 1
                state = game.new_state(seed)
            state.apply(rng.choice(state.legal_actions()))
        steps += 1000
    return steps / (time.perf_counter() - start)


def _endings(game, n_games: int, seed: int) -> Counter:
    """Why random games end (dimsum.Outcome reasons), over games played through the per-move API."""
    rng = random.Random(seed)
    reasons: Counter = Counter()
    for i in range(n_games):
        state = game.new_state(seed + i)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        reasons[state.outcome.reason] += 1
    return reasons


# The bot kinds the arena shows, strongest first, each with a budget small enough that the arena
# part takes seconds. Kinds that do not exist (yet) are left out; so is one that refuses its budget.
SHOWCASE = (("ismcts", {"simulations": 100}), ("heuristic", {}), ("random", {}))


def showcase_specs(game) -> List[str]:
    """The spec strings of the showcase bots that exist and accept their budget."""
    from dimsum import bots
    from dimsum.arena.players import spec_name

    specs = []
    for kind, params in SHOWCASE:
        if kind not in bots.kinds():
            continue
        try:
            bots.make(kind, game, seed=0, **params)
        except (ValueError, TypeError):
            continue
        specs.append(spec_name(kind, params))
    return specs


def showcase_game() -> str:
    """The game of the closing arena: the first of ``dimsum.games()`` that declares itself the
    showcase, else the first game."""
    names = dimsum.games()
    return next((name for name in names if dimsum.game_info(name).showcase), names[0])


def _arena(game_name: str, n_games: int, seed: int) -> None:
    """A short tournament (progress on stderr, the table on stdout)."""
    import dimsum.arena

    game = dimsum.make(game_name, **dimsum.game_info(game_name).arena_options)
    specs = showcase_specs(game)
    if len(specs) == 1:
        specs = specs * 2  # only the random bot exists: it plays itself (a measure of seat advantage)
    print(f"\narena: {', '.join(specs)} at {game_name}, {game.players} players (python -m dimsum arena --help)")
    start = time.perf_counter()
    results = dimsum.arena.run(game, specs, games=n_games, seed=seed)
    elapsed = time.perf_counter() - start
    print(results.table())
    steps = sum(g.length for g in results.games)
    print(f"  {len(results.games)} games, {steps} bot moves in {elapsed:.1f} s "
          f"({steps / elapsed:,.0f} moves/s through the per-move API, bots included)")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dimsum", description=__doc__,
                                     epilog="Other commands: python -m dimsum help",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=dimsum.games(), help="the game to play (default: each game in turn)")
    parser.add_argument("--games", type=at_least(1), default=2000,
                        help="number of random games of each game (default 2000)")
    parser.add_argument("--players", type=int, help="seats (default: each game's own default)")
    parser.add_argument("--seed", type=at_least(0), default=0)
    parser.add_argument("--threads", type=at_least(1), default=1)
    parser.add_argument("--arena-games", type=at_least(0), default=120,
                        help="games of the closing arena, rounded up to whole rounds (default 120; 0: none)")
    parser.add_argument("--arena-game", default=showcase_game(), choices=dimsum.games(),
                        help="the game of the closing arena (default %(default)s, with its arena options)")
    args = parser.parse_args(argv)

    options = {} if args.players is None else {"players": args.players}
    try:
        games = [dimsum.make(name, **options) for name in ([args.game] if args.game else dimsum.games())]
    except (ValueError, TypeError) as e:
        parser.error(str(e))
    print(f"dimsum {dimsum.__version__}")
    for game in games:
        _random_games(game, args)
    if args.arena_games:
        _arena(args.arena_game, args.arena_games, args.seed)
    return 0


def _random_games(game, args: argparse.Namespace) -> None:
    """Seeded random games of ``game`` in C++, their endings and the per-move API's speed."""
    print(f"\n{args.games} random games of {game!r}")
    start = time.perf_counter()
    returns, lengths = dimsum.random_playouts(game, args.games, seed=args.seed, threads=args.threads)
    elapsed = time.perf_counter() - start
    steps = int(lengths.sum())
    print(f"  mean length {lengths.mean():.1f} actions (min {lengths.min()}, max {lengths.max()})")
    print("  mean return per seat: " + "  ".join(f"{p}: {r:.3f}" for p, r in enumerate(returns.mean(axis=0))))
    print(f"  C++ random playouts: {steps / elapsed / 1e6:.2f} M steps/s, {args.games / elapsed:,.0f} games/s "
          f"({elapsed * 1e9 / max(steps, 1):.0f} ns/step, {args.threads} thread(s))")
    sample = min(100, args.games)  # played again through the per-move API, for their dimsum.Outcome
    endings = _endings(game, sample, args.seed)
    print(f"  why {sample} of them end: " + ", ".join(f"{reason} {100 * n / sample:.0f}%"
                                                   for reason, n in endings.most_common())
          + " (uniformly random play: a measure of the engine, not of play)")
    rate = _python_api_rate(game, 0.5, args.seed)
    print(f"  Python per-move API: {rate / 1e6:.2f} M steps/s ({1e9 / rate:.0f} ns/step)")

