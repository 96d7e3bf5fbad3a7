"""A dimsum game's C++ playouts (Nice Buns, or dimsum's pig: the same rules as OpenSpiel's)
against OpenSpiel's pig in its native rollout loop, side by side.

    PYTHONPATH=python python -m benchmarks.pig_side_by_side [--game nice_buns|pig] [--games 200] [--rounds 5] [--callgrind]

This is ``benchmarks/native_side_by_side.py`` with ``--peer pig`` (how both loops are timed and
counted is said there), under the names the pig benchmarks have always used (``pig_*`` keys,
``--nb-factor``, ``--pig-count-games``). pig's native loop is ``pyspiel.evaluate_bots`` with C++
uniform random bots; Nice Buns' is ``dimsum.random_playouts`` (one thread); both with the same
number of players (pig's ``players`` parameter). "Per apply" counts each side's applied actions:
OpenSpiel's pig applies its chance outcomes as actions of their own (a roll is a decision and a
chance node), a sampled dimsum game rolls inside the decision's apply.
"""

from __future__ import annotations

import argparse
import sys

from . import native_side_by_side as native
from .native_side_by_side import OURS_WORKLOAD, PEER_WORKLOAD as PIG_WORKLOAD, callgrind_total  # noqa: F401

PLAYERS = native.PEERS["pig"].players


def _pig_keys(d: dict) -> dict:
    """native_side_by_side's "peer..." keys under their pig names."""
    return {(("pig" + k[4:]) if k.startswith("peer") else k): v for k, v in d.items()}


def pig_game(pyspiel, players: int):
    return native.peer_game(pyspiel, "pig", players)


pig_counts_per_game = native.peer_counts_per_game
play_pig = native.play_peer
pig_setup_only = native.peer_setup_only


def timed_rounds(games: int = 200, rounds: int = 5, players=PLAYERS, nb_factor: int = 20, seeds=None,
                 ours_game: str = "nice_buns") -> dict:
    """native_side_by_side.timed_rounds against pig: {players: {"pig": [...], "pig_setup": [...],
    "ours": [...], "decisions": [...], ...}} (CPU seconds per game in every round)."""
    measured = native.timed_rounds("pig", ours_game, players, games, rounds, nb_factor, seeds)
    return {p: _pig_keys(m) for p, m in measured.items()}


def time_table(measured: dict, pig_counts: dict) -> list:
    """native_side_by_side.time_table, with pig's keys (pig_ns_per_decision, ...)."""
    peer_keyed = {p: {(("peer" + k[3:]) if k.startswith("pig") else k): v for k, v in m.items()}
                  for p, m in measured.items()}
    return [_pig_keys(row) for row in native.time_table(peer_keyed, pig_counts)]


def callgrind_table(players=PLAYERS, games: int = 300, pig_games: int = 1000, pig_counts=None,
                    ours_game: str = "nice_buns") -> list:
    """Instructions per decision, per apply and per game of both loops (a run of 0 games subtracted)."""
    rows = native.callgrind_table("pig", ours_game, players, games, pig_games, pig_counts)
    return [_pig_keys(row) for row in rows]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="nice_buns", choices=native.PEERS["pig"].games, help="dimsum's side")
    parser.add_argument("--games", type=int, default=200, help="games of pig per round")
    parser.add_argument("--nb-factor", type=int, default=20, help="our game plays this many times pig's games")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--pig-count-games", type=int, default=4000,
                        help="games of the Python loop that counts pig's decisions per game")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions (valgrind)")
    args = parser.parse_args(argv)
    return native.run(argparse.Namespace(
        peer="pig", game=args.game, players=list(PLAYERS), games=args.games, ours_factor=args.nb_factor,
        rounds=args.rounds, peer_count_games=args.pig_count_games, callgrind=args.callgrind,
        callgrind_games=300, callgrind_peer_games=1000))


if __name__ == "__main__":
    sys.exit(main())
