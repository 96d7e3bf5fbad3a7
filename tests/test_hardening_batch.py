"""The batch side of the "Hardening" audit, one regression test a defect:

1. A worker thread that cannot be started (a thread limit) raises RuntimeError from BatchEnv,
   random_playouts and an IS-MCTS search and leaves no thread running; it used to kill or hang
   the process.
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

import processes

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

def tasks_once_gone(target, timeout=2.0):
    # a joined thread may still be listed for a moment: its /proc entry goes after pthread_join
    # returns (the kernel clears the joined tid before it releases the task)
    import time
    deadline = time.monotonic() + timeout
    while tasks() > target and time.monotonic() < deadline:
        time.sleep(0.01)
    return tasks()

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
        done = processes.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT, env=env)
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
from dimsum import bots
searched = game.new_state(1)
while searched.is_chance_node:
    searched.apply(searched.chance_outcomes()[0][0])
errors = []
for call in (lambda: BatchEnv(game, 64, seed=0, threads=64), lambda: dimsum.random_playouts(game, 64, threads=64),
             lambda: bots.make("ismcts", game, simulations=64, threads=64).act(searched)):
    try:
        call()
        errors.append(None)
    except RuntimeError as e:
        errors.append(str(e))
    errors.append(tasks_once_gone(before))
resource.setrlimit(resource.RLIMIT_NPROC, (soft, hard))

# the process is still sound: with the limit lifted, pools start and stop as usual
env = BatchEnv(game, 8, seed=0, threads=4)
env.step(env.sample_actions(0))
during = tasks()
del env
returns, lengths = dimsum.random_playouts(game, 8, threads=4)
report(before=before, env_error=errors[0], after_env=errors[1], playouts_error=errors[2], after_playouts=errors[3],
       ismcts_error=errors[4], after_ismcts=errors[5], during=during, after=tasks_once_gone(before), games=len(lengths))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_NPROC and /proc/self/task are Linux's")
def test_a_thread_that_cannot_be_created_raises_and_leaves_no_thread():
    got = run_isolated(THREAD_LIMIT)
    if "skip" in got:
        pytest.skip(got["skip"])
    for who in ("env", "playouts", "ismcts"):
        message = got[f"{who}_error"]
        assert message is not None, f"{who}: no error although no thread could start"
        assert "worker threads could not be started" in message and "fewer threads" in message, message
        assert got[f"after_{who}"] == got["before"], f"{who} left threads running"
    assert got["env_error"].startswith("BatchEnv: ") and got["playouts_error"].startswith("random_playouts: ")
    assert got["ismcts_error"].startswith("ismcts: ")
    # the caller's count of threads: a batch env's caller steps envs too, a long call's only polls
    assert "(threads=64 starts 63 besides" in got["env_error"], got["env_error"]
    assert "(threads=64 starts 64 besides" in got["playouts_error"], got["playouts_error"]
    assert "(threads=64 starts 64 besides" in got["ismcts_error"], got["ismcts_error"]
    assert got["during"] == got["before"] + 3  # threads=4: three workers, started as usual afterwards
    assert got["after"] == got["before"] and got["games"] == 8


# -- 2. re-entrancy ------------------------------------------------------------------------------

# Each body makes `env` (3 envs, 2 threads) and `ref`, an env with the same seed stepped by
# hand, then calls the entry point with an argument whose Python code calls back into env.
REENTRANT_SETUP = """\
env = BatchEnv(game, 3, seed=5, threads=2)
ref = BatchEnv(game, 3, seed=5, threads=2)
calls = []

def inner_step():  # what the callbacks do: a whole step of the same env
    calls.append(env.observation_size)
    env.step(env.sample_actions(100).copy())

def same(a, b):
    return bool(np.array_equal(a, b))
"""

REENTRANT = {
    "step_actions_array": """\
        class Actions:
            def __array__(self, dtype=None, copy=None):
                inner_step()
                return env.sample_actions(7).copy()  # legal after the inner step

        obs = env.step(Actions())[0].copy()
        ref.step(ref.sample_actions(100).copy())
        expected = ref.step(ref.sample_actions(7).copy())[0]
        report(calls=len(calls), same=same(obs, expected))
    """,
    "step_actions_sequence": """\
        class Actions:  # a sequence, no __array__: numpy calls __len__ and __getitem__
            def __len__(self):
                if not calls:
                    inner_step()
                return 3
            def __getitem__(self, i):
                if not 0 <= i < 3:
                    raise IndexError(i)
                calls.append(env.clone_state(i).current_player)  # reads the env
                return int(env.sample_actions(7)[i])

        obs = env.step(Actions())[0].copy()
        ref.step(ref.sample_actions(100).copy())
        expected = ref.step(ref.sample_actions(7).copy())[0]
        report(calls=len(calls), same=same(obs, expected))
    """,
    "step_copy_flag": """\
        class Copy:
            def __bool__(self):
                inner_step()
                return True

        ref.step(ref.sample_actions(100).copy())
        actions = ref.sample_actions(7).copy()  # legal once the callback has stepped env
        expected = ref.step(actions)[0]
        copied = env.step(actions, Copy())[0]
        report(calls=len(calls), same=same(copied, expected))
    """,
    "reset_seed": """\
        import numbers

        class Seed:
            def __int__(self):
                inner_step()
                return 9
            __index__ = __int__
        numbers.Integral.register(Seed)

        obs = env.reset(Seed())[0].copy()
        report(calls=len(calls), same=same(obs, ref.reset(9)[0]) and env.seed == 9)
    """,
    "sample_actions_seed": """\
        class Seed:
            def __index__(self):
                inner_step()
                return 7

        got = env.sample_actions(Seed()).copy()
        ref.step(ref.sample_actions(100).copy())
        report(calls=len(calls), same=same(got, ref.sample_actions(7)))
    """,
    "set_state_state": """\
        source = game.new_state(11)

        class State:  # looks like a State of this game; its bytes come after a step of env
            game = source.game
            history = source.history
            def to_bytes(self):
                inner_step()
                return source.to_bytes()

        env.set_state(1, State())
        ref.step(ref.sample_actions(100).copy())
        ref.set_state(1, source)
        report(calls=len(calls), same=same(env.step(env.sample_actions(3))[0], ref.step(ref.sample_actions(3))[0]))
    """,
}


@pytest.mark.parametrize("entry", sorted(REENTRANT))
def test_reentrant_callbacks_do_not_deadlock(entry):
    got = run_isolated(REENTRANT_SETUP + textwrap.dedent(REENTRANT[entry]))
    assert got["calls"] >= 1, "the callback was not called"
    assert got["same"], "the env did not do the callback's step, then the call's own"


LOCKED = """\
env = BatchEnv(game, 3, seed=5, threads=2)
state = env.clone_state(0)
calls = {
    "step": lambda: env.step(np.zeros(3, dtype=np.int64)),
    "reset": lambda: env.reset(),
    "sample_actions": lambda: env.sample_actions(0),
    "clone_state": lambda: env.clone_state(0),
    "set_state": lambda: env.set_state(0, state),
}
messages = {}
for name, call in calls.items():
    try:
        env._call_locked(call)
        messages[name] = None
    except RuntimeError as e:
        messages[name] = str(e)
env.step(env.sample_actions(0))  # the lock was released each time
report(messages=messages)
"""


def test_a_call_on_an_env_from_inside_its_own_locked_call_raises():
    # _call_locked runs Python code while holding the env's lock, which no entry point does any
    # more: it stands for any future path that would, and shows the guard instead of a deadlock.
    got = run_isolated(LOCKED)
    for name, message in got["messages"].items():
        assert message is not None, f"{name} under the env's own lock did not raise"
        assert "re-entrant call" in message and "deadlock" in message, message


def test_the_env_lock_still_serializes_other_threads():
    # the re-entrancy guard must not turn a call from another thread into an error
    got = run_isolated("""\
        import threading
        env = BatchEnv(game, 3, seed=5, threads=2)
        results = []
        def other():
            env.step(env.sample_actions(1).copy())
            results.append("stepped")
        def hold():
            t = threading.Thread(target=other)
            t.start()
            t.join(0.3)  # it waits on the lock (with the GIL released) meanwhile
            results.append("alive" if t.is_alive() else "done")
            return t
        t = env._call_locked(hold)
        t.join()
        report(results=results)
    """)
    assert got["results"] == ["alive", "stepped"]


# -- 7. big, misaligned and byte-swapped actions -----------------------------------------------

def fresh_env():
    env = dimsum.BatchEnv(dimsum.make("yum_cha"), 3, seed=0)
    env.reset()
    return env


def state_of(env):
    return [env._state_bytes(i) for i in range(env.num_envs)]


@pytest.mark.parametrize("bad", [2**63, 2**63 + 5, 2**64 - 1])
@pytest.mark.parametrize("dtype", [np.uint64, ">u8"])
def test_a_uint64_action_of_2_63_or_more_is_out_of_range(bad, dtype):
    env = fresh_env()
    before = state_of(env)
    actions = env.sample_actions(0).astype(dtype)
    actions[1] = bad
    with pytest.raises(dimsum.IllegalActionError, match=f"env 1: action {bad} is out of range"):
        env.step(actions)
    with pytest.raises(_batch.IllegalAction) as e:
        _batch._BatchEnv.step(env, actions)
    assert e.value.args == (1, bad) and isinstance(e.value, ValueError)
    assert state_of(env) == before


def misaligned(values, dtype):
    """values in an array of `dtype` whose data starts one byte off its alignment."""
    raw = np.zeros(len(values) * 8 + 1, dtype=np.uint8)
    array = np.frombuffer(raw.data, dtype=dtype, offset=1, count=len(values))
    array[:] = values
    assert not array.flags.aligned
    return array


@pytest.mark.parametrize("dtype", ["<i8", ">i8", "<u8", ">u8"])
def test_misaligned_and_byte_swapped_int64_actions_are_read_right(dtype):
    game = dimsum.make("yum_cha")
    reference = dimsum.BatchEnv(game, 3, seed=4)
    env = dimsum.BatchEnv(game, 3, seed=4)
    reference.reset()
    env.reset()
    for k in range(12):
        actions = reference.sample_actions(k).copy()
        given = misaligned(actions, dtype) if k % 2 else actions.astype(dtype)
        expected = reference.step(actions)[0].copy()
        np.testing.assert_array_equal(env.step(given)[0], expected)
    before = state_of(env)
    legal = env.sample_actions(99).copy()
    for bad in (-1, -(2**62), 2**40) if dtype.endswith("i8") else (2**40, 2**63 + 1):
        values = [int(legal[0]), bad, int(legal[2])]
        for given in (misaligned(values, dtype), np.array(values, dtype=dtype)):
            with pytest.raises(_batch.IllegalAction) as e:
                _batch._BatchEnv.step(env, given)
            assert e.value.args[1] == bad  # the value given, not a garbled one
    assert state_of(env) == before


@pytest.mark.parametrize("bad", [2**63, 2**63 + 5, 2**64, 2**100, -(2**63) - 1, np.uint64(2**63), np.uint64(2**64 - 1)])
def test_ints_beyond_int64_in_a_list_are_out_of_range_not_floats(bad):
    # numpy makes [0, 2**63] float64 (2**63 + 5 rounded) and [0, 2**64] object: they are ints all the same
    env = fresh_env()
    before = state_of(env)
    legal = env.sample_actions(0).copy()
    for actions in ([int(legal[0]), bad, int(legal[2])], (legal[0], bad, legal[2])):
        with pytest.raises(dimsum.IllegalActionError, match=f"env 1: action {int(bad)} is out of range"):
            env.step(actions)
    assert state_of(env) == before
    with pytest.raises(TypeError, match="actions must be integers"):
        env.step([float(legal[0]), bad, float(legal[2])])  # floats are refused, as ever
    env.step(np.array(legal.tolist(), dtype=object))  # an object array of ints is ints
    assert state_of(env) != before
