"""The per-move binding's fast paths (docs/PERFORMANCE.md, "The per-move API") behave as the plain ones:
legal_actions built from shared ints, legal_mask(out=...), states reused from a freelist, and the
rules' cheaper bookkeeping (Yum Cha's tabled keys and unkeyed deal, Dim Sum Jam's has_play)."""

import random

import numpy as np
import pytest

import dimsum
from dimsum.testing import random_position

GAMES = dimsum.games()



@pytest.mark.parametrize("name", GAMES)
def test_legal_actions_are_plain_sorted_ints_matching_the_mask(name):
    game = dimsum.make(name)
    for seed in range(5):
        state = random_position(game, seed, 7 * seed)
        actions = state.legal_actions()
        assert type(actions) is list and all(type(a) is int for a in actions)
        assert actions == sorted(actions) and len(set(actions)) == len(actions)
        assert actions == np.flatnonzero(state.legal_mask()).tolist()
        assert all(state.is_legal(a) for a in actions)
        actions.append(-1)  # a fresh list each call: changing one leaves the next alone
        assert state.legal_actions() == actions[:-1]


def test_legal_actions_above_256_are_exact():
    game = dimsum.make("dim_sum_jam")  # its token plays are numbered up to 448
    seen_high = False
    for seed in range(10):
        state = random_position(game, seed, 3)
        actions = state.legal_actions()
        seen_high = seen_high or max(actions) > 256
        assert actions == np.flatnonzero(state.legal_mask()).tolist()
    assert seen_high


@pytest.mark.parametrize("name", GAMES)
def test_legal_mask_out_fills_and_returns_the_given_array(name):
    game = dimsum.make(name)
    out = np.ones(game.num_actions, dtype=bool)  # stale Trues are cleared
    for seed in range(4):
        state = random_position(game, seed, 5 + seed)
        assert state.legal_mask(out=out) is out
        assert np.array_equal(out, state.legal_mask())


@pytest.mark.parametrize("bad, error", [
    (lambda n: np.zeros(n, dtype=np.uint8), TypeError),
    (lambda n: np.zeros(n, dtype=np.float32), TypeError),
    (lambda n: [False] * n, TypeError),
    (lambda n: bytearray(n), TypeError),
    (lambda n: np.zeros(n + 1, dtype=bool), ValueError),
    (lambda n: np.zeros((2, n), dtype=bool), ValueError),
    (lambda n: np.zeros(2 * n, dtype=bool)[::2], ValueError),  # not contiguous
    (lambda n: np.zeros(n, dtype=bool).view(), "readonly"),
])
def test_legal_mask_out_refuses_what_it_cannot_fill_in_place(bad, error):
    game = dimsum.make("yum_cha")
    state = random_position(game, 1, 3)
    out = bad(game.num_actions)
    if error == "readonly":
        out.flags.writeable = False
        error = ValueError
    before = out.copy() if isinstance(out, np.ndarray) else list(out)
    with pytest.raises(error, match="legal_mask"):
        state.legal_mask(out=out)
    if isinstance(out, np.ndarray):
        assert np.array_equal(out, before)  # nothing written to a refused array


@pytest.mark.parametrize("name", GAMES)
def test_states_reused_after_others_die_are_independent_copies(name):
    game = dimsum.make(name)
    # nine seeded moves in, or fewer in a game that would be over by then
    state = next(s for s in (random_position(game, 2, k) for k in range(9, -1, -1)) if not s.is_terminal)
    for _ in range(3):
        copies = [state.clone() for _ in range(20)]  # the freelist is filled and emptied
        del copies
    copy = state.clone()
    assert copy.to_bytes() == state.to_bytes() and copy.hash == state.hash
    copy.apply(copy.legal_actions()[0])
    assert copy.to_bytes() != state.to_bytes()
    assert game.state_from_bytes(state.to_bytes()).to_bytes() == state.to_bytes()


@pytest.mark.parametrize("options", [
    dict(players=2, rounds=3, max_turns_per_round=40),  # short rounds: many deals, washouts
    dict(players=4, rounds=2, deck_out="reshuffle_centre", max_turns_per_round=120),
    dict(players=3, rounds=2, chance="explicit", max_turns_per_round=40),
    dict(players=2, rounds=1, max_turns_per_round=600),  # turns past the tabled 512
])
def test_yum_cha_keeps_its_key_exact_through_deals_and_long_rounds(options):
    game = dimsum.make("yum_cha", **options)
    for seed in range(3):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            state.check()  # the stored key equals the key computed from scratch


def test_dim_sum_jam_stuck_rule_sees_the_same_plays():
    # has_play (after every action) stops at the first table that takes a token or a tea; the
    # stuck rule must start exactly when legal_actions has no play
    game = dimsum.make("dim_sum_jam")
    for seed in range(8):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            fields = state.fields()
            if fields["phase"] == 0 and not state.is_chance_node:
                assert state.legal_actions(), "a player in 'play' has a play (else the stuck rule)"
            state.apply(rng.choice(state.legal_actions()))
        state.check()
