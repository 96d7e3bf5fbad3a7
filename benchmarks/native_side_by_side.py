"""A dimsum game's C++ playouts against an OpenSpiel game in its native rollout loop, side by side:
Nice Buns or dimsum's pig against OpenSpiel's ``pig``, Dim Sum Jam against OpenSpiel's ``hanabi``.

    PYTHONPATH=python python -m benchmarks.native_side_by_side --peer hanabi [--game dim_sum_jam]
        [--players 3 4] [--games 100] [--rounds 7] [--callgrind]

(``benchmarks/pig_side_by_side.py`` is this with ``--peer pig``, its defaults and its table.)

The peer's native loop is ``pyspiel.evaluate_bots`` with C++ uniform random bots: one Python call
plays a whole game in C++ (the bots' steps, chance sampled in C++). dimsum's is
``dimsum.random_playouts`` (one thread). Both play with the same number of players (the peer's
``players`` parameter), so "per game" compares games of the same table size.

- **Time**: the two loops run alternately in each round (the same machine for both), every
  round on fresh seeds (a replayed game lets the branch predictor learn it); medians of the
  rounds. Both are timed in CPU time of the calling thread (``time.thread_time``, where both
  loops run), not wall time: on a shared machine a loop that runs longer is preempted more
  often, and wall time would charge it the other processes' time slices. Wall time is recorded
  beside it. dimsum plays ``--ours-factor`` times as many games as the peer in a round, so that
  both loops run for a similar time. "Loop only" also takes out the peer's per-game Python calls
  (the bots and a state made).
- **Instructions** (``--callgrind``): each loop under ``valgrind --tool=callgrind`` at N games
  and at 0 (interpreter start-up and imports cancel out), the difference per decision and per
  game: the same on every run of the same build.

"Per decision" is per player decision. Every step of a sampled dimsum game is one (its random
events happen inside ``apply``); the peer's decisions per game are counted in a Python loop over
the same game and policy, as ``evaluate_bots`` does not report them. "Per apply" counts each
side's applied actions: OpenSpiel applies its chance outcomes (a roll, a card dealt) as actions
of their own, a sampled dimsum game draws inside the decision's apply, so per apply is the
stricter measure for dimsum (its apply does more).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Peer:
    """An OpenSpiel game and the dimsum games it is compared with."""
    name: str             # pyspiel.load_game's name
    games: tuple          # dimsum games that may be compared with it, the default first
    players: tuple        # the default player counts
    ours_factor: int      # dimsum plays this many times the peer's games a round (similar times)
    peer_games: int       # the peer's games a round

    def params(self, players: int) -> dict:
        return {"players": players}


PEERS = {
    "pig": Peer("pig", ("nice_buns", "pig"), (2, 4), ours_factor=20, peer_games=200),
    "hanabi": Peer("hanabi", ("dim_sum_jam",), (3, 4), ours_factor=25, peer_games=100),
}


def peer_game(pyspiel, peer: str, players: int):
    return pyspiel.load_game(peer, PEERS[peer].params(players))


def peer_counts_per_game(game, games: int = 2000, seed: int = 0) -> tuple:
    """The mean numbers of player decisions and of applied actions (chance outcomes included) in
    a uniformly random game of an OpenSpiel game (2,000 games give them to about 1-2%)."""
    from .workloads import openspiel_random_step

    rng = random.Random(seed)
    decisions = applies = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            decisions += openspiel_random_step(state, rng)
            applies += 1
    return decisions / games, applies / games


def play_peer(pyspiel, game, games: int, seeds) -> None:
    """``games`` games of the peer in its native loop, each on fresh seeds from the iterator."""
    players = game.num_players()
    for _ in range(games):
        bots = [pyspiel.make_uniform_random_bot(p, next(seeds)) for p in range(players)]
        pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seeds))


def peer_setup_only(pyspiel, game, games: int, seeds) -> None:
    """What play_peer spends in Python per game, without the game: the bots and a state made."""
    players = game.num_players()
    for _ in range(games):
        [pyspiel.make_uniform_random_bot(p, next(seeds)) for p in range(players)]
        game.new_initial_state()


def timed_rounds(peer: str, ours_game: str, players, games: int, rounds: int, ours_factor: int,
                 seeds=None) -> dict:
    """CPU seconds per game of each loop in every round (the peer plays `games` games a round,
    the dimsum game `ours_game` ours_factor times as many), alternating within every round.
    Returns {players: {"peer": [...], "peer_setup": [...], "ours": [...], "decisions": [...],
    "peer_wall": [...], "ours_wall": [...]}}, "decisions" being our game's decisions (= applies)
    per game in each round. `seeds`: an iterator of fresh seeds (pass the same one to calls that
    make one round each, so that no round replays another's games)."""
    import pyspiel

    import dimsum

    from .workloads import CONFIGS

    seeds = seeds if seeds is not None else iter(range(1, 10**9))
    keys = ("peer", "peer_setup", "ours", "decisions", "peer_wall", "ours_wall")
    out = {p: {k: [] for k in keys} for p in players}
    ours = {p: dimsum.make(ours_game, **dict(CONFIGS[ours_game], players=p)) for p in players}
    peers = {p: peer_game(pyspiel, peer, p) for p in players}
    clock, wall = time.thread_time, time.perf_counter
    our_games = games * ours_factor
    for _ in range(rounds):
        for p in players:
            start, start_wall = clock(), wall()
            play_peer(pyspiel, peers[p], games, seeds)
            out[p]["peer"].append((clock() - start) / games)
            out[p]["peer_wall"].append((wall() - start_wall) / games)
            start = clock()
            peer_setup_only(pyspiel, peers[p], games, seeds)
            out[p]["peer_setup"].append((clock() - start) / games)
            start, start_wall = clock(), wall()
            _, lengths = dimsum.random_playouts(ours[p], our_games, seed=next(seeds))
            out[p]["ours"].append((clock() - start) / our_games)
            out[p]["ours_wall"].append((wall() - start_wall) / our_games)
            out[p]["decisions"].append(int(lengths.sum()) / our_games)
    return out


def time_table(measured: dict, peer_counts: dict) -> list:
    """Rows of ns per decision and per apply and the ratios peer / ours, per decision, per apply
    and per game, with the range over rounds of the per-decision ratio (each round's ratio, its
    loops timed side by side). `peer_counts`: {players: (decisions, applies) per game}
    (peer_counts_per_game)."""
    rows = []
    for p, m in measured.items():
        ours = statistics.median(m["ours"])  # seconds per game
        our_decisions = statistics.mean(m["decisions"])  # per game; every one an apply
        peer = statistics.median(m["peer"])
        peer_loop = peer - statistics.median(m["peer_setup"])
        peer_d, peer_a = peer_counts[p]
        # the ratio in each round: the two loops of a round ran side by side
        round_ratios = [(pe / peer_d) / (o / d) for pe, o, d in zip(m["peer"], m["ours"], m["decisions"])]
        row = {
            "players": p,
            "ours_ns_per_decision": ours / our_decisions * 1e9,
            "ours_decisions_per_game": our_decisions,
            "peer_ns_per_decision": peer / peer_d * 1e9,
            "peer_loop_ns_per_decision": peer_loop / peer_d * 1e9,
            "peer_loop_ns_per_apply": peer_loop / peer_a * 1e9,
            "peer_decisions_per_game": peer_d,
            "peer_applies_per_game": peer_a,
            "per_decision": (peer / peer_d) / (ours / our_decisions),
            "per_decision_range": (min(round_ratios), max(round_ratios)),
            "per_game": peer / ours,
            "loop_per_decision": (peer_loop / peer_d) / (ours / our_decisions),
            "loop_per_apply": (peer_loop / peer_a) / (ours / our_decisions),
            "loop_per_game": peer_loop / ours,
        }
        if m.get("ours_wall") and m.get("peer_wall"):
            ours_wall, peer_wall = statistics.median(m["ours_wall"]), statistics.median(m["peer_wall"])
            row["per_decision_wall"] = (peer_wall / peer_d) / (ours_wall / our_decisions)
        rows.append(row)
    return rows


# -- callgrind --------------------------------------------------------------------------------------

PEER_WORKLOAD = r"""
import json, sys, pyspiel
name, params, games, play = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "play"
game = pyspiel.load_game(name, params)
players = game.num_players()
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


def ours_instructions(ours_game: str, players: int, games: int) -> tuple:
    """Instructions of `games` C++ playouts (a 0-game run subtracted) and the decisions played."""
    base, _ = callgrind_total(OURS_WORKLOAD, ours_game, players, 0)
    total, printed = callgrind_total(OURS_WORKLOAD, ours_game, players, games)
    return total - base, int(re.search(r"DECISIONS (\d+)", printed).group(1))


def peer_instructions(peer: str, players: int, games: int) -> tuple:
    """Instructions per game of the peer's native loop: everything (the bots and a state made
    from Python included; a 0-game run subtracted) and evaluate_bots alone."""
    params = json.dumps(PEERS[peer].params(players))
    base, _ = callgrind_total(PEER_WORKLOAD, peer, params, 0, "play")
    total, _ = callgrind_total(PEER_WORKLOAD, peer, params, games, "play")
    setup, _ = callgrind_total(PEER_WORKLOAD, peer, params, games, "setup")
    return (total - base) / games, (total - setup) / games


def callgrind_table(peer: str, ours_game: str, players, games: int, peer_games: int, peer_counts: dict) -> list:
    """Instructions per decision, per apply and per game of both loops (a run of 0 games
    subtracted)."""
    rows = []
    for p in players:
        ours, decisions = ours_instructions(ours_game, p, games)
        peer_per_game, peer_loop_per_game = peer_instructions(peer, p, peer_games)
        rows.append({
            "players": p,
            "ours_per_decision": ours / decisions,
            "ours_per_game": ours / games,
            "peer_per_decision": peer_per_game / peer_counts[p][0],
            "peer_per_game": peer_per_game,
            "peer_loop_per_decision": peer_loop_per_game / peer_counts[p][0],
            "peer_loop_per_apply": peer_loop_per_game / peer_counts[p][1],
            "peer_loop_per_game": peer_loop_per_game,
        })
    return rows


# -- the report -----------------------------------------------------------------------------------

def print_time_table(rows: list, ours_game: str, peer: str, rounds: int) -> None:
    print(f"{ours_game} (dimsum, C++ playouts, one thread) against OpenSpiel's {peer} (evaluate_bots); CPU "
          f"time, medians of {rounds} rounds; ratio = OpenSpiel's {peer} / dimsum's {ours_game} (above 1: "
          "dimsum's is faster)\n")
    print(f"| players | {ours_game} ns/decision (= apply) | decisions/game | {peer} ns/decision "
          f"| {peer} loop ns/apply | {peer} decisions/game | applies/game | / {peer} per decision (range over "
          f"rounds) | wall time | / {peer} per game | / {peer} loop only, per decision | per apply | per game |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        low, high = r["per_decision_range"]
        wall = f"{r['per_decision_wall']:.2f}x" if "per_decision_wall" in r else ""
        print(f"| {r['players']} | {r['ours_ns_per_decision']:.1f} | {r['ours_decisions_per_game']:.1f} "
              f"| {r['peer_ns_per_decision']:.1f} | {r['peer_loop_ns_per_apply']:.1f} "
              f"| {r['peer_decisions_per_game']:.1f} | {r['peer_applies_per_game']:.1f} "
              f"| {r['per_decision']:.2f}x ({low:.2f}-{high:.2f}) | {wall} | {r['per_game']:.2f}x "
              f"| {r['loop_per_decision']:.2f}x | {r['loop_per_apply']:.2f}x | {r['loop_per_game']:.2f}x |")


def print_callgrind_table(rows: list, ours_game: str, peer: str) -> None:
    print(f"\n| players | {ours_game} instr/decision (= apply) | instr/game | {peer} instr/decision (loop only) "
          f"| {peer} loop instr/apply | instr/game (loop only) | {peer} / ours per decision (loop only) "
          "| per apply, loop only | per game (loop only) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        ours_d, ours_g = r["ours_per_decision"], r["ours_per_game"]
        print(f"| {r['players']} | {ours_d:.0f} | {ours_g:,.0f} "
              f"| {r['peer_per_decision']:.0f} ({r['peer_loop_per_decision']:.0f}) | {r['peer_loop_per_apply']:.0f} "
              f"| {r['peer_per_game']:,.0f} ({r['peer_loop_per_game']:,.0f}) "
              f"| {r['peer_per_decision'] / ours_d:.2f}x ({r['peer_loop_per_decision'] / ours_d:.2f}x) "
              f"| {r['peer_loop_per_apply'] / ours_d:.2f}x "
              f"| {r['peer_per_game'] / ours_g:.2f}x ({r['peer_loop_per_game'] / ours_g:.2f}x) |")


def parser_for(peer_default: str = "hanabi", description: str = __doc__) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer", default=peer_default, choices=sorted(PEERS), help="OpenSpiel's side")
    parser.add_argument("--game", default=None, help="dimsum's side (default: the peer's first game)")
    parser.add_argument("--players", type=int, nargs="+", default=None, help="player counts (both sides)")
    parser.add_argument("--games", type=int, default=None, help="games of the peer per round")
    parser.add_argument("--ours-factor", type=int, default=None, help="our game plays this many times the peer's games")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--peer-count-games", type=int, default=4000,
                        help="games of the Python loop that counts the peer's decisions per game")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions (valgrind)")
    parser.add_argument("--callgrind-games", type=int, default=300, help="our games under callgrind")
    parser.add_argument("--callgrind-peer-games", type=int, default=None,
                        help="the peer's games under callgrind (default: pig 1000, hanabi 300)")
    return parser


def run(args) -> int:
    import pyspiel

    spec = PEERS[args.peer]
    name = args.game or spec.games[0]
    if name not in spec.games:
        raise SystemExit(f"--game {name!r}: the peer {args.peer!r} is compared with {', '.join(spec.games)}")
    players = tuple(args.players or spec.players)
    games = args.games or spec.peer_games
    factor = args.ours_factor or spec.ours_factor
    counts = {p: peer_counts_per_game(peer_game(pyspiel, args.peer, p), args.peer_count_games) for p in players}
    measured = timed_rounds(args.peer, name, players, games, args.rounds, factor)
    print_time_table(time_table(measured, counts), name, args.peer, args.rounds)
    print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.callgrind:
        peer_games = args.callgrind_peer_games or (1000 if args.peer == "pig" else 300)
        print_callgrind_table(callgrind_table(args.peer, name, players, args.callgrind_games, peer_games, counts),
                              name, args.peer)
    return 0


def main(argv=None) -> int:
    return run(parser_for().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
