"""A dimsum game's C++ playouts (Nice Buns, or dimsum's own pig: the same rules as OpenSpiel's)
against OpenSpiel's pig in its native rollout loop, side by side.

    PYTHONPATH=python python -m benchmarks.pig_side_by_side [--game nice_buns|pig] [--games 200] [--rounds 5] [--callgrind]

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

"Per decision" is per player decision. Every step of a sampled dimsum game is one (dice and
draws happen inside ``apply``); pig's decisions per game are counted in a Python loop over the
same game and policy, as ``evaluate_bots`` does not report them. "Per apply" counts each side's
applied actions: OpenSpiel's pig applies its chance outcomes as actions of their own (a roll is a
decision and a chance node), a sampled dimsum game rolls inside the decision's apply, so per
apply is the stricter measure for dimsum (its apply does more).
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


def pig_counts_per_game(game, games: int = 2000, seed: int = 0) -> tuple:
    """The mean numbers of player decisions and of applied actions (chance outcomes included) in
    a uniformly random game of pig (2,000 games give them to about 1-2%)."""
    from .workloads import openspiel_random_step

    rng = random.Random(seed)
    decisions = applies = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            decisions += openspiel_random_step(state, rng)
            applies += 1
    return decisions / games, applies / games


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


def timed_rounds(games: int = 200, rounds: int = 5, players=PLAYERS, nb_factor: int = 20, seeds=None,
                 ours_game: str = "nice_buns") -> dict:
    """CPU seconds per game of each loop in every round (pig plays `games` games a round, the
    dimsum game `ours_game` nb_factor times as many), alternating within every round. Returns
    {players: {"pig": [...], "pig_setup": [...], "ours": [...], "decisions": [...]}}, "decisions"
    being our game's decisions (= applies) per game in each round. `seeds`: an iterator of fresh
    seeds (pass the same one to calls that make one round each, so that no round replays another's
    games)."""
    import pyspiel

    import dimsum

    from .workloads import CONFIGS

    seeds = seeds if seeds is not None else iter(range(1, 10**9))
    out = {p: {"pig": [], "pig_setup": [], "ours": [], "decisions": []} for p in players}
    ours = {p: dimsum.make(ours_game, **dict(CONFIGS[ours_game], players=p)) for p in players}
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
            out[p]["ours"].append((clock() - start) / nb_games)
            out[p]["decisions"].append(int(lengths.sum()) / nb_games)
    return out


def time_table(measured: dict, pig_counts: dict) -> list:
    """Rows of ns per decision and per apply and the ratios pig / ours, per decision, per apply and
    per game. `pig_counts`: {players: (decisions, applies) per game} (pig_counts_per_game)."""
    rows = []
    for p, m in measured.items():
        ours = statistics.median(m["ours"])  # seconds per game
        our_decisions = statistics.mean(m["decisions"])  # per game; every one an apply
        pig = statistics.median(m["pig"])
        pig_loop = pig - statistics.median(m["pig_setup"])
        pig_d, pig_a = pig_counts[p]
        rows.append({
            "players": p,
            "ours_ns_per_decision": ours / our_decisions * 1e9,
            "ours_decisions_per_game": our_decisions,
            "pig_ns_per_decision": pig / pig_d * 1e9,
            "pig_loop_ns_per_decision": pig_loop / pig_d * 1e9,
            "pig_loop_ns_per_apply": pig_loop / pig_a * 1e9,
            "pig_decisions_per_game": pig_d,
            "pig_applies_per_game": pig_a,
            "per_decision": (pig / pig_d) / (ours / our_decisions),
            "per_game": pig / ours,
            "loop_per_decision": (pig_loop / pig_d) / (ours / our_decisions),
            "loop_per_apply": (pig_loop / pig_a) / (ours / our_decisions),
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

OURS_WORKLOAD = r"""
import sys, dimsum
name, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = dimsum.make(name, players=players)
returns, lengths = dimsum.random_playouts(game, games, seed=1)
print("DECISIONS", int(lengths.sum()))
"""


def callgrind_total(script: str, *args, tool_args=()) -> tuple:
    """Instructions of one run of `script` under callgrind, and what it printed (and, with
    tool_args=("--branch-sim=yes",), valgrind's summary with the simulated mispredictions)."""
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", *tool_args, f"--callgrind-out-file={Path(tmp) / 'cg.out'}",
             sys.executable, "-c", script, *map(str, args)],
            capture_output=True, text=True, env=env, check=False)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    if proc.returncode != 0 or not refs:
        raise RuntimeError(f"valgrind failed:\n{proc.stderr[-2000:]}")
    return int(refs.group(1).replace(",", "")), proc.stdout


def callgrind_table(players=PLAYERS, games: int = 300, pig_games: int = 1000, pig_counts=None,
                    ours_game: str = "nice_buns") -> list:
    """Instructions per decision, per apply and per game of both loops (a run of 0 games
    subtracted)."""
    rows = []
    for p in players:
        base, _ = callgrind_total(OURS_WORKLOAD, ours_game, p, 0)
        total, printed = callgrind_total(OURS_WORKLOAD, ours_game, p, games)
        decisions = int(re.search(r"DECISIONS (\d+)", printed).group(1))
        pig_base, _ = callgrind_total(PIG_WORKLOAD, p, 0, "play")
        pig_total, _ = callgrind_total(PIG_WORKLOAD, p, pig_games, "play")
        pig_setup, _ = callgrind_total(PIG_WORKLOAD, p, pig_games, "setup")
        pig_per_game = (pig_total - pig_base) / pig_games
        pig_loop_per_game = (pig_total - pig_setup) / pig_games  # evaluate_bots alone
        rows.append({
            "players": p,
            "ours_per_decision": (total - base) / decisions,
            "ours_per_game": (total - base) / games,
            "pig_per_decision": pig_per_game / pig_counts[p][0],
            "pig_per_game": pig_per_game,
            "pig_loop_per_decision": pig_loop_per_game / pig_counts[p][0],
            "pig_loop_per_apply": pig_loop_per_game / pig_counts[p][1],
            "pig_loop_per_game": pig_loop_per_game,
        })
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="nice_buns", choices=("nice_buns", "pig"), help="dimsum's side")
    parser.add_argument("--games", type=int, default=200, help="games of pig per round")
    parser.add_argument("--nb-factor", type=int, default=20, help="our game plays this many times pig's games")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--pig-count-games", type=int, default=4000,
                        help="games of the Python loop that counts pig's decisions per game")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions (valgrind)")
    args = parser.parse_args(argv)
    import pyspiel

    name = args.game
    pig_counts = {p: pig_counts_per_game(pig_game(pyspiel, p), args.pig_count_games) for p in PLAYERS}
    rows = time_table(timed_rounds(args.games, args.rounds, nb_factor=args.nb_factor, ours_game=name), pig_counts)
    print(f"{name} (dimsum, C++ playouts, one thread) against OpenSpiel's pig (evaluate_bots); CPU time, "
          f"medians of {args.rounds} rounds; ratio = OpenSpiel's pig / dimsum's {name} (above 1: dimsum's is faster)\n")
    print(f"| players | {name} ns/decision (= apply) | decisions/game | pig ns/decision | pig loop ns/apply "
          "| pig decisions/game | applies/game | / pig per decision | / pig per game "
          "| / pig loop only, per decision | per apply | per game |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['players']} | {r['ours_ns_per_decision']:.1f} | {r['ours_decisions_per_game']:.1f} "
              f"| {r['pig_ns_per_decision']:.1f} | {r['pig_loop_ns_per_apply']:.1f} | {r['pig_decisions_per_game']:.1f} "
              f"| {r['pig_applies_per_game']:.1f} | {r['per_decision']:.2f}x | {r['per_game']:.2f}x "
              f"| {r['loop_per_decision']:.2f}x | {r['loop_per_apply']:.2f}x | {r['loop_per_game']:.2f}x |")
    if args.callgrind:
        print(f"\n| players | {name} instr/decision (= apply) | instr/game | pig instr/decision (loop only) "
              "| pig loop instr/apply | instr/game (loop only) | pig / ours per decision (loop only) "
              "| per apply, loop only | per game (loop only) |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for r in callgrind_table(pig_counts=pig_counts, ours_game=name):
            ours_d, ours_g = r["ours_per_decision"], r["ours_per_game"]
            print(f"| {r['players']} | {ours_d:.0f} | {ours_g:,.0f} "
                  f"| {r['pig_per_decision']:.0f} ({r['pig_loop_per_decision']:.0f}) | {r['pig_loop_per_apply']:.0f} "
                  f"| {r['pig_per_game']:,.0f} ({r['pig_loop_per_game']:,.0f}) "
                  f"| {r['pig_per_decision'] / ours_d:.2f}x ({r['pig_loop_per_decision'] / ours_d:.2f}x) "
                  f"| {r['pig_loop_per_apply'] / ours_d:.2f}x "
                  f"| {r['pig_per_game'] / ours_g:.2f}x ({r['pig_loop_per_game'] / ours_g:.2f}x) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
