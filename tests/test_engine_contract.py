"""The C++ engine contract's limits (src/dimsum_core/common/engine.hpp), seen from Python.

The player cap: every game declares Engine::kMaxPlayers, at most the shared dimsum::kMaxPlayers
(dimsum._core.MAX_PLAYERS), and every per-player buffer (returns, observations per player,
BatchEnv rows, IS-MCTS's rollout returns) holds a config at that cap.
"""

import numpy as np
import pytest

import dimsum
from dimsum import _core, bots
from dimsum.reference.rng import Rng

GAMES = _core.registered_games()


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
