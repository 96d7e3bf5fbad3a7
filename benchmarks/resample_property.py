"""The resample property at scale: ``state.resample(p, seed)`` checked on >= 10,000
random (state, seat) pairs per game, and per deck-out option for Yum Cha, half in each chance mode.
Each pair passes tests/resample_checks.py's check_pair: the same information-state string, key and
observation for ``p``, ``check()``, reachable (explicit mode: the rewritten history replays to
it), and after a reshuffle a deck ``p`` knows to be possible. The test suite runs the same check
on a few hundred pairs (tests/test_resample_property.py).

    python -m benchmarks.resample_property                     # every game, 10,000 pairs each
    python -m benchmarks.resample_property --game yum_cha --deck-out reshuffle_centre --pairs 2000

Prints one line per (game, option): pairs checked, how many resamples changed the position
(hidden cards redrawn), how many were after a reshuffle (the deck witness applied), and the time.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import dimsum
from dimsum.testing import profile

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from resample_checks import check_pair, random_state  # noqa: E402

DECK_OUTS = ("washout", "reshuffle_centre", "centre_only")


def option_sets(name: str, deck_out: str | None) -> list:
    """The conformance option sets (docs/ADDING_A_GAME.md); for Yum Cha those of one deck-out
    option, with the option set on each, so that every player count and rule option is covered."""
    sets = [dict(o) for o in profile(name).conformance]
    if name != "yum_cha":
        return sets
    for o in sets:
        o["deck_out"] = deck_out
        if deck_out != "washout":  # long rounds: decks run out under deck-drawing play
            o["max_turns_per_round"] = max(o.get("max_turns_per_round", 300), 300)
    return sets


def run(name: str, deck_out: str | None, pairs: int, seed: int) -> dict:
    rng = random.Random(seed)
    sets = option_sets(name, deck_out)
    games = [dimsum.make(name, chance=mode, **o) for o in sets for mode in ("sampled", "explicit")]
    # the options that act once the deck runs out: play that draws from the deck, so that it does
    prefer_deck = 0.85 if deck_out in ("reshuffle_centre", "centre_only") else 0.0
    counts = {"pairs": 0, "redrawn": 0, "after_reshuffle": 0, "deck_empty": 0}
    start_cpu, start = time.process_time(), time.perf_counter()
    while counts["pairs"] < pairs:
        game = games[counts["pairs"] % len(games)]
        state, witness = random_state(game, rng, 900 if prefer_deck else 400, prefer_deck)
        p = rng.randrange(game.players)
        changed, witnessed = check_pair(game, state, p, rng.randrange(2**63), witness, rng)
        counts["redrawn"] += changed
        counts["after_reshuffle"] += witnessed
        counts["deck_empty"] += name == "yum_cha" and not state.is_terminal and not any(state.fields()["deck"])
        counts["pairs"] += 1
    counts["cpu_s"] = round(time.process_time() - start_cpu, 1)
    counts["wall_s"] = round(time.perf_counter() - start, 1)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=dimsum.games(), action="append", help="default: every game")
    parser.add_argument("--deck-out", choices=DECK_OUTS, action="append", help="Yum Cha only; default: all three")
    parser.add_argument("--pairs", type=int, default=10_000, help="pairs per game and deck-out option")
    parser.add_argument("--seed", type=int, default=2020)
    args = parser.parse_args()
    for name in args.game or dimsum.games():
        for deck_out in (args.deck_out or DECK_OUTS) if name == "yum_cha" else (None,):
            counts = run(name, deck_out, args.pairs, args.seed)
            label = f"{name} deck_out={deck_out}" if deck_out else name
            print(f"{label}: {counts['pairs']} pairs hold ({counts['redrawn']} with hidden cards redrawn, "
                  f"{counts['after_reshuffle']} after a reshuffle, {counts['deck_empty']} with the deck empty); {counts['cpu_s']} s CPU, {counts['wall_s']} s wall",
                  flush=True)


if __name__ == "__main__":
    main()
