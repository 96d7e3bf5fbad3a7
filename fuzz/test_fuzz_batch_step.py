"""BatchEnv.step with every kind of input: arrays of every dtype, shape, byte order and stride,
out-of-range values, lists, junk objects. Only ValueError/TypeError (IllegalActionError is a
ValueError) may come out, a refused step moves no env, and the env still works afterwards."""

import functools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import dimsum
from fuzzlib import ALLOWED, GAMES, RUNS, budget, junk, make, sampled_configs, seeded

DTYPES = ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "?", "O", "U3", "S3",
          "m8[s]", "M8[s]", "V8"]


@functools.lru_cache(maxsize=None)
def env_for(name, index, num_envs):
    options = sampled_configs(name)[index]
    return dimsum.BatchEnv(make(name, options), num_envs=num_envs, seed=index, threads=1)


def values(data, env, n):
    legal = env.sample_actions(data.draw(st.integers(0, 1000), label="policy")).tolist()
    return data.draw(st.one_of(
        st.just(legal),
        st.lists(st.integers(-3, env.num_actions + 3), min_size=n, max_size=n),
        st.lists(st.sampled_from([0, -1, env.num_actions, 2**31 - 1, 2**31, 2**32 + legal[0], 2**63 - 1,
                                  -(2**63), 255, 256, 65535, 65536]), min_size=n, max_size=n),
    ), label="values")


def array_of(data, env, n):
    dtype = np.dtype(data.draw(st.sampled_from(DTYPES), label="dtype"))
    if dtype.kind in "iuf" and dtype.itemsize > 1:
        dtype = dtype.newbyteorder(data.draw(st.sampled_from(["=", ">", "<"]), label="order"))
    vals = values(data, env, n)
    try:
        with np.errstate(all="ignore"):
            base = np.array([v % (2**64) if dtype.kind == "u" else v for v in vals], dtype=object).astype(dtype)
    except (OverflowError, ValueError, TypeError):
        base = np.zeros(n, dtype=dtype)
    layout = data.draw(st.sampled_from(["plain", "strided", "reversed", "2d", "column", "scalar", "short", "long",
                                        "fortran", "readonly", "empty", "unaligned"]), label="layout")
    if layout == "strided":
        wide = np.zeros(2 * n, dtype=dtype)
        wide[::2] = base
        return wide[::2]
    if layout == "reversed":
        return base[::-1].copy()[::-1]
    if layout == "2d":
        return base.reshape(1, n)
    if layout == "column":
        return np.asfortranarray(base.reshape(n, 1))
    if layout == "scalar":
        return base[0]
    if layout == "short":
        return base[:-1]
    if layout == "long":
        return np.concatenate([base, base[:1]])
    if layout == "fortran":
        return np.asfortranarray(np.stack([base, base])).T[:, 0]
    if layout == "readonly":
        base.flags.writeable = False
        return base
    if layout == "empty":
        return np.empty((0,), dtype=dtype)
    if layout == "unaligned" and dtype.itemsize > 1 and dtype.kind in "iuf":
        raw = np.zeros(n * dtype.itemsize + 1, dtype=np.uint8)
        out = raw[1:].view(dtype)
        out[:] = base
        return out
    return base


def actions_input(data, env, n):
    kind = data.draw(st.sampled_from(["array", "array", "array", "list", "tuple", "junk", "nested", "memoryview",
                                      "bytes", "generator", "bools"]), label="input")
    if kind == "array":
        return array_of(data, env, n)
    if kind == "list":
        return values(data, env, n)
    if kind == "tuple":
        return tuple(values(data, env, n))
    if kind == "nested":
        return [[v] for v in values(data, env, n)]
    if kind == "memoryview":
        return memoryview(np.array(values(data, env, n), dtype=np.int64) % 256)
    if kind == "bytes":
        return bytes(v % 256 for v in values(data, env, n))
    if kind == "generator":
        return (v for v in values(data, env, n))
    if kind == "bools":
        return [bool(v) for v in values(data, env, n)]
    return data.draw(junk, label="junk")


def snapshot(env):
    return [env._state_bytes(i) for i in range(env.num_envs)]


@pytest.mark.parametrize("name", GAMES)
@seeded
@budget(150)
@given(data=st.data())
def test_batch_step_inputs(name, data):
    RUNS["BatchEnv.step: inputs"] += 1
    index = data.draw(st.integers(0, len(sampled_configs(name)) - 1), label="config")
    n = data.draw(st.integers(1, 4), label="num_envs")
    env = env_for(name, index, n)
    if data.draw(st.booleans(), label="reset"):
        env.reset(data.draw(st.integers(0, 2**64 - 1), label="seed"))
    actions = actions_input(data, env, n)
    before = snapshot(env)
    copy = data.draw(st.sampled_from([False, True]), label="copy")
    try:
        obs, rewards, terminated, truncated, info = env.step(actions, copy=copy)
    except ALLOWED:
        assert snapshot(env) == before, "a refused step moved an env"
    else:
        assert obs.shape == (n, *env.observation_shape) and rewards.shape[0] == n
    # the env still works, and every env holds a valid game
    for i in range(n):
        env.clone_state(i).check()
    env.step(env.sample_actions(data.draw(st.integers(0, 1000), label="policy")))
