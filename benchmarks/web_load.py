"""Load on ``python -m dimsum serve``: TABLES tables at once on loopback, each with a websocket
client in its human seat playing random legal moves against a random bot, and the move's round
trip (the move sent, the next state message received: checked, played, drawn, sent) measured.

    PYTHONPATH=python python benchmarks/web_load.py [--tables 100] [--moves 30]

``--think S``: each client waits a random time (mean S seconds) before each move, as a person
would; 0 (the default) plays at once, every table moving at full speed (a saturation test).

Prints the round trip's median and 99th percentile, and the server's and the clients' CPU time
beside the wall time. The server is a real process on a free port, ended at the end (its whole
process group), whatever happens. Needs the web extra (starlette, uvicorn, websockets) and psutil.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import websockets

import dimsum

DIMSUM_HOME = Path(dimsum.__file__).resolve().parents[1]  # the server runs the dimsum this script imports
GAMES = [("pig", {"winscore": 30}, 2), ("kuhn_poker", {}, 2), ("nice_buns", {"players": 3, "max_turns": 30}, 3),
         ("yum_cha", {"players": 3, "rounds": 1, "max_turns_per_round": 12}, 3),
         ("dim_sum_jam", {"players": 3, "ticks_per_action": 0}, 3)]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _table(url: str, k: int) -> str:
    game, options, players = GAMES[k % len(GAMES)]
    body = json.dumps({"game": game, "options": options, "seats": ["human"] + ["random"] * (players - 1)}).encode()
    request = urllib.request.Request(url + "/api/tables", data=body, method="POST")
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.load(r)["seats"][0]


async def _client(ws_url: str, moves: int, rng: random.Random, times: list, think: float) -> int:
    played = 0
    async with websockets.connect(ws_url, max_size=2**24) as ws:
        sent_at, sent_step = None, None
        while played < moves:
            m = json.loads(await ws.recv())
            if m["type"] != "state":
                raise RuntimeError(m)
            if sent_at is not None and m["step"] > sent_step:
                times.append(time.perf_counter() - sent_at)
                sent_at = None
            if m["view"]["outcome"] is not None:
                break
            if sent_at is None and m["view"]["moves"]:
                if think:  # a player's thinking time, then the newest state (the page shows that one)
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                    while True:
                        try:
                            m = json.loads(await asyncio.wait_for(ws.recv(), 0.001))
                        except asyncio.TimeoutError:
                            break
                    if not m["view"]["moves"]:
                        continue
                move = rng.choice(m["view"]["moves"])[0]
                sent_at, sent_step = time.perf_counter(), m["step"]
                await ws.send(json.dumps({"type": "move", "id": move}))
                played += 1
    return played


async def _run(url: str, links: list, moves: int, seed: int, think: float) -> list:
    times: list = []
    ws_base = url.replace("http://", "ws://")
    await asyncio.gather(*(_client(ws_base + link.replace("/table/", "/ws/"), moves, random.Random(seed + i), times, think)
                           for i, link in enumerate(links)))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=30, help="moves each client plays at most")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a client thinks before a move (uniform from 0 to twice it); 0: at once")
    parser.add_argument("--seed", type=int, default=int.from_bytes(os.urandom(4), "little"))
    args = parser.parse_args()
    port = _port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "dimsum", "serve", "--port", str(port), "--bot-delay", "0"],
                              env=dict(os.environ, PYTHONPATH=str(DIMSUM_HOME)), start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/api/lobby", timeout=5).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the server did not start")
                time.sleep(0.1)
        links = [_table(url, k) for k in range(args.tables)]
        proc = psutil.Process(server.pid)
        server_cpu = sum(proc.cpu_times()[:2])
        cpu, wall = time.process_time(), time.perf_counter()
        times = asyncio.run(_run(url, links, args.moves, args.seed, args.think))
        wall = time.perf_counter() - wall
        cpu = time.process_time() - cpu
        server_cpu = sum(proc.cpu_times()[:2]) - server_cpu
    finally:
        try:
            os.killpg(server.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    times.sort()
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(f"{args.tables} tables, clients thinking {args.think:g} s on average ({', '.join(g for g, _, _ in GAMES)} in turn), {len(times)} moves, seed {args.seed}")
    print(f"move round trip: median {1000 * statistics.median(times):.1f} ms, p99 {1000 * p99:.1f} ms, "
          f"max {1000 * times[-1]:.1f} ms (goal: median < 20 ms, p99 < 100 ms)")
    print(f"wall {wall:.2f} s; CPU: server {server_cpu:.2f} s, clients {cpu:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
