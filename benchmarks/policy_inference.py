"""What the policy network costs (docs/BASELINES.md, "Cost"), against torch and against the
core's dense FLOP floor, every figure from one run: every shipped policy (MLPs with tanh; Nice
Buns 2p is 200-64-64-101, Dim Sum Jam's read the largest observation), on decision nodes of random
games, one thread (torch too: ``torch.set_num_threads(1)``):

- FLOP floor: the dense FLOPs of one row (2 x the weights) at the rate torch reaches on a large
  float32 matrix product in this run (one thread): what one row costs at the core's peak;
- network, batched: ``PolicyNet.logits`` on the recorded observations and masks (the C++ loop over
  rows, the input built in C++), against torch's forward pass of the same layers on the same
  rows (``torch.inference_mode``) twice: its input matrix (the normalized observation and the
  mask) built beforehand in numpy and not timed, which favours torch; and built in numpy inside
  the timed call, the same work on both sides;
- a move in C++: ``bots::policy_move`` on each state (observe, input, network for the legal
  actions, argmax), in one C++ loop with its own CPU clock (``_batch._policy_moves_cpu``, no Python
  per move);
- a bot move: ``bot.act(state)`` (the state's bytes to C++, checked and validated, then the move),
  against the heuristic bot's ``act`` on the same states.

Each figure is given by CPU time (``time.process_time``; the C++ move by ``std::clock``) and the
wall clock, the best of ``--rounds`` rounds with fresh states each round: the machine is shared,
the CPU column is the one to compare. The ratios are of CPU times of the same round. Without torch
the torch rows and the floor are left out.

    python benchmarks/policy_inference.py                       # every shipped policy, a minute or so
    python benchmarks/policy_inference.py --rounds 5 --policies nice_buns-2p
    python benchmarks/policy_inference.py --json out.json       # also every figure as JSON (benchmarks/figures.py)

Instruction counts (no load changes them): benchmarks/policy_callgrind.py. Not a test: the numbers
depend on the machine and on what else it runs.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

import dimsum
import dimsum.bots
from dimsum import _batch
from dimsum.baselines import load
from dimsum.baselines.shipped import shipped


def decision_states(game: Any, n: int, seed: int) -> List[Any]:
    rng = np.random.default_rng(seed)
    states: List[Any] = []
    g = 0
    while len(states) < n:
        s = game.new_state(seed * 100_000 + g)
        g += 1
        while not s.is_terminal and len(states) < n:
            states.append(s.clone())
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    return states


def timed(work: Callable[[], Any], count: int) -> Tuple[float, float]:
    """Microseconds per item of ``work`` (which does ``count`` items), by CPU time and by the wall clock."""
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    return (time.process_time() - cpu) / count * 1e6, (time.perf_counter() - wall) / count * 1e6


def torch_or_none() -> Optional[Any]:
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    return torch


def torch_gflops(torch: Any, size: int = 1024, repeat: int = 4) -> float:
    """The float32 matrix-product rate torch reaches on one thread (GFLOP/s): the core's dense peak
    as far as a tuned library gets it."""
    a, b = torch.randn(size, size), torch.randn(size, size)
    a @ b  # warm up
    cpu = time.process_time()
    for _ in range(repeat):
        a @ b
    return 2 * size ** 3 * repeat / (time.process_time() - cpu) / 1e9


def torch_model(torch: Any, policy: Any) -> Any:
    layers: List[Any] = []
    for layer in policy.layers:
        linear = torch.nn.Linear(layer.weight.shape[1], layer.weight.shape[0])
        with torch.no_grad():
            linear.weight.copy_(torch.from_numpy(layer.weight))
            linear.bias.copy_(torch.from_numpy(layer.bias))
        layers.append(linear)
        if layer.activation == "tanh":
            layers.append(torch.nn.Tanh())
        elif layer.activation == "relu":
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers).eval()


def torch_input(policy: Any, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The network's input as training fed it: the parts in order, the observation normalized."""
    o = obs.astype(np.float32)
    if policy.normalization is not None:
        n = policy.normalization
        o = np.clip((o - n["offset"]) * n["scale"], -n["clip"], n["clip"]).astype(np.float32)
    parts = {"observation": o, "action_mask": masks.astype(np.float32)}
    return np.ascontiguousarray(np.concatenate([parts[name] for name in policy.inputs], axis=1))


def main() -> None:
    parser = argparse.ArgumentParser(description="The policy network's cost per row and per move")
    parser.add_argument("--states", type=int, default=5000, help="decision nodes per round (default 5000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each with fresh states (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policies", nargs="*", default=None, choices=shipped(), metavar="GAME-Np",
                        help=f"shipped policies to time (default: all, {', '.join(shipped())})")
    parser.add_argument("--json", default=None, help="also write every policy's figures here")
    args = parser.parse_args()
    torch = torch_or_none()
    results = []
    for stem in args.policies or shipped():
        name, players = stem.rsplit("-", 1)
        results.append(time_policy(dimsum.make(name, players=int(players.rstrip("p"))), args, torch))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


def time_policy(game: Any, args: argparse.Namespace, torch: Optional[Any], echo: bool = True) -> Dict[str, Any]:
    """The figures of the shipped policy of ``game`` (printed as rows when ``echo``): per row of
    what was timed, the best round's microseconds by CPU and wall clock; per ratio, its value in
    every round."""
    policy = dimsum.bots.make("policy", game, weights="shipped")
    heuristic = dimsum.bots.make("heuristic", game)
    weights = load("shipped", game)
    flops = 2 * sum(int(layer.weight.size) for layer in weights.layers)
    model = torch_model(torch, weights) if torch is not None else None
    rows: Dict[str, List[Tuple[float, float]]] = {}

    def add(what: str, figure: Tuple[float, float]) -> None:
        rows.setdefault(what, []).append(figure)

    ratios: Dict[str, List[float]] = {}
    for r in range(args.rounds):
        states = decision_states(game, args.states, args.seed + r)
        obs = np.stack([s.observation(s.current_player) for s in states])
        masks = np.stack([s.legal_mask() for s in states])
        blobs = [s.to_bytes() for s in states]
        name, config, size, version = policy._game_args
        net = policy._net
        batched = timed(lambda: net.logits(obs, masks), len(states))
        add("network, batched: C++ (PolicyNet.logits)", batched)
        moves: List[float] = []

        def cpp_moves() -> None:
            moves.append(_batch._policy_moves_cpu(net, name, config, size, version, blobs)[1])

        wall = timed(cpp_moves, len(states))[1]
        move = (moves[0] / len(states) * 1e6, wall)
        add("a move in C++ (policy_move)", move)
        if torch is not None:
            x = torch.from_numpy(torch_input(weights, obs, masks))
            with torch.inference_mode():
                model(x[:64])  # warm up
                torched = timed(lambda: model(x), len(states))
            add("network, batched: torch, same weights", torched)
            # the same work as PolicyNet.logits (which builds its input from the observations and
            # masks): torch's input built in numpy inside its time, the equal-terms comparison
            with torch.inference_mode():
                torched_input = timed(lambda: model(torch.from_numpy(torch_input(weights, obs, masks))), len(states))
            add("torch, its input built in numpy and timed", torched_input)
            ratios.setdefault("torch with its input / C++, batched, per row", []).append(torched_input[0] / batched[0])
            floor = flops / torch_gflops(torch) / 1e3  # us a row
            add("FLOP floor (torch's matmul rate)", (floor, floor))
            ratios.setdefault("torch / C++, batched, per row", []).append(torched[0] / batched[0])
            ratios.setdefault("C++ batched row / floor", []).append(batched[0] / floor)
            ratios.setdefault("C++ move / floor", []).append(move[0] / floor)
        acts = timed(lambda: [policy.act(s) for s in states], len(states))
        add("policy bot act()", acts)
        heuristic_acts = timed(lambda: [heuristic.act(s) for s in states], len(states))
        add("heuristic bot act()", heuristic_acts)
        ratios.setdefault("policy bot act() / heuristic bot act()", []).append(acts[0] / heuristic_acts[0])
    widths = "-".join(str(layer.weight.shape[1]) for layer in weights.layers) + f"-{weights.num_actions}"
    result = {"game": game.name, "players": game.players, "network": widths, "kflop_per_row": flops / 1e3,
              "states": args.states, "rounds": args.rounds,
              "best_us": {what: {"cpu": min(c for c, _ in results), "wall": min(w for _, w in results)}
                          for what, results in rows.items()},
              "ratios": ratios}
    if not echo:
        return result
    print(f"\n{game.name} {game.players} players, shipped policy {widths} ({flops / 1e3:.1f} kFLOP a dense row), "
          f"{args.states} decision nodes x {args.rounds} rounds (best round)")
    print(f"{'what':45s} {'us/row CPU':>11s} {'us/row wall':>12s}")
    for what, results in rows.items():
        print(f"{what:45s} {min(c for c, _ in results):11.3f} {min(w for _, w in results):12.3f}")
    for what, values in ratios.items():
        print(f"{what:45s} {min(values):7.2f} - {max(values):.2f} over the rounds")
    return result


if __name__ == "__main__":
    main()
