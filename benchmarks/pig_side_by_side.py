"""Nice Buns' C++ playouts against OpenSpiel's pig in its native rollout loop, side by side.

    PYTHONPATH=python python -m benchmarks.pig_side_by_side [--games 200] [--rounds 5] [--callgrind]

pig's native loop is ``pyspiel.evaluate_bots`` with C++ uniform random bots: one Python call
plays a whole game in C++ (the bots' steps, chance sampled in C++). Nice Buns' is
``dimsum.random_playouts`` (one thread). Both play with the same number of players (pig's
``players`` parameter), so "per game" compares games of the same table size.

- **Time**: the two loops run alternately in each round (the same machine for both), every
  round on fresh seeds (a replayed game lets the branch predictor learn it); medians of the
  rounds. Both are timed in CPU time of the calling thread (``time.thread_time``, where both
  loops run), not wall time: on a shared machine a loop that runs longer is preempted more
  often, and wall time would charge it the other processes' time slices. Nice Buns plays
  ``--nb-factor`` times as many games as pig in a round, so that both loops run for a similar
  time. "Loop only" also takes out pig's per-game Python calls (the bots and a state made).
- **Instructions** (``--callgrind``): each loop under ``valgrind --tool=callgrind`` at N games
  and at 0 (interpreter start-up and imports cancel out), the difference per decision and per
  game: the same on every run of the same build.

"Per decision" is per player decision. Every step of a sampled Nice Buns game is one (dice and
draws happen inside ``apply``); pig's decisions per game are counted in a Python loop over the
same game and policy, as ``evaluate_bots`` does not report them.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAYERS = (2, 4)


def pig_game(pyspiel, players: int):
    return pyspiel.load_game("pig", {"players": players})


def pig_decisions_per_game(game, games: int = 2000, seed: int = 0) -> float:
    """The mean number of player decisions in a uniformly random game of pig (2,000 games give
    it to about 1-2%)."""
    from .workloads import openspiel_random_step

    rng = random.Random(seed)
    decisions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            decisions += openspiel_random_step(state, rng)
    return decisions / games


def play_pig(pyspiel, game, games: int, seeds) -> None:
    """``games`` games of pig in its native loop, each on fresh seeds from the iterator."""
    players = game.num_players()
    for _ in range(games):
        bots = [pyspiel.make_uniform_random_bot(p, next(seeds)) for p in range(players)]
        pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seeds))


def pig_setup_only(pyspiel, game, games: int, seeds) -> None:
    """What play_pig spends in Python per game, without the game: the bots and a state made."""
    players = game.num_players()
    for _ in range(games):
        [pyspiel.make_uniform_random_bot(p, next(seeds)) for p in range(players)]
        game.new_initial_state()


def timed_rounds(games: int = 200, rounds: int = 5, players=PLAYERS, nb_factor: int = 20, seeds=None) -> dict:
    """CPU seconds per game of each loop in every round (pig plays `games` games a round, Nice
    Buns nb_factor times as many), alternating within every round. Returns {players: {"pig":
    [...], "pig_setup": [...], "nice_buns": [...], "decisions": [...]}}, "decisions" being Nice
    Buns' decisions per game in each round. `seeds`: an iterator of fresh seeds (pass the same
    one to calls that make one round each, so that no round replays another's games)."""
    import pyspiel

    import dimsum

    from .workloads import CONFIGS

    seeds = seeds if seeds is not None else iter(range(1, 10**9))
    out = {p: {"pig": [], "pig_setup": [], "nice_buns": [], "decisions": []} for p in players}
    ours = {p: dimsum.make("nice_buns", **dict(CONFIGS["nice_buns"], players=p)) for p in players}
    pigs = {p: pig_game(pyspiel, p) for p in players}
    clock = time.thread_time
    nb_games = games * nb_factor
    for _ in range(rounds):
        for p in players:
            start = clock()
            play_pig(pyspiel, pigs[p], games, seeds)
            out[p]["pig"].append((clock() - start) / games)
            start = clock()
            pig_setup_only(pyspiel, pigs[p], games, seeds)
            out[p]["pig_setup"].append((clock() - start) / games)
            start = clock()
            _, lengths = dimsum.random_playouts(ours[p], nb_games, seed=next(seeds))
            out[p]["nice_buns"].append((clock() - start) / nb_games)
            out[p]["decisions"].append(int(lengths.sum()) / nb_games)
    return out


def time_table(measured: dict, pig_decisions: dict) -> list:
    """Rows of ns per decision and the ratios pig / Nice Buns, per decision and per game."""
    rows = []
    for p, m in measured.items():
        ours = statistics.median(m["nice_buns"])  # seconds per game
        our_decisions = statistics.mean(m["decisions"])  # per game
        pig = statistics.median(m["pig"])
        pig_loop = pig - statistics.median(m["pig_setup"])
        pig_d = pig_decisions[p]
        rows.append({
            "players": p,
            "nice_buns_ns_per_decision": ours / our_decisions * 1e9,
            "nice_buns_decisions_per_game": our_decisions,
            "pig_ns_per_decision": pig / pig_d * 1e9,
            "pig_loop_ns_per_decision": pig_loop / pig_d * 1e9,
            "pig_decisions_per_game": pig_d,
            "per_decision": (pig / pig_d) / (ours / our_decisions),
            "per_game": pig / ours,
            "loop_per_decision": (pig_loop / pig_d) / (ours / our_decisions),
            "loop_per_game": pig_loop / ours,
        })
    return rows


# -- callgrind --------------------------------------------------------------------------------------

PIG_WORKLOAD = r"""
import sys, pyspiel
players, games, play = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "play"
game = pyspiel.load_game("pig", {"players": players})
pyspiel.make_uniform_random_bot(0, 1); game.new_initial_state()  # first calls: paid by every run
for i in range(games):
    bots = [pyspiel.make_uniform_random_bot(p, 1000 * i + p) for p in range(players)]
    state = game.new_initial_state()
    if play:
        pyspiel.evaluate_bots(state, bots, i)
print("DONE")
"""

NICE_BUNS_WORKLOAD = r"""
import sys, dimsum
players, games = int(sys.argv[1]), int(sys.argv[2])
game = dimsum.make("nice_buns", players=players)
returns, lengths = dimsum.random_playouts(game, games, seed=1)
print("DECISIONS", int(lengths.sum()))
"""


def callgrind_total(script: str, *args) -> tuple:
    """Instructions of one run of `script` under callgrind, and what it printed."""
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={Path(tmp) / 'cg.out'}", sys.executable,
             "-c", script, *map(str, args)],
            capture_output=True, text=True, env=env, check=False)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    if proc.returncode != 0 or not refs:
        raise RuntimeError(f"valgrind failed:\n{proc.stderr[-2000:]}")
    return int(refs.group(1).replace(",", "")), proc.stdout


def callgrind_table(players=PLAYERS, games: int = 300, pig_games: int = 1000, pig_decisions=None) -> list:
    """Instructions per decision and per game of both loops (a run of 0 games subtracted)."""
    rows = []
    for p in players:
        base, _ = callgrind_total(NICE_BUNS_WORKLOAD, p, 0)
        total, printed = callgrind_total(NICE_BUNS_WORKLOAD, p, games)
        decisions = int(re.search(r"DECISIONS (\d+)", printed).group(1))
        pig_base, _ = callgrind_total(PIG_WORKLOAD, p, 0, "play")
        pig_total, _ = callgrind_total(PIG_WORKLOAD, p, pig_games, "play")
        pig_setup, _ = callgrind_total(PIG_WORKLOAD, p, pig_games, "setup")
        pig_per_game = (pig_total - pig_base) / pig_games
        pig_loop_per_game = (pig_total - pig_setup) / pig_games  # evaluate_bots alone
        rows.append({
            "players": p,
            "nice_buns_per_decision": (total - base) / decisions,
            "nice_buns_per_game": (total - base) / games,
            "pig_per_decision": pig_per_game / pig_decisions[p],
            "pig_per_game": pig_per_game,
            "pig_loop_per_decision": pig_loop_per_game / pig_decisions[p],
            "pig_loop_per_game": pig_loop_per_game,
        })
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games of pig per round")
    parser.add_argument("--nb-factor", type=int, default=20, help="Nice Buns plays this many times pig's games")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--pig-count-games", type=int, default=4000,
                        help="games of the Python loop that counts pig's decisions per game")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions (valgrind)")
    args = parser.parse_args(argv)
    import pyspiel

    pig_decisions = {p: pig_decisions_per_game(pig_game(pyspiel, p), args.pig_count_games) for p in PLAYERS}
    rows = time_table(timed_rounds(args.games, args.rounds, nb_factor=args.nb_factor), pig_decisions)
    print("| players | Nice Buns ns/decision | decisions/game | pig ns/decision | pig decisions/game "
          "| / pig per decision | / pig per game | / pig loop only, per decision | per game |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['players']} | {r['nice_buns_ns_per_decision']:.1f} | {r['nice_buns_decisions_per_game']:.1f} "
              f"| {r['pig_ns_per_decision']:.1f} | {r['pig_decisions_per_game']:.1f} | {r['per_decision']:.2f}x "
              f"| {r['per_game']:.2f}x | {r['loop_per_decision']:.2f}x | {r['loop_per_game']:.2f}x |")
    if args.callgrind:
        print("\n| players | Nice Buns instr/decision | instr/game | pig instr/decision (loop only) "
              "| instr/game (loop only) | pig / Nice Buns per decision (loop only) | per game (loop only) |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for r in callgrind_table(pig_decisions=pig_decisions):
            ours_d, ours_g = r["nice_buns_per_decision"], r["nice_buns_per_game"]
            print(f"| {r['players']} | {ours_d:.0f} | {ours_g:,.0f} "
                  f"| {r['pig_per_decision']:.0f} ({r['pig_loop_per_decision']:.0f}) "
                  f"| {r['pig_per_game']:,.0f} ({r['pig_loop_per_game']:,.0f}) "
                  f"| {r['pig_per_decision'] / ours_d:.2f}x ({r['pig_loop_per_decision'] / ours_d:.2f}x) "
                  f"| {r['pig_per_game'] / ours_g:.2f}x ({r['pig_loop_per_game'] / ours_g:.2f}x) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
