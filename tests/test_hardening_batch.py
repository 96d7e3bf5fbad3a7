"""The batch side of the "Hardening" audit, one regression test a defect:

1. A worker thread that cannot be started (a thread limit) raises RuntimeError from BatchEnv and
   random_playouts and leaves no thread running; it used to kill or hang the process.
2. Python code that an entry point runs (an actions object's __array__, a seed's __index__)
   may call back into the same env: it used to deadlock on the env's lock; and a call on an env
   from the thread that holds its lock raises RuntimeError instead of waiting forever.
7. A uint64 action of 2**63 or more is an out-of-range action like any other; misaligned and
   byte-swapped int64 actions are read right.

Everything that could hang or kill the interpreter runs in a subprocess with a timeout, so that
a regression fails its test instead of stopping the test run.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import dimsum
from dimsum import _batch

TIMEOUT = 60  # seconds; each subprocess needs well under one

PRELUDE = """\
import json, os, sys
import numpy as np
import dimsum
from dimsum import _batch
from dimsum._batch_env import BatchEnv  # imported now: the tests below may lose file access
game = dimsum.make("yum_cha")

def tasks():
    return len(os.listdir("/proc/self/task"))

def report(**kw):
    print(json.dumps(kw), flush=True)
"""


def run_isolated(body: str) -> dict:
    """Runs PRELUDE + body in a fresh interpreter; returns its last line of stdout as JSON.
    A subprocess that hangs or dies fails the test with what it printed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(dimsum.__file__).resolve().parent.parent),
                                         env.get("PYTHONPATH", "")])
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[name] = "1"  # numpy's BLAS starts no threads: the only threads are the pools'
    code = PRELUDE + textwrap.dedent(body)
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT, env=env)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the subprocess hung (killed after {TIMEOUT} s); it printed:\n{e.stdout}\n{e.stderr}")
    assert done.returncode == 0, f"the subprocess failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- 1. a thread that cannot be created --------------------------------------------------------

THREAD_LIMIT = """\
import resource

if os.getuid() == 0:
    # root is exempt from RLIMIT_NPROC: become nobody (the limit counts nobody's threads)
    try:
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)
    except OSError as e:
        report(skip=f"cannot drop root to enforce RLIMIT_NPROC: {e}")
        sys.exit(0)

def threads_of_this_user():
    uid, count = os.getuid(), 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/status") as f:
                    real_uid = next(line for line in f if line.startswith("Uid:")).split()[1]
                count += int(real_uid) == uid
        except (OSError, StopIteration):
            pass  # gone meanwhile
    return count

soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
before = tasks()
# one more task than this user has now: the first worker thread starts, the second cannot
resource.setrlimit(resource.RLIMIT_NPROC, (threads_of_this_user() + 1, hard))
errors = []
for call in (lambda: BatchEnv(game, 64, seed=0, threads=64), lambda: dimsum.random_playouts(game, 64, threads=64)):
    try:
        call()
        errors.append(None)
    except RuntimeError as e:
        errors.append(str(e))
    errors.append(tasks())
resource.setrlimit(resource.RLIMIT_NPROC, (soft, hard))

# the process is still sound: with the limit lifted, pools start and stop as usual
env = BatchEnv(game, 8, seed=0, threads=4)
env.step(env.sample_actions(0))
during = tasks()
del env
returns, lengths = dimsum.random_playouts(game, 8, threads=4)
report(before=before, env_error=errors[0], after_env=errors[1], playouts_error=errors[2], after_playouts=errors[3],
       during=during, after=tasks(), games=len(lengths))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_NPROC and /proc/self/task are Linux's")
def test_a_thread_that_cannot_be_created_raises_and_leaves_no_thread():
    got = run_isolated(THREAD_LIMIT)
    if "skip" in got:
        pytest.skip(got["skip"])
    for who in ("env", "playouts"):
        message = got[f"{who}_error"]
        assert message is not None, f"{who}: no error although no thread could start"
        assert "worker threads could not be started" in message and "fewer threads" in message, message
        assert got[f"after_{who}"] == got["before"], f"{who} left threads running"
    assert got["env_error"].startswith("BatchEnv: ") and got["playouts_error"].startswith("random_playouts: ")
    assert got["during"] == got["before"] + 3  # threads=4: three workers, started as usual afterwards
    assert got["after"] == got["before"] and got["games"] == 8
