"""``resample(p, seed)`` in every game, chance mode and conformance option set: a state ``p`` cannot
tell from the real one. For random (state, seat) pairs, every resample has ``p``'s information-state
string and key, passes ``check()``, keeps ``p``'s view as play goes on, and in explicit mode is
reachable: its history replays from the root to it.

The count of pairs is ``DIMSUM_RESAMPLE_PAIRS`` per game (the benchmark of docs/BOTS.md runs
10,000; a test run a few hundred)."""

from __future__ import annotations

import os
import random

import pytest

import dimsum
from dimsum.testing import profile

PAIRS = int(os.environ.get("DIMSUM_RESAMPLE_PAIRS", "120"))
CASES = [(name, mode, i) for name in dimsum.games() for mode in ("sampled", "explicit")
         for i in range(len(profile(name).conformance))]


def _position(state):
    return {k: v for k, v in state.fields().items() if k != "rng"}


@pytest.mark.parametrize("name, mode, case", CASES, ids=[f"{n}-{m}-{i}" for n, m, i in CASES])
def test_every_resample_is_indistinguishable_valid_and_reachable(name, mode, case):
    options = dict(profile(name).conformance[case])
    game = dimsum.make(name, chance=mode, **options)
    rng = random.Random(hash((name, mode, case)) & 0xFFFF)
    per_option_set = max(8, PAIRS // len(profile(name).conformance))
    checked = 0
    while checked < per_option_set:
        state = game.new_state(rng.randrange(2**32))
        for _ in range(rng.randrange(1, 400)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        p = rng.randrange(game.players)
        copy = state.resample(p, rng.randrange(2**63))
        copy.check()
        assert copy.information_state_string(p) == state.information_state_string(p)
        assert copy.information_state_key(p) == state.information_state_key(p)
        assert (copy.observation(p) == state.observation(p)).all()
        if mode == "explicit":  # the history holds every outcome: it must lead to the copy
            replay = game.new_state(copy._history_root()) if isinstance(copy._history_root(), int) else None
            if replay is not None:
                for action in copy.history:
                    replay.apply(action)
                assert _position(replay) == _position(copy)
        # the copy plays on as a game of its own: p's view follows p's own moves and what it sees
        for _ in range(5):
            if copy.is_terminal:
                break
            copy.apply(rng.choice(copy.legal_actions()))
            copy.information_state_string(p)
        checked += 1
