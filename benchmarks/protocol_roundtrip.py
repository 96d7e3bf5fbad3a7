"""Moves per second through the bot protocol (docs/PROTOCOL.md) against the same bots in process.

    PYTHONPATH=python python -m benchmarks.protocol_roundtrip [--games 20] [--rounds 5] [--cc cc]

Two pairs, each game played with the bot in every seat (the loop of ``dimsum.arena``'s
``play_game`` without the arena's bookkeeping), Nice Buns with 2 players and Yum Cha with 4:

- **random**: dimsum's random bot in process, against examples/protocol_bot.c (a random bot in
  C, built here with the system compiler) through the protocol: the cost of the round trip itself
  (the view built and encoded, two pipe crossings, the reply parsed and checked);
- **heuristic**: dimsum's heuristic in process, against examples/protocol_bot.py (the heuristic
  through the protocol, which asks for a determinization each move): the cost for a Python bot.

Each round plays fresh deals (new seeds) on every side, the sides in alternating order, and each
side keeps its best round, so the ratios hold on a shared machine where the absolute figures do
not. The bot processes start in an untimed first game (a tournament starts them once, not per
move). Wall time (``time.perf_counter``) and CPU time are both reported; the CPU time of a
protocol side includes its bot processes' (psutil). Wall far above CPU means the cores were busy
with other work: each move crosses two pipes and waits for the other process to be scheduled.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import psutil

import dimsum
import dimsum.bots
from dimsum.protocol import close_all
from dimsum.protocol import process as process_module

ROOT = Path(__file__).resolve().parent.parent
GAMES = (("nice_buns", {"players": 2}), ("yum_cha", {"players": 4}))


def bots_cpu() -> float:
    """CPU seconds so far of the bot processes running now (dimsum.protocol's own list)."""
    total = 0.0
    for process in list(process_module._ALL):
        times = psutil.Process(process.popen.pid).cpu_times()
        total += times.user + times.system
    return total


def play_games(game: Any, make: Callable[[int], Any], seeds: List[int]) -> int:
    """Plays one game per seed, a bot of ``make`` in every seat; the number of moves."""
    moves = 0
    for seed in seeds:
        bots = [make(seed * 31 + seat) for seat in range(game.players)]
        state = game.new_state(seed)
        while not state.is_terminal:
            state.apply(bots[state.current_player].act(state))
            moves += 1
        for bot in bots:
            if hasattr(bot, "game_over"):
                bot.game_over(state)  # an external bot's process goes back to the pool
    return moves


def play(game: Any, make: Callable[[int], Any], seeds: List[int]) -> Tuple[int, float, float]:
    """(moves, wall seconds, CPU seconds of this process and the bots') of one game per seed, after
    one untimed game that starts the bot processes (started once per tournament, not per move)."""
    play_games(game, make, [seeds[0] ^ 0x5A5A])
    wall, cpu, bots = time.perf_counter(), time.process_time(), bots_cpu()
    moves = play_games(game, make, seeds)
    result = moves, time.perf_counter() - wall, time.process_time() - cpu + bots_cpu() - bots
    close_all()
    return result


def build_c_bot(directory: Path, compiler: str) -> str:
    binary = directory / "protocol_bot"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(ROOT / "examples" / "protocol_bot.c")], check=True)
    return str(binary)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per side and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cc", default=shutil.which("cc") or "gcc", help="the C compiler")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        c_bot = build_c_bot(Path(directory), args.cc)
        python_bot = [sys.executable, str(ROOT / "examples" / "protocol_bot.py"), "--serve"]
        for name, options in GAMES:
            game = dimsum.make(name, **options)
            sides: Dict[str, Callable[[int], Any]] = {
                "random, in process": lambda seed: dimsum.bots.make("random", game, seed),
                "random, C through the protocol": lambda seed: dimsum.bots.make(
                    "external", game, seed, command=[c_bot]),
                "heuristic, in process": lambda seed: dimsum.bots.make("heuristic", game, seed),
                "heuristic, Python through the protocol": lambda seed: dimsum.bots.make(
                    "external", game, seed, command=python_bot),
            }
            best: Dict[str, Tuple[int, float, float]] = {}
            for round_ in range(args.rounds):
                seeds = [1_000_003 * round_ + i for i in range(args.games)]
                order = list(sides) if round_ % 2 == 0 else list(reversed(sides))
                for side in order:
                    result = play(game, sides[side], seeds)
                    if side not in best or result[1] / result[0] < best[side][1] / best[side][0]:
                        best[side] = result
            print(f"{name} {options}: {args.games} games a side, best of {args.rounds} rounds")
            for side, (moves, wall, cpu) in best.items():
                print(f"  {side:40s} {moves / wall:12,.0f} moves/s  {1e6 * wall / moves:9.1f} us/move wall"
                      f"  {1e6 * cpu / moves:9.1f} us/move CPU")
            for kind, through in (("random", "random, C through the protocol"),
                                  ("heuristic", "heuristic, Python through the protocol")):
                inside = best[f"{kind}, in process"]
                print(f"  {kind}: through the protocol {best[through][1] / best[through][0] / (inside[1] / inside[0]):,.0f}x "
                      f"the in-process wall time a move")


if __name__ == "__main__":
    main()
