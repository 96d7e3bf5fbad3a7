"""The C API (dimsum.h, libdimsum; docs/C_API.md): C programs built with the system C compiler
against dimsum.get_include() / dimsum.get_library() step every game, and what they read is
dimsum.BatchEnv's, byte for byte, for the same seeds and actions; every bad argument is an error
code with a message that leaves the env as it was (checked through ctypes, the library's C ABI)."""

from __future__ import annotations

import ctypes
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Dict, List, Optional

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dimsum

from needs import need

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "c"
SEED = 42
NUM_ENVS = 8
STEPS = 200


def find_c_compiler() -> Optional[List[str]]:
    """$CC, else cc, gcc or clang; None if there is none."""
    if os.environ.get("CC"):
        command = shlex.split(os.environ["CC"])
        if command and shutil.which(command[0]):
            return command
    for name in ("cc", "gcc", "clang"):
        if shutil.which(name):
            return [shutil.which(name)]  # type: ignore[list-item]
    return None


def build_c(sources: List[Path], out: Path, extra: Optional[List[str]] = None) -> Path:
    """Compiles a C99 program against the C API as a user would: -I get_include(), the library
    from get_library(), its folder as the rpath. Warnings are errors: the header must be clean."""
    compiler = find_c_compiler()
    need(compiler is not None and sys.platform != "win32", "a C compiler (cc, gcc or clang) on a POSIX system")
    assert compiler is not None
    library = Path(dimsum.get_library())
    command = [*compiler, "-std=c99", "-O1", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-I", dimsum.get_include(),
               "-I", str(EXAMPLES), *map(str, sources), "-o", str(out), "-L", str(library.parent), "-ldimsum",
               f"-Wl,-rpath,{library.parent}", *(extra or [])]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{shlex.join(command)}\n{result.stdout}{result.stderr}"
    return out


@pytest.fixture(scope="module")
def step_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_c([EXAMPLES / "step_games.c"], tmp_path_factory.mktemp("capi") / "step_games")


class Log:
    """A binary log the C programs write: fixed-size records read in order."""

    def __init__(self, path: Path) -> None:
        self.data = path.read_bytes()
        self.at = 0

    def take(self, dtype: type, count: int) -> np.ndarray:
        size = np.dtype(dtype).itemsize * count
        assert self.at + size <= len(self.data), "the log ended early"
        out = np.frombuffer(self.data, dtype, count, self.at)
        self.at += size
        return out

    def done(self) -> bool:
        return self.at == len(self.data)


def replay(log: Log, env: dimsum.BatchEnv, seed: int, steps: int, current_players: bool = True) -> None:
    """Checks a C program's log against `env` reset with `seed` and stepped with the logged actions."""
    n, obs_size, num_actions = env.num_envs, env.observation_size, env.num_actions
    obs, info = env.reset(seed)
    assert log.take(np.float32, n * obs_size).tobytes() == obs.tobytes()
    assert log.take(np.uint8, n * num_actions).tobytes() == info["legal_mask"].astype(np.uint8).tobytes()
    for t in range(steps):
        actions = log.take(np.int32, n)
        obs, rewards, terminated, truncated, info = env.step(actions)
        where = f"step {t}"
        assert log.take(np.float32, n * obs_size).tobytes() == obs.tobytes(), where
        assert log.take(np.uint8, n * num_actions).tobytes() == info["legal_mask"].astype(np.uint8).tobytes(), where
        assert log.take(np.float32, rewards.size).tobytes() == rewards.astype(np.float32).tobytes(), where
        assert log.take(np.uint8, n).tobytes() == terminated.astype(np.uint8).tobytes(), where
        assert log.take(np.uint8, n).tobytes() == truncated.astype(np.uint8).tobytes(), where
        if current_players:
            assert log.take(np.int32, n).tobytes() == info["current_player"].astype(np.int32).tobytes(), where
    assert log.done(), "the log is longer than its steps"


def test_c_example_steps_every_game_as_batch_env_does(step_games: Path, tmp_path: Path) -> None:
    """examples/c/step_games.c plays every game (every seat; seat 1 of 3 against the heuristic)
    and logs what each step wrote into its buffers: the same bytes as BatchEnv's."""
    result = subprocess.run([str(step_games), str(NUM_ENVS), str(STEPS), str(SEED), str(tmp_path)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    for game in dimsum.games():
        assert re.search(rf"^{game} +learner_seat -1: {NUM_ENVS} envs x {STEPS} steps", result.stdout, re.M)
        every = dimsum.BatchEnv(dimsum.make(game), NUM_ENVS, seed=0, threads=1)
        replay(Log(tmp_path / f"{game}_every_seat.bin"), every, SEED, STEPS)
        learner = dimsum.BatchEnv(dimsum.make(game, players=3), NUM_ENVS, seed=0, threads=1, learner_seat=1,
                                  opponent="heuristic")
        replay(Log(tmp_path / f"{game}_learner_seat.bin"), learner, SEED, STEPS)


def test_pufferlib_style_binding_under_a_vectorizer_harness(tmp_path: Path) -> None:
    """examples/c/dimsum_puffer.h (c_reset/c_step/c_close over a struct whose buffers the
    vectorizer owns), driven by puffer_harness.c as PufferLib drives a native env (pufferlib
    itself does not install here): its buffers hold BatchEnv's bytes, step after step."""
    harness = build_c([EXAMPLES / "puffer_harness.c"], tmp_path / "puffer_harness")
    for game in dimsum.games():
        log = tmp_path / f"{game}.bin"
        result = subprocess.run([str(harness), game, "6", "150", "7", str(log)], capture_output=True, text=True,
                                timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
        assert re.match(rf"{game}: 6 agents x 150 steps: episodes \d+", result.stdout)
        env = dimsum.BatchEnv(dimsum.make(game), 6, seed=0, threads=1, learner_seat=0, opponent="heuristic")
        replay(Log(log), env, 7, 150, current_players=False)


def test_header_is_c99_and_cxx_clean(tmp_path: Path) -> None:
    """dimsum.h compiles alone as strict C99 and as C++ (extern "C"), with every warning an error."""
    source = tmp_path / "only_header.c"
    source.write_text('#include "dimsum.h"\n'
                      "int main(void) { return dimsum_api_version() == DIMSUM_C_API_VERSION ? 0 : 1; }\n")
    program = build_c([source], tmp_path / "only_header")
    assert subprocess.run([str(program)], timeout=60).returncode == 0
    cxx = shutil.which("c++") or shutil.which("g++")
    if cxx is not None:
        result = subprocess.run([cxx, "-std=c++11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-x", "c++",
                                 "-I", dimsum.get_include(), str(source)], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr


def test_default_configs_are_current() -> None:
    """src/capi/default_configs.inc (each game's default config for the C API) is what
    make_default_configs.py writes now: the games' options are declared once, in Python."""
    sys.path.insert(0, str(ROOT / "src" / "capi"))
    try:
        import make_default_configs
    finally:
        sys.path.pop(0)
    current = (ROOT / "src" / "capi" / "default_configs.inc").read_text()
    assert current == make_default_configs.text(), "run: PYTHONPATH=python python src/capi/make_default_configs.py"


# ---------------------------------------------------------------------------------------------
# The C ABI through ctypes: codes, messages, and nothing changed by a refused call.

OK, NULL_ARGUMENT, UNKNOWN_GAME, BAD_OPTIONS, BAD_ARGUMENT, ILLEGAL_ACTION, NOT_RESET = 0, -1, -2, -3, -4, -5, -6


class Info(ctypes.Structure):
    _fields_ = [(name, ctypes.c_int32) for name in ("num_envs", "players", "observation_size", "num_actions",
                                                     "reward_size", "learner_seat", "max_episode_steps", "threads")]


class Buffers(ctypes.Structure):
    _fields_ = [("observations", ctypes.POINTER(ctypes.c_float)), ("observations_len", ctypes.c_size_t),
                ("action_masks", ctypes.POINTER(ctypes.c_uint8)), ("action_masks_len", ctypes.c_size_t),
                ("rewards", ctypes.POINTER(ctypes.c_float)), ("rewards_len", ctypes.c_size_t),
                ("terminations", ctypes.POINTER(ctypes.c_uint8)), ("terminations_len", ctypes.c_size_t),
                ("truncations", ctypes.POINTER(ctypes.c_uint8)), ("truncations_len", ctypes.c_size_t),
                ("current_players", ctypes.POINTER(ctypes.c_int32)), ("current_players_len", ctypes.c_size_t)]


@pytest.fixture(scope="module")
def lib() -> ctypes.CDLL:
    lib = ctypes.CDLL(dimsum.get_library())
    c = ctypes
    lib.dimsum_api_version.restype = c.c_int32
    lib.dimsum_game_name.restype = c.c_char_p
    lib.dimsum_game_name.argtypes = [c.c_int32]
    lib.dimsum_env_create.argtypes = [c.c_char_p, c.c_char_p, c.c_int32, c.c_int32, c.c_char_p, c.c_int32, c.c_int32,
                                      c.POINTER(c.c_void_p)]
    lib.dimsum_env_destroy.argtypes = [c.c_void_p]
    lib.dimsum_env_get_info.argtypes = [c.c_void_p, c.POINTER(Info)]
    lib.dimsum_env_reset.argtypes = [c.c_void_p, c.c_uint64, c.POINTER(Buffers)]
    lib.dimsum_env_step.argtypes = [c.c_void_p, c.POINTER(c.c_int32), c.c_size_t]
    lib.dimsum_env_sample_actions.argtypes = [c.c_void_p, c.c_uint64, c.POINTER(c.c_int32), c.c_size_t]
    lib.dimsum_last_error.restype = c.c_char_p
    lib.dimsum_last_error.argtypes = [c.c_void_p]
    return lib


def error(lib: ctypes.CDLL, env: Optional[int] = None) -> str:
    return lib.dimsum_last_error(env).decode()


def create(lib: ctypes.CDLL, game: str = "pig", options: Optional[str] = None, num_envs: int = 4,
           learner_seat: int = -1, opponent: Optional[str] = None, threads: int = 1, max_steps: int = 0):
    """(status, env handle or None)."""
    out = ctypes.c_void_p()
    status = lib.dimsum_env_create(game.encode(), None if options is None else options.encode(), num_envs,
                                   learner_seat, None if opponent is None else opponent.encode(), threads, max_steps,
                                   ctypes.byref(out))
    return status, out.value


class Env:
    """An env made through the C API, with numpy arrays as its buffers."""

    def __init__(self, lib: ctypes.CDLL, **kwargs) -> None:
        status, self.handle = create(lib, **kwargs)
        assert status == OK, error(lib)
        self.lib = lib
        self.info = Info()
        assert lib.dimsum_env_get_info(self.handle, ctypes.byref(self.info)) == OK
        n = self.info.num_envs
        self.arrays: Dict[str, np.ndarray] = {
            "observations": np.zeros(n * self.info.observation_size, np.float32),
            "action_masks": np.zeros(n * self.info.num_actions, np.uint8),
            "rewards": np.zeros(n * self.info.reward_size, np.float32),
            "terminations": np.zeros(n, np.uint8), "truncations": np.zeros(n, np.uint8),
            "current_players": np.zeros(n, np.int32)}
        self.buffers = self.make_buffers()

    def make_buffers(self, **lengths: int) -> Buffers:
        b = Buffers()
        for name, array in self.arrays.items():
            setattr(b, name, array.ctypes.data_as(Buffers._fields_[[f[0] for f in Buffers._fields_].index(name)][1]))
            setattr(b, name + "_len", lengths.get(name, array.size))
        return b

    def reset(self, seed: int, buffers: Optional[Buffers] = None) -> int:
        return self.lib.dimsum_env_reset(self.handle, seed, ctypes.byref(buffers or self.buffers))

    def step(self, actions, length: Optional[int] = None) -> int:
        a = np.ascontiguousarray(actions, np.int32)
        return self.lib.dimsum_env_step(self.handle, a.ctypes.data_as(ctypes.POINTER(ctypes.c_int32)),
                                        a.size if length is None else length)

    def snapshot(self) -> Dict[str, bytes]:
        return {name: array.tobytes() for name, array in self.arrays.items()}

    def error(self) -> str:
        return error(self.lib, self.handle)

    def close(self) -> None:
        self.lib.dimsum_env_destroy(self.handle)


def test_version_and_games(lib: ctypes.CDLL) -> None:
    header = (Path(dimsum.get_include()) / "dimsum.h").read_text()
    version = int(re.search(r"#define DIMSUM_C_API_VERSION (\d+)", header).group(1))  # type: ignore[union-attr]
    assert lib.dimsum_api_version() == version
    names = []
    while (name := lib.dimsum_game_name(len(names))) is not None:
        names.append(name.decode())
    assert sorted(names) == list(dimsum.games())
    assert lib.dimsum_game_name(-1) is None


def test_create_refuses_bad_arguments_with_a_message(lib: ctypes.CDLL) -> None:
    cases = [
        (dict(game="chess"), UNKNOWN_GAME, "game 'chess' is not compiled into this library; games: "),
        (dict(num_envs=0), BAD_ARGUMENT, "num_envs must be in [1, 16777216], got 0"),
        (dict(threads=-1), BAD_ARGUMENT, "threads must be in [0, 1024]"),
        (dict(max_steps=-5), BAD_ARGUMENT, "max_episode_steps must be >= 0"),
        (dict(learner_seat=2), BAD_ARGUMENT, "learner_seat must be -1 or a seat in 0..1, got 2"),
        (dict(learner_seat=-2), BAD_ARGUMENT, "learner_seat must be -1"),
        (dict(opponent="random"), BAD_ARGUMENT, "opponent plays the seats other than learner_seat"),
        (dict(learner_seat=0, opponent="oracle"), BAD_ARGUMENT,
         "unknown opponent policy 'oracle' for pig; known: random, heuristic"),
        (dict(options='{"players": 3'), BAD_OPTIONS, "options JSON, at character 13: ',' or '}' expected"),
        (dict(options='{"players": "3"}'), BAD_OPTIONS, "a string is not a value a field takes"),
        (dict(options='{"players": 2.5}'), BAD_OPTIONS, "fields take integers"),
        (dict(options='{"players": null}'), BAD_OPTIONS, "null is not a value"),
        (dict(options='[2]'), BAD_OPTIONS, "the options must be a JSON object"),
        (dict(options='{"players": 3, "players": 3}'), BAD_OPTIONS, "field 'players' is given twice"),
        (dict(options='{"players": 99999999999999999999}'), BAD_OPTIONS, "integer out of the int64 range"),
        (dict(options='{"winscore": 1} x'), BAD_OPTIONS, "text after the object"),
        (dict(options='{"speed": 1}'), BAD_OPTIONS,
         "pig has no config field 'speed'; its fields: players, winscore, diceoutcomes, horizon, piglet, "
         "explicit_chance"),
        (dict(options='{"players": 99}'), BAD_OPTIONS,
         "pig config field 'players': 99 is out of range; allowed [2, 10]"),
        (dict(options='{"players": [2]}'), BAD_OPTIONS,
         "pig config field 'players': one integer expected, got a list"),
        (dict(options='{"explicit_chance": true}'), BAD_OPTIONS, "explicit_chance must be 0"),
        (dict(game="yum_cha", options='{"tier_points": 3}'), BAD_OPTIONS, "'tier_points': a list of rows expected"),
        (dict(game="yum_cha", options='{"card_types": [[0, 0, 1]]}'), BAD_OPTIONS,
         "'card_types': each row has 4 value(s)"),
        (dict(game="yum_cha", options='{"max_game_length": 5}'), BAD_OPTIONS, None),
    ]
    for kwargs, code, message in cases:
        status, env = create(lib, **kwargs)
        assert (status, env) == (code, None), kwargs
        if message is not None:
            assert message in error(lib), (kwargs, error(lib))
    out = ctypes.c_void_p()
    assert lib.dimsum_env_create(None, None, 4, -1, None, 1, 0, ctypes.byref(out)) == NULL_ARGUMENT
    assert error(lib) == "game is NULL"
    assert lib.dimsum_env_create(b"pig", None, 4, -1, None, 1, 0, None) == NULL_ARGUMENT
    status, env = create(lib)  # a success clears the thread's message
    assert status == OK and error(lib) == ""
    lib.dimsum_env_destroy(env)
    lib.dimsum_env_destroy(None)


def test_options_json_builds_the_game_make_builds(lib: ctypes.CDLL) -> None:
    """Config fields by name, lists included: the same game as dimsum.make with those options."""
    env = Env(lib, game="pig", options='{"players": 3, "winscore": 30, "piglet": false}', num_envs=4)
    assert (env.info.players, env.info.reward_size) == (3, 3)
    assert env.reset(5) == OK
    batch = dimsum.BatchEnv(dimsum.make("pig", players=3, winscore=30), 4, seed=5, threads=1)
    rng = np.random.default_rng(0)
    for _ in range(100):
        mask = env.arrays["action_masks"].reshape(4, -1).astype(bool)
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask], np.int32)
        assert env.step(actions) == OK
        obs, rewards, *_ = batch.step(actions)
        assert env.arrays["observations"].tobytes() == obs.tobytes()
        assert env.arrays["rewards"].tobytes() == rewards.astype(np.float32).tobytes()
    env.close()
    # a counted list field, and a fixed one, given whole: the defaults again build the same game
    default = dimsum.make("yum_cha").config_values
    tiers = default[10:10 + default[9]]
    env = Env(lib, game="yum_cha", options=f'{{"tier_points": {list(tiers)}, "players": 2}}', num_envs=2)
    assert env.info.players == 2
    env.close()


def test_reset_and_step_refuse_bad_buffers_and_actions_and_change_nothing(lib: ctypes.CDLL) -> None:
    env = Env(lib, game="pig", num_envs=4)
    assert env.step([0, 0, 0, 0]) == NOT_RESET and "before the first reset" in env.error()
    assert lib.dimsum_env_reset(env.handle, 1, None) == NULL_ARGUMENT and env.error() == "buffers is NULL"
    short = env.make_buffers(observations=env.arrays["observations"].size - 1)
    assert env.reset(1, short) == BAD_ARGUMENT
    assert "buffers->observations_len is" in env.error() and "needs at least" in env.error()
    missing = env.make_buffers()
    missing.rewards = None
    assert env.reset(1, missing) == NULL_ARGUMENT and env.error() == "buffers->rewards is NULL"
    no_players = env.make_buffers()
    no_players.current_players = None  # optional
    assert env.reset(9, no_players) == OK
    assert env.reset(9) == OK
    before = env.snapshot()
    assert env.step([0, 0, 0]) == BAD_ARGUMENT and "actions_len must be num_envs (4), got 3" in env.error()
    assert lib.dimsum_env_step(env.handle, None, 4) == NULL_ARGUMENT
    assert env.step([0, 0, 7, 0]) == ILLEGAL_ACTION
    assert env.error() == "env 2: action 7 is out of range: actions are 0..5; no env has moved"
    assert env.step([0, -1, 0, 0]) == ILLEGAL_ACTION and "env 1: action -1 is out of range" in env.error()
    assert env.snapshot() == before
    # an action in range but not legal (pig's actions past its two are padding, never legal)
    mask = env.arrays["action_masks"].reshape(4, -1)
    illegal = [(i, a) for i in range(4) for a in range(mask.shape[1]) if not mask[i, a]]
    assert illegal
    i, a = illegal[0]
    actions = [int(np.flatnonzero(row)[0]) for row in mask]
    actions[i] = a
    assert env.step(actions) == ILLEGAL_ACTION and f"env {i}: action {a} is not legal for player" in env.error()
    assert env.snapshot() == before
    # then the env goes on exactly as BatchEnv does from the same seed
    batch = dimsum.BatchEnv(dimsum.make("pig"), 4, seed=9, threads=1)
    for t in range(50):
        sampled = np.zeros(4, np.int32)
        assert lib.dimsum_env_sample_actions(env.handle, t, sampled.ctypes.data_as(ctypes.POINTER(ctypes.c_int32)),
                                             4) == OK
        assert sampled.tolist() == batch.sample_actions(t).tolist()
        assert env.step(sampled) == OK
        obs, *_ = batch.step(sampled)
        assert env.arrays["observations"].tobytes() == obs.tobytes()
    assert lib.dimsum_env_sample_actions(env.handle, 0, None, 4) == NULL_ARGUMENT
    assert lib.dimsum_env_step(None, None, 0) == NULL_ARGUMENT
    assert lib.dimsum_env_get_info(None, None) == NULL_ARGUMENT
    env.close()


def test_create_errors_are_per_thread(lib: ctypes.CDLL) -> None:
    """dimsum_last_error(NULL) is the calling thread's: another thread's failure does not touch it."""
    assert create(lib, game="chess")[0] == UNKNOWN_GAME
    seen = []
    thread = threading.Thread(target=lambda: seen.append((create(lib, num_envs=0)[0], error(lib))))
    thread.start()
    thread.join()
    assert seen[0][0] == BAD_ARGUMENT and "num_envs" in seen[0][1]
    assert "game 'chess'" in error(lib)


def test_the_docs_c_example_builds_and_runs(tmp_path: Path) -> None:
    """docs/C_API.md's ```c example is a whole program: it compiles warning-free and runs."""
    text = (ROOT / "docs" / "C_API.md").read_text()
    blocks = re.findall(r"^```c\n(.*?)^```", text, re.M | re.S)
    assert len(blocks) == 1
    source = tmp_path / "doc_example.c"
    source.write_text(blocks[0])
    program = build_c([source], tmp_path / "doc_example")
    result = subprocess.run([str(program)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


# Options texts: fragments of JSON, and well-formed objects of the fields' names with odd values
_FRAGMENT = st.text(alphabet='{}[],:"-.eE0123456789 truefalsn_playerswinco\\\n\t\x00é', max_size=40)
_VALUE = st.recursive(st.one_of(st.integers(-2**70, 2**70), st.booleans()),
                      lambda inner: st.lists(inner, max_size=4), max_leaves=12)
_OBJECT = st.dictionaries(st.sampled_from(["players", "winscore", "diceoutcomes", "horizon", "piglet",
                                           "explicit_chance", "tier_points", "card_types", "rounds", "x"]),
                          _VALUE, max_size=4).map(json.dumps)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(["pig", "yum_cha"]), text=st.one_of(_FRAGMENT, _OBJECT))
def test_any_options_text_is_a_game_or_a_bad_options_code(lib: ctypes.CDLL, game: str, text: str) -> None:
    """Whatever the options text, create makes an env or refuses it with BAD_OPTIONS and a
    message; it never crashes, and an env it makes resets and steps."""
    status, handle = create(lib, game=game, options=text, num_envs=2)
    if status == OK:
        lib.dimsum_env_destroy(handle)
        env = Env(lib, game=game, options=text, num_envs=2)
        assert env.reset(3) == OK
        for t in range(20):
            sampled = np.zeros(2, np.int32)
            pointer = sampled.ctypes.data_as(ctypes.POINTER(ctypes.c_int32))
            assert lib.dimsum_env_sample_actions(env.handle, t, pointer, 2) == OK
            assert env.step(sampled) == OK, env.error()
        env.close()
        return
    assert (status, handle) == (BAD_OPTIONS, None), (text, status)
    assert error(lib), text
