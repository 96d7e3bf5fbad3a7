"""Instructions the policy network costs, by callgrind (no other load changes them): a move in C++
(``bots::policy_move``: observe, input, network for the legal actions, argmax) and a row of a
batch (``PolicyNet.logits``: the input built in C++, then every logit), for shipped policies, on
the decision nodes of random games (benchmarks/policy_inference.py's states, seed 0).

Only the code under the named C++ function is counted (``--toggle-collect``), so neither the
interpreter nor the recording of the states is: the count divided by the moves (rows) is the
network's own. Needs valgrind, and a build with its symbol table (built in the checkout, or with
DIMSUM_DEBUG=1: an installed build is stripped).

    python benchmarks/policy_callgrind.py                          # Nice Buns 2p and Dim Sum Jam 4p
    python benchmarks/policy_callgrind.py --policies yum_cha-4p --states 500
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from dimsum.baselines.shipped import shipped

HERE = Path(__file__).resolve().parent

# The workload, in a fresh interpreter: `kind` over `n` decision nodes of the shipped policy's game.
WORKLOAD = r"""
import sys
sys.path.insert(0, {here!r})
import numpy as np, dimsum, dimsum.bots
from dimsum import _batch
from policy_inference import decision_states
name, players, kind, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
game = dimsum.make(name, players=players)
bot = dimsum.bots.make("policy", game, weights="shipped")
states = decision_states(game, n, 0)
if kind == "move":
    blobs = [s.to_bytes() for s in states]
    _batch._policy_moves_cpu(bot._net, *bot._game_args, blobs)
else:
    obs = np.stack([s.observation(s.current_player) for s in states])
    masks = np.stack([s.legal_mask() for s in states])
    bot._net.logits(obs, masks)
"""

# what each kind counts: the C++ function whose instructions (and its callees') are collected
TOGGLES = {"move": "*policy_moves_loop*", "row": "*batch_logits*"}

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(policy: str, kind: str, n: int) -> int:
    name, players = policy.rsplit("-", 1)
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "workload.py"
        script.write_text(WORKLOAD.format(here=str(HERE)), encoding="utf-8")
        env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
        done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                               f"--toggle-collect={TOGGLES[kind]}", sys.executable, str(script), name,
                               players.rstrip("p"), kind, str(n)],
                              capture_output=True, text=True, env=env, check=True)
    found = _REFS.search(done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count:\n{done.stderr[-2000:]}")
    count = int(found.group(1).replace(",", ""))
    if count < n:  # not one instruction a state: the toggle matched no function
        raise RuntimeError(f"--toggle-collect={TOGGLES[kind]} matched no function: an installed dimsum is "
                           "linked without its symbol table; run against a build in the checkout "
                           "(setup.py build_ext --inplace, PYTHONPATH=python) or one built with DIMSUM_DEBUG=1")
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description="The policy network's instructions per move and per row")
    parser.add_argument("--states", type=int, default=2000, help="decision nodes (default 2000)")
    parser.add_argument("--policies", nargs="*", default=["nice_buns-2p", "dim_sum_jam-4p"], choices=shipped(),
                        metavar="GAME-Np", help="shipped policies (default: nice_buns-2p dim_sum_jam-4p)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed")
    print(f"{'policy':16s} {'instructions a move':>20s} {'a batched row':>15s}")
    for policy in args.policies:
        move = instructions(policy, "move", args.states) / args.states
        row = instructions(policy, "row", args.states) / args.states
        print(f"{policy:16s} {move:20,.0f} {row:15,.0f}")


if __name__ == "__main__":
    main()
