"""Dim Sum Jam: seeded random games (terminate, invariants, round-trips, resample, replay)."""

import collections

import pytest

from dimsum.reference.rng import Rng

GAME = "dim_sum_jam"

CONFIGS = [
    dict(players=2),
    dict(players=3, ticks_per_action=0),
    dict(players=4, ticks_per_action=120, timeout_discard="all_players"),
    dict(players=5, achievement="gold-4", reverse_variant=True, reverse_trigger="team_once"),
    dict(players=3, achievement="silver-2", reverse_variant=True, reverse_trigger="on_self_table"),
    dict(players=4, achievement="copper-4", opening_free="first_round", draw_after_tea=True),
    dict(players=2, achievement="silver-1", flip_model="full", stand_side="same_side_up"),
    dict(players=3, glass_ticks=300, ticks_per_action=40, ticks_per_team_decision=20, max_free_redraws=0),
]


def _policy(state, rng):
    """A third random, otherwise the play onto the table closest to being fulfilled."""
    legal = state.legal_actions()
    if rng.bounded(3) == 0:
        return legal[rng.bounded(len(legal))]
    plays = [a for a in legal if a < 392]
    if not plays:
        return legal[rng.bounded(len(legal))]
    tables = state.to_dict()["tables"]
    table_of = lambda a: a % 7 if a < 343 else (a - 343) // 7  # noqa: E731
    return min(plays, key=lambda a: sum(x is None for x in tables[table_of(a)]["slots"]))


def _check_invariants(game, state):
    d = state.to_dict()
    again = game.state_from_dict(d)               # validates conservation and phase consistency
    assert again.to_dict() == d
    assert state.clone().to_dict() == d
    mask = state.legal_mask()
    assert [a for a, ok in enumerate(mask) if ok] == state.legal_actions()
    for p in range(game.players):
        obs = state.observation(p)
        assert len(obs) == game.observation_shape[0]
        assert all(x == x and abs(x) < 1e6 for x in obs)
    if not state.is_terminal:
        assert 0 <= state.current_player < game.players
        assert state.legal_actions()
        c = state.clock
        assert 0 <= c.top <= c.capacity


def _play_one(game, seed, check_every=5):
    state = game.new_state(seed)
    rng = Rng(seed + 1000)
    time_on = game.options["ticks_per_action"] > 0
    while not state.is_terminal:
        if len(state.history) % check_every == 0:
            _check_invariants(game, state)
        if time_on and rng.bounded(10) == 0:
            state.advance(rng.bounded(200))
            continue
        action = _policy(state, rng)
        if time_on and rng.bounded(4) == 0:
            state.apply(action, ticks=rng.bounded(150))
        else:
            state.apply(action)
    _check_invariants(game, state)
    return state


@pytest.mark.parametrize("opts", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_random_games_terminate_with_invariants(engine, opts):
    game = engine(GAME, **opts)
    outcomes = collections.Counter()
    for seed in range(25):
        state = _play_one(game, seed)
        assert len(state.history) <= game.max_game_length
        assert state.outcome.reason in ("team_win", "deck_out", "complaints")
        r = state.returns()
        assert len(set(r)) == 1 and r[0] == (1.0 if state.outcome.reason == "team_win" else 0.0)
        assert state.legal_actions() == [] and state.current_player == -1
        outcomes[state.outcome.reason] += 1
    assert outcomes["complaints"] > 0


def test_all_three_endings_happen_in_seeded_play(engine):
    game = engine(GAME, players=3, ticks_per_action=0)
    outcomes = collections.Counter(_play_one(game, seed, check_every=50).outcome.reason for seed in range(200))
    assert set(outcomes) == {"team_win", "deck_out", "complaints"}


def test_timeline_replay_reproduces_the_game(engine):
    game = engine(GAME, players=4, ticks_per_action=90)
    for seed in range(5):
        state = _play_one(game, seed, check_every=1000)
        replayed = game.replay(seed, state.timeline)
        assert replayed.to_dict() == state.to_dict()
        assert replayed.history == state.history


def test_resample_keeps_everything_the_player_saw(engine):
    game = engine(GAME, players=3)
    state = game.new_state(8)
    rng = Rng(3)
    for step in range(30):
        if state.is_terminal:
            break
        for p in range(3):
            other = state.resample(p, seed=step * 7 + p)
            a, b = state.to_dict(), other.to_dict()
            assert a.pop("rng") != b.pop("rng")
            assert a == b                                   # all but the hidden orders is public
            assert list(other.observation(p)) == list(state.observation(p))
            assert other.legal_actions() == state.legal_actions()
        state.apply(_policy(state, rng))


def test_resample_draws_different_futures(engine):
    # the hidden deck faces and bag order really are redrawn: futures differ across seeds
    game = engine(GAME, players=2, ticks_per_action=0)
    state = game.new_state(1)
    seen = set()
    for seed in range(12):
        s = state.resample(0, seed)
        for _ in range(3):
            if s.is_terminal:
                break
            s.apply(s.legal_actions()[0])
        seen.add(str(s.to_dict()["hands"]))
    assert len(seen) > 1


def test_clone_is_independent(engine):
    game = engine(GAME, players=2)
    s = game.new_state(2)
    before = s.to_dict()
    c = s.clone()
    c.apply(c.legal_actions()[0])
    assert s.to_dict() == before and c.to_dict() != before


def test_str_renders_the_table(engine):
    game = engine(GAME, players=2)
    text = str(game.new_state(0))
    assert "table 7" in text and "P1" in text and "glass standing" in text


def test_pickle_and_copy_round_trip(engine):
    import copy
    import pickle

    game = engine(GAME, players=3)
    s = game.new_state(6)
    s.apply(s.legal_actions()[0])
    for other in (pickle.loads(pickle.dumps(s)), copy.copy(s), copy.deepcopy(s)):
        assert other.to_dict() == s.to_dict() and other.legal_actions() == s.legal_actions()


@pytest.mark.parametrize("opts", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_observations_stay_inside_the_declared_bounds(opts):
    import numpy as np

    import dimsum

    game = dimsum.make(GAME, **opts)
    low, high = game.observation_bounds
    assert low.shape == high.shape == game.observation_shape
    for seed in range(3):
        state, rng = game.new_state(seed), Rng(seed + 7)
        while True:
            for p in range(game.players):
                obs = np.asarray(state.observation(p), np.float32)
                outside = np.flatnonzero((obs < low) | (obs > high))
                names = {sl.name for sl in game.observation_layout for i in outside if sl.start <= i < sl.stop}
                assert not outside.size, f"seed {seed} step {len(state.history)}: outside the bounds in {names}"
            if state.is_terminal:
                break
            state.apply(_policy(state, rng))
