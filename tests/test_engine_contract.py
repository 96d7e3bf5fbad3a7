"""The C++ engine contract (src/dimsum_core/common/engine.hpp): its limits and its defaults.

The player cap: every game declares Engine::kMaxPlayers, at most the shared dimsum::kMaxPlayers
(dimsum._core.MAX_PLAYERS), and every per-player buffer (returns, observations per player,
BatchEnv rows, IS-MCTS's rollout returns) holds a config at that cap. What no registered game
can show (a config past its game's cap, chance outcomes outnumbering actions, a game without a
heuristic) and the shared layout checks of validate (common/validate.hpp) are checked on a toy
game, tests/cpp/engine_contract.cpp.
"""

import json
import re
import shlex
import subprocess
import sys

import numpy as np
import pytest

import dimsum
from dimsum import _core, bots
from dimsum.reference.rng import Rng
from dimsum.testing import profile

from cpp.core_hooks import INCLUDE, find_compiler

GAMES = _core.registered_games()
TOY_SOURCE = INCLUDE.parent / "tests" / "cpp" / "engine_contract.cpp"


def compile_toy(out_dir, *defines):
    """Compiles the toy; returns (the executable or None, the compiler's output)."""
    compiler = find_compiler()
    if compiler is None:
        pytest.skip("no C++ compiler ($CXX, g++, clang++ or c++) to build tests/cpp/engine_contract.cpp")
    if not (INCLUDE / "dimsum_core").is_dir():
        pytest.skip(f"the C++ sources are not here ({INCLUDE}): the toy needs a source checkout")
    executable = out_dir / ("engine_contract.exe" if sys.platform == "win32" else "engine_contract")
    build = [*compiler, "-std=c++20", "-O1", "-Wall", "-Wextra", "-Wpedantic", *defines, "-I", str(INCLUDE),
             str(TOY_SOURCE), "-o", str(executable)]
    done = subprocess.run(build, capture_output=True, text=True)
    return (executable if done.returncode == 0 else None), f"{shlex.join(build)}:\n{done.stdout}{done.stderr}"


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """Runs commands through the toy (see engine_contract.cpp); one parsed answer per command."""
    executable, output = compile_toy(tmp_path_factory.mktemp("engine_contract"))
    if executable is None:
        pytest.fail(output, pytrace=False)

    def run(*commands):
        done = subprocess.run([str(executable)], input="".join(c + "\n" for c in commands), capture_output=True,
                              text=True, check=True)
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(answers) == len(commands), done.stdout + done.stderr
        return answers

    return run


def players_option(name):
    (spec,) = [o for o in dimsum.options(name) if o.name == "players"]
    return spec


def at_player_cap(name):
    """The game at the most players its options allow."""
    return dimsum.make(name, players=players_option(name).maximum)


@pytest.mark.parametrize("name", GAMES)
def test_player_cap_every_game_fits_the_shared_cap(name):
    assert 1 <= players_option(name).maximum <= _core.MAX_PLAYERS


@pytest.mark.parametrize("name", GAMES)
def test_player_cap_one_past_the_games_maximum_is_refused_by_name(name):
    with pytest.raises(ValueError, match="players"):
        dimsum.make(name, players=players_option(name).maximum + 1)


@pytest.mark.parametrize("name", GAMES)
def test_player_cap_per_move_returns_and_observations_at_the_cap(name):
    game = at_player_cap(name)
    state, rng = game.new_state(11), Rng(5)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.bounded(len(legal))])
    returns = state.returns()
    assert len(returns) == game.players
    assert all(game.min_return <= r <= game.max_return for r in returns)
    low, high = game.observation_bounds
    for p in range(game.players):
        obs = state.observation(p)
        assert obs.shape == game.observation_shape
        assert np.all((low <= obs) & (obs <= high))


@pytest.mark.parametrize("name", GAMES)
def test_player_cap_batch_env_rows_at_the_cap(name):
    game = at_player_cap(name)
    env = dimsum.BatchEnv(game, num_envs=3, seed=2, threads=1, max_episode_steps=40)
    obs, info = env.reset()
    assert obs.shape == (3, *game.observation_shape)  # the player to act's
    ended = 0
    for k in range(60):
        obs, rewards, terminated, truncated, info = env.step(env.sample_actions(k))
        assert rewards.shape == (3, game.players)
        done = terminated | truncated
        ended += int(done.sum())
        if done.any():
            assert info["final_returns"].shape == (3, game.players)
            assert info["final_observation"].shape == (int(done.sum()), game.players, env.observation_size)
    assert ended > 0  # max_episode_steps ends every episode within the loop


@pytest.mark.parametrize("name", GAMES)
def test_player_cap_learner_seat_and_bots_at_the_cap(name):
    game = at_player_cap(name)
    last = game.players - 1
    env = dimsum.BatchEnv(game, num_envs=2, seed=4, threads=1, max_episode_steps=30, learner_seat=last,
                          opponent="heuristic")
    env.reset()
    for k in range(40):
        _, rewards, _, _, _ = env.step(env.sample_actions(k))
        assert rewards.shape == (2,)
    state = game.new_state(3)
    while state.is_chance_node:
        state.apply(state.legal_actions()[0])
    for kind, params in (("heuristic", {}), ("ismcts", {"simulations": 20})):
        action = bots.make(kind, game, seed=1, **params).act(state)
        assert state.is_legal(action)


def test_player_cap_a_config_past_its_games_cap_is_refused_when_built(toy):
    at_cap, past = toy("build 4 5 0", "build 5 5 0")  # the toy declares kMaxPlayers = 4
    assert at_cap == {"ok": True, "message": ""}
    assert not past["ok"]
    assert past["message"] == "toy config: 5 players; this game declares 1 to 4 (its Engine::kMaxPlayers)"


def test_player_cap_a_game_past_the_shared_cap_does_not_build(tmp_path):
    executable, output = compile_toy(tmp_path, f"-DTOY_MAX_PLAYERS={_core.MAX_PLAYERS + 1}")
    assert executable is None
    assert "kMaxPlayers must be in [1, dimsum::kMaxPlayers]" in output


def test_byte_layout_a_state_member_left_out_of_it_does_not_build(tmp_path):
    """A State's ByteLayout (its little-endian bytes, common/byte_order.hpp) must name every member:
    one forgotten would leave its bytes in host order on a big-endian machine."""
    executable, output = compile_toy(tmp_path, "-DTOY_LAYOUT_LEAVES_OUT_TURN")
    assert executable is None
    assert "ByteLayout<T> must name every member of T exactly once" in output


def test_chance_outcome_ids_lie_inside_the_action_range_when_built(toy):
    equal, more = toy("build 2 5 5", "build 2 5 6")
    assert equal["ok"]
    assert not more["ok"]
    assert more["message"].startswith("toy config: 6 chance outcomes but 5 actions; chance outcomes share the id "
                                      "range of actions")
    assert "pads num_actions" in more["message"]


@pytest.mark.parametrize("name", GAMES)
def test_chance_outcome_ids_lie_inside_the_action_range_in_every_game(name):
    game = dimsum.make(name, chance="explicit")
    assert 0 < game.num_chance_outcomes <= game.num_actions


def test_heuristic_default_is_a_uniformly_random_legal_action_from_rng(toy):
    (answer,) = toy("heuristic 7 200")
    assert answer["default"] == answer["random"]  # the same draws as LegalActions::pick
    assert sorted(set(answer["default"])) == list(range(7))  # every legal action comes up
    assert answer["member"] == [6] * 200  # a game's own heuristic_action is used when declared


def test_validate_layout_checks_accept_what_new_state_leaves_and_name_the_field(toy):
    (messages,) = toy("layout")
    assert messages == {
        "rng_running": "",
        "rng_zero": "toy state field 'rng': all zero; an all-zero generator never leaves zero",
        "reserved_zero": "",
        "reserved_set": "toy state field 'reserved': set; reserved bytes are zero",
        "seats_played_set": "",
        "seat_past_players_set": "toy state field 'scores': seat 4 is set; this game has 3 seats, the others are empty",
        "seats_past_players_at_their_empty_value": "",
        "seat_past_players_zero_where_empty_is_minus_one":
            "toy state field 'colour': seat 3 is set; this game has 3 seats, the others are empty",
    }


@pytest.mark.parametrize("name", GAMES)
def test_validate_layout_an_all_zero_generator_is_refused_in_every_game(name):
    game = dimsum.make(name)
    fields = game.new_state(1).fields()
    fields["rng"] = [0, 0, 0, 0]
    with pytest.raises(ValueError, match=f"^{name} state field 'rng': all zero; "):
        game.state_from_fields(fields)


@pytest.mark.parametrize("name", GAMES)
def test_validate_layout_seats_past_players_and_reserved_bytes_are_refused_in_every_game(name):
    """Each byte of a two-player state flipped in turn: the bytes of the seats past the second
    and the reserved bytes are refused by the shared checks, naming the field."""
    game = dimsum.make(name, players=2)
    data = game.new_state(1).to_bytes()
    seats, reserved = set(), 0
    for i in range(len(data) - game.state_size, len(data)):
        corrupt = bytearray(data)
        corrupt[i] ^= 0x01
        try:
            game.state_from_bytes(bytes(corrupt))
        except ValueError as e:
            seat = re.match(rf"{name} state field '(\w+)': seat (\d+) is set; this game has 2 seats, the others "
                            r"are empty$", str(e))
            if seat:
                assert int(seat[2]) >= 2
                seats.add(seat[1])
            reserved += str(e) == f"{name} state field 'reserved': set; reserved bytes are zero"
    assert seats, "no seat past the second was refused"
    if profile(name).reserved_bytes:
        assert reserved, "no reserved byte was refused, but the profile declares reserved_bytes=True"
    else:
        assert not reserved, "reserved bytes were refused: the profile declares reserved_bytes=True"
