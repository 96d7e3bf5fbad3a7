"""The information state kept along the history (dimsum._views): byte-identical to the replay from
the root at every step, in every game and chance mode, through clones, resamples and a cache that
lost nodes; and a key that is equal exactly when the strings are."""

from __future__ import annotations

import random

import pytest

import dimsum
from dimsum import _views
from dimsum.testing import profile

GAMES = dimsum.games()


def _random_states(game, seed: int, steps: int):
    rng, state, out = random.Random(seed), game.new_state(seed), []
    out.append(state.clone())
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
        out.append(state.clone())
    return out


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("mode", ["sampled", "explicit"])
def test_the_kept_string_is_the_replayed_one_at_every_step(name, mode):
    game = dimsum.make(name, chance=mode, **profile(name).small)
    keys = {}
    for seed in range(3):
        for state in _random_states(game, seed, 80):
            for p in range(game.players):
                text = state.information_state_string(p)
                assert text == _views._replayed_string(state, p)
                key = state.information_state_key(p)
                assert isinstance(key, int) and 0 <= key < 2**128
                assert keys.setdefault(text, key) == key  # one string, one key
    assert len(set(keys.values())) == len(keys)  # and no two strings share a key


@pytest.mark.parametrize("name", GAMES)
def test_branches_of_a_search_tree_share_their_common_past(name):
    """Clones share history nodes: sibling branches are each replayed from where they split."""
    game = dimsum.make(name, **profile(name).small)
    root = _random_states(game, 7, 20)[-1]
    if root.is_terminal:
        pytest.skip("the game ended before the branch point")
    for action in root.legal_actions()[:4]:
        branch = root.clone()
        branch.apply(action)
        for p in range(game.players):
            assert branch.information_state_string(p) == _views._replayed_string(branch, p)
            assert branch.information_state_string(p).startswith(root.information_state_string(p) + "\n")


@pytest.mark.parametrize("name", GAMES)
def test_a_resampled_state_keeps_the_players_string_and_key(name):
    game = dimsum.make(name, chance="explicit", **profile(name).small)
    for state in _random_states(game, 3, 40)[5::10]:
        for p in range(game.players):
            copy = state.resample(p, 11)
            assert copy.information_state_string(p) == state.information_state_string(p)
            assert copy.information_state_key(p) == state.information_state_key(p)


def test_a_cache_that_lost_nodes_gives_the_same_strings(monkeypatch):
    monkeypatch.setattr(_views, "_STEP_CACHE_SIZE", 7)
    monkeypatch.setattr(_views, "_STRING_CACHE_SIZE", 2)
    game = dimsum.make("yum_cha", players=3, rounds=1, max_turns_per_round=12)
    states = _random_states(game, 5, 60)
    for state in states[::-1] + states:
        for p in range(game.players):
            assert state.information_state_string(p) == _views._replayed_string(state, p)
            assert state.information_state_key(p) == _views._replayed(state, p)[1]


def test_a_late_position_costs_one_step_and_a_key_formats_no_line():
    """At step 1,000 of a default Yum Cha game, a call replays only the step that is new (the old
    replay observed ~1,000 positions a call), and the key formats no line at all."""
    game = dimsum.make("yum_cha", players=3)
    state, rng = game.new_state(2), random.Random(2)
    for _ in range(1000):
        state.apply(rng.choice(state.legal_actions()))
        state.information_state_key(0)
    calls = {"record": 0, "format": 0}
    real_record, real_format = _views._step_record, _views._format_line

    def counting_record(*args):
        calls["record"] += 1
        return real_record(*args)

    def counting_format(*args):
        calls["format"] += 1
        return real_format(*args)

    _views._step_record, _views._format_line = counting_record, counting_format
    try:
        for _ in range(20):
            state.apply(rng.choice(state.legal_actions()))
            state.information_state_key(0)
        assert calls == {"record": 20, "format": 0}
        state.information_state_string(0)
        assert calls["record"] == 20 and calls["format"] > 0
    finally:
        _views._step_record, _views._format_line = real_record, real_format


@pytest.mark.parametrize("name", GAMES)
def test_keys_agree_whichever_is_asked_first(name):
    """A key reached through strings (lines formatted) and one reached directly are the same."""
    game = dimsum.make(name, **profile(name).small)
    for order in ("string first", "key first"):
        _views._steps.clear()
        _views._strings.clear()
        keys = []
        for state in _random_states(game, 9, 30):
            if order == "string first":
                state.information_state_string(0)
            keys.append(state.information_state_key(0))
        if order == "string first":
            first = keys
    assert keys == first


@pytest.mark.parametrize("name", GAMES)
def test_the_information_state_never_names_the_deals_seed(name):
    """The seed of new_state determines every hidden card and future draw: a string that named it
    would tell the seat everything (it once began "from the deal of seed N"). Two deals the seat saw
    alike give the same string and key, whatever their seeds."""
    game = dimsum.make(name, **profile(name).small)
    seed = 918_273_645_546_372_819
    state = game.new_state(seed)
    for p in range(game.players):
        assert str(seed) not in state.information_state_string(p)
    by_view = {}
    for seed in range(2_000, 2_400):
        state = game.new_state(seed)
        view = (state.observation(0).tobytes(), state.current_player)
        if view in by_view:
            twin = by_view[view]
            assert twin.information_state_string(0) == state.information_state_string(0)
            assert twin.information_state_key(0) == state.information_state_key(0)
            break
        by_view[view] = state  # (Dim Sum Jam's and Yum Cha's deals never look alike: the seed check above)
