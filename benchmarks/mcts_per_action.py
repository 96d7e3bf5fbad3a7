"""IS-MCTS per simulation and per simulated action: dimsum's ``ismcts`` on Nice Buns and on Pig
against OpenSpiel's ``MCTSBot`` on pig, one thread, side by side in one run.

    PYTHONPATH=python python -m benchmarks.mcts_per_action [--rounds 3] [--players 2 4] [--callgrind]

**A simulated action** is a player decision applied during a simulation: the actions of the tree
descent plus those of the rollout. Chance outcomes are not decisions and are not counted on
either side: dimsum (sampled chance) draws the dice and bags inside apply; OpenSpiel's pig has
explicit chance nodes, which its MCTS keeps in the tree and its rollouts sample, and they are left
out of its count. So on the same game (Pig) both sides count the same thing.

- dimsum: ``ismcts`` with ``rollout="random"``, ``bias=0`` (the plain algorithm), from the
  opening of a game dealt from the round's seed; its simulated actions are exact:
  ``last_tree_steps + last_search[1]`` (the descents' and the rollouts' actions).
- OpenSpiel: ``pyspiel.MCTSBot`` with a ``RandomRolloutEvaluator`` (one rollout a leaf), no
  solver, from pig's opening, timed through ``mcts_search`` (what ``step`` runs). Its descent
  actions are exact: the sum of ``explore_count`` over the tree's decision nodes (each visit of a
  node below the root applied its action once). Its rollouts happen inside C++ and are not
  visible: each is replaced, for the count only (after the timing), by a uniformly random
  playout from the same state (the state of the node where the descent stopped, rebuilt from the
  tree: its chance outcomes are tree nodes too), which has the same distribution of length.
- The same exploration: rewards in [0, 1] on dimsum's side (c = 0.5), pig's [-1, 1] on
  OpenSpiel's (uct_c = 1.0). Nice Buns' returns are in [0, 1] too.

**The rollouts alone** (the floor): whole uniformly random games of Nice Buns and of Pig played by
the loop the searches' random rollouts run, with no search around it (``rollout_floor.cpp``, built
here with the system C++ compiler and setup.py's flags, -O3), CPU time per decision with the deal
(``new_state``) taken out. A search cannot cost less per simulated action than its rollouts cost
per decision, so OpenSpiel's cost per simulated action over this floor is the most any search over
that game could reach. Without a C++ compiler those rows are left out.

Each round searches on all three, alternately, from fresh seeds (a replayed game lets the branch
predictor learn it); the figures are the medians of the rounds, CPU time (``time.process_time``)
beside wall time. ``--callgrind`` adds instructions per simulation and per simulated action of one
search of each kind (``valgrind --tool=callgrind``, counting only inside the search: dimsum's
binding ``ismcts_search`` and OpenSpiel's ``MCTSBot::MCTSearch``), which do not depend on the load.
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
from pathlib import Path
from typing import Dict, List, Tuple

from .cxx import find_compiler

DIMSUM_C = 0.5              # dimsum's ismcts c (rewards in [0, 1])
OPENSPIEL_C = 2 * DIMSUM_C  # the same exploration on pig's returns in [-1, 1]
SIMULATIONS = 5000          # per search, every side
SIDES = ("nice_buns", "pig", "openspiel_pig")
LABELS = {"nice_buns": "dimsum Nice Buns", "pig": "dimsum Pig", "openspiel_pig": "OpenSpiel pig MCTSBot"}
# the rollouts alone: games a round (about 1.3 M decisions of each, 20-40 ms)
FLOOR_GAMES = {"nice_buns": 40_000, "pig": 11_000}
FLOOR_LABELS = {game: f"{LABELS[game]} rollouts alone (no search)" for game in FLOOR_GAMES}
ROOT = Path(__file__).resolve().parent.parent


# -- one search of each kind: (simulations, simulated actions) ---------------------------------------

def clocks() -> Tuple[float, float]:
    return time.process_time(), time.perf_counter()


def dimsum_search(game_name: str, players: int, seed: int, simulations: int = SIMULATIONS):
    """One dimsum search, only the search timed: (CPU s, wall s, simulations, simulated actions)."""
    import dimsum
    from dimsum import bots

    game = dimsum.make(game_name, players=players)
    state = game.new_state(seed)
    bot = bots.make("ismcts", game, seed=seed, simulations=simulations, c=DIMSUM_C, rollout="random", bias=0,
                    threads=1)
    start = clocks()
    bot.act(state)
    cpu, wall = clocks()
    sims, rollout_steps, _ = bot.last_search
    return cpu - start[0], wall - start[1], sims, rollout_steps + bot.last_tree_steps


def openspiel_search(pyspiel, players: int, seed: int, simulations: int = SIMULATIONS):
    """One OpenSpiel search, only the search timed: (CPU s, wall s, simulations, simulated actions)."""
    game = pyspiel.load_game("pig", {"players": players})
    state = game.new_initial_state()
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), OPENSPIEL_C, simulations, 1 << 30, False,
                          seed, False)
    start = clocks()
    root = bot.mcts_search(state)
    cpu, wall = clocks()
    return (cpu - start[0], wall - start[1]) + openspiel_actions(state, root, random.Random(seed))


def random_decisions(state, rng: random.Random) -> int:
    """The decisions of one uniformly random playout from `state` (chance outcomes by their odds)."""
    state = state.clone()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions


def openspiel_actions(state, root, rng: random.Random) -> Tuple[int, int]:
    """(simulations, simulated actions) of an OpenSpiel search: the descents' decisions counted
    from the tree, each rollout replaced by a random playout from the state it started at."""
    simulations, actions = root.explore_count, 0
    stack = [(root, state)]
    while stack:
        node, at = stack.pop()
        children = node.children
        # searches that stopped at this node: its visits less its children's (a rollout each
        # unless the state is terminal; the first visit of a non-terminal node is its only one)
        ends = node.explore_count - sum(child.explore_count for child in children)
        if ends > 0 and not at.is_terminal():
            actions += sum(random_decisions(at, rng) for _ in range(ends))
        for child in children:
            if child.explore_count == 0:
                continue
            if child.player >= 0:  # a decision (chance children have player -1)
                actions += child.explore_count
            stack.append((child, at.child(child.action)))
    return simulations, actions


# -- the rollouts alone ----------------------------------------------------------------------------------

def build_rollout_floor(directory: Path):
    """Compiles rollout_floor.cpp with Nice Buns' and Pig's rules into `directory` (setup.py's
    flags); its path, or None without a C++ compiler (benchmarks/cxx.py)."""
    compiler = find_compiler()
    if compiler is None:
        return None
    core = ROOT / "src" / "dimsum_core"
    rules = sorted(str(p) for game in FLOOR_GAMES for p in (core / game).glob("*.cpp"))
    executable = directory / ("rollout_floor.exe" if sys.platform == "win32" else "rollout_floor")
    subprocess.run([*compiler, "-std=c++20", "-O3", "-I", str(ROOT / "src"),
                    str(ROOT / "benchmarks" / "rollout_floor.cpp"), *rules, "-o", str(executable)], check=True)
    return executable


def rollout_floor(executable: Path, game_name: str, players: int, seed: int) -> Tuple[float, float, float]:
    """The rollouts alone, one run: (CPU s, wall s) per decision with the deal taken out, and the
    decisions per game."""
    import dimsum

    game = dimsum.make(game_name, players=players)
    games = FLOOR_GAMES[game_name]
    done = subprocess.run([str(executable), game_name, str(seed), str(games), *map(str, game.config_values)],
                          capture_output=True, text=True, check=True)
    r = json.loads(done.stdout)
    decisions = r["decisions"]
    return ((r["games_cpu"] - r["deal_cpu"]) / decisions, (r["games_wall"] - r["deal_wall"]) / decisions,
            decisions / games)


# -- the timed run ---------------------------------------------------------------------------------------

def search(pyspiel, side: str, players: int, seed: int, simulations: int = SIMULATIONS):
    if side == "openspiel_pig":
        return openspiel_search(pyspiel, players, seed, simulations)
    return dimsum_search(side, players, seed, simulations)


def measure_rounds(rounds: int, players: int, floor=None, first_seed: int = 1) -> List[Dict[str, Tuple[float, ...]]]:
    """Per round (fresh seeds), per side: (CPU s and wall s per simulation, per simulated action,
    simulated actions per simulation); with `floor` (build_rollout_floor's program) also each
    game's rollouts alone, "floor:<game>": rollout_floor's (CPU s, wall s per decision, decisions
    per game). side_by_side's medians and the goals report's per-round ratios both come from here."""
    import pyspiel

    for side in SIDES:  # a warm-up search each (first calls, imports), not recorded
        search(pyspiel, side, players, first_seed - 1, 100)
    per_round = []
    for r in range(rounds):
        seed = first_seed + 104729 * r  # fresh seeds every round
        row: Dict[str, Tuple[float, ...]] = {}
        for side in SIDES:
            cpu, wall, sims, actions = search(pyspiel, side, players, seed)
            row[side] = (cpu / sims, wall / sims, cpu / actions, wall / actions, actions / sims)
        for game in FLOOR_GAMES if floor else ():
            row[f"floor:{game}"] = rollout_floor(floor, game, players, seed)
        per_round.append(row)
    return per_round


def side_by_side(rounds: int, players: int, first_seed: int = 1, floor=None) -> Dict[str, Dict[str, float]]:
    """Per side: the medians of CPU and wall seconds per simulation and per simulated action, and
    the simulated actions per simulation; with `floor` also the rollouts alone of each game
    ("floor:<game>": per decision, and decisions per game)."""
    per_round = measure_rounds(rounds, players, floor, first_seed)
    fields = {side: ("sim_cpu", "sim_wall", "action_cpu", "action_wall", "actions_per_sim") for side in SIDES}
    fields.update({f"floor:{game}": ("action_cpu", "action_wall", "actions_per_game") for game in FLOOR_GAMES})
    return {key: {name: statistics.median(row[key][i] for row in per_round) for i, name in enumerate(names)}
            for key, names in fields.items() if key in per_round[0]}


# -- callgrind -------------------------------------------------------------------------------------------

CALLGRIND_SCRIPT = r"""
import sys
from benchmarks.mcts_per_action import search
side, players, seed, simulations = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
pyspiel = __import__("pyspiel") if side == "openspiel_pig" else None
_, _, sims, actions = search(pyspiel, side, players, seed, simulations)
print("COUNTS", sims, actions)
"""
# Only what runs inside these is counted: the search, without the interpreter around it (dimsum's
# binding function, the same for every game, which also decodes the state: the template search may
# be inlined into it). Each pattern must match one function of the call chain, not two: callgrind
# toggles collection on entering (and leaving) EVERY function that matches, so a match nested in a
# match switches it off again. "*ismcts_search*" also matched the binding's per-game lambda,
# "ismcts_search(...)::{lambda()#1}::operator()<G>() const", which the compiler kept as a function
# for Nice Buns (inlined for Pig): Nice Buns counted about 0 instructions. The binding's own name
# is the only one ending in its last parameter, "PolicyNet const*)".
DIMSUM_SEARCH = "*dimsum::bindings::*ismcts_search(*PolicyNet const?)"
SEARCH_FUNCTIONS = {"nice_buns": DIMSUM_SEARCH, "pig": DIMSUM_SEARCH,
                    "openspiel_pig": "*open_spiel::algorithms::MCTSBot::MCTSearch(*)"}


# A simulation resamples, descends and rolls out: thousands of instructions in every search here
# (dimsum's fewest, Pig's, about 17 k). Fewer than this a simulation is not a fast search but a
# count that missed it (before the pattern's fix, Nice Buns counted 4 a simulation).
MIN_INSTRUCTIONS_PER_SIMULATION = 100


def collected_instructions(valgrind_stderr: str, simulations: int) -> int:
    """The instructions callgrind collected (its "Collected : N" line); ValueError if there is no
    such line or the count is below MIN_INSTRUCTIONS_PER_SIMULATION a simulation: the toggle missed
    the search, and such a count is a broken measurement, not a figure."""
    found = re.search(r"Collected\s*:\s*(\d+)", valgrind_stderr)
    if found is None:
        raise ValueError("callgrind printed no 'Collected' count")
    instructions = int(found.group(1))
    if instructions < MIN_INSTRUCTIONS_PER_SIMULATION * simulations:
        raise ValueError(f"callgrind collected {instructions} instructions for {simulations} simulations: the "
                         "--toggle-collect pattern missed the search (SEARCH_FUNCTIONS)")
    return instructions


def callgrind(side: str, players: int, seed: int = 1, simulations: int = SIMULATIONS) -> Dict[str, float]:
    """Instructions of one search under callgrind, per simulation and per simulated action."""
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    env["PYTHONPATH"] = os.pathsep.join([str(root), env.get("PYTHONPATH", "")])
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={Path(tmp) / 'cg.out'}",
                               f"--toggle-collect={SEARCH_FUNCTIONS[side]}", sys.executable, "-c", CALLGRIND_SCRIPT,
                               side, str(players), str(seed), str(simulations)],
                              capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"valgrind failed:\n{proc.stderr[-2000:]}")
    sims, actions = (int(v) for v in re.search(r"COUNTS (\d+) (\d+)", proc.stdout).groups())
    instructions = collected_instructions(proc.stderr, sims)
    return {"per_sim": instructions / sims, "per_action": instructions / actions, "actions_per_sim": actions / sims}


# -- the report ------------------------------------------------------------------------------------------

def table(result: Dict[int, Dict[str, Dict[str, float]]]) -> str:
    lines = ["| players | search | actions/sim | us/sim CPU (wall) | ns/action CPU (wall) | "
             "OpenSpiel / this, per sim CPU (wall) | per action CPU (wall) |",
             "| ---: | --- | ---: | ---: | ---: | ---: | ---: |"]
    for players, sides in result.items():
        peer = sides["openspiel_pig"]
        for side in SIDES:
            s = sides[side]
            ratios = "| |" if side == "openspiel_pig" else (
                f"| {peer['sim_cpu'] / s['sim_cpu']:.2f}x ({peer['sim_wall'] / s['sim_wall']:.2f}x) "
                f"| {peer['action_cpu'] / s['action_cpu']:.2f}x ({peer['action_wall'] / s['action_wall']:.2f}x) |")
            lines.append(f"| {players} | {LABELS[side]} | {s['actions_per_sim']:.1f} | {s['sim_cpu'] * 1e6:.2f} "
                         f"({s['sim_wall'] * 1e6:.2f}) | {s['action_cpu'] * 1e9:.1f} ({s['action_wall'] * 1e9:.1f}) "
                         f"{ratios}")
        for game in FLOOR_GAMES:  # the most a search could reach: OpenSpiel's per action over the rollouts'
            f = sides.get(f"floor:{game}")
            if f:
                cpu, wall = peer["action_cpu"] / f["action_cpu"], peer["action_wall"] / f["action_wall"]
                lines.append(f"| {players} | {FLOOR_LABELS[game]} | {f['actions_per_game']:.1f} a game | | "
                             f"{f['action_cpu'] * 1e9:.1f} ({f['action_wall'] * 1e9:.1f}) | | {cpu:.2f}x ({wall:.2f}x) |")
    return "\n".join(lines)


def callgrind_table(players_list: List[int]) -> str:
    lines = ["| players | search | actions/sim | instructions/sim | instructions/action | "
             "OpenSpiel / this, per sim | per action |", "| ---: | --- | ---: | ---: | ---: | ---: | ---: |"]
    for players in players_list:
        counts = {side: callgrind(side, players) for side in SIDES}
        peer = counts["openspiel_pig"]
        for side in SIDES:
            s = counts[side]
            ratios = "| |" if side == "openspiel_pig" else (
                f"| {peer['per_sim'] / s['per_sim']:.2f}x | {peer['per_action'] / s['per_action']:.2f}x |")
            lines.append(f"| {players} | {LABELS[side]} | {s['actions_per_sim']:.1f} | {s['per_sim']:,.0f} | "
                         f"{s['per_action']:,.0f} {ratios}")
    return "\n".join(lines)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--callgrind", action="store_true", help="also count instructions (valgrind)")
    args = parser.parse_args(argv)
    print(f"{SIMULATIONS} simulations a search, one thread, median of {args.rounds} rounds; "
          f"ratio = OpenSpiel / this (above 1: this is faster)\n")
    with tempfile.TemporaryDirectory() as tmp:
        floor = build_rollout_floor(Path(tmp))
        if floor is None:
            print("(no C++ compiler: the rollouts-alone rows are left out)\n")
        print(table({players: side_by_side(args.rounds, players, floor=floor) for players in args.players}))
    if args.callgrind:
        print()
        print(callgrind_table(args.players))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
