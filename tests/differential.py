"""Plays one seeded game on the C++ core and the reference engine in lockstep, asserting at
every step that they agree: the dict (the whole position), legal actions, current player,
returns, the current player's observation (seat 0's at a chance node, where the chance outcomes
must agree too), and that the dict rebuilds the core's state exactly."""

import pytest

import dimsum
import dimsum.reference
from dimsum.reference.rng import Rng


def uniform(spec, state_dict, legal, rng):
    return legal[rng.bounded(len(legal))]


def play_in_lockstep(name, options, seed, choose=uniform, on_step=None, apply=None):
    """Returns the final dict. ``choose(spec, dict, legal, rng)`` picks each action (seeded);
    ``on_step(dict)`` sees every position; ``apply(state, action, step)`` applies an action
    (for games whose apply takes more than the action)."""
    core, ref = dimsum.make(name, **options), dimsum.reference.make(name, **options)
    a, b = core.new_state(seed), ref.new_state(seed)
    policy = Rng(seed ^ 0xD1FF)
    step = 0
    while True:
        d = a.to_dict()
        assert d == b.to_dict(), f"{name} seed {seed} step {step}: the states differ"
        if on_step:
            on_step(d)
        legal = a.legal_actions()
        assert legal == b.legal_actions(), f"{name} seed {seed} step {step}: legal actions differ"
        assert a.current_player == b.current_player, f"{name} seed {seed} step {step}: current player differs"
        assert a.returns() == pytest.approx(b.returns()), f"{name} seed {seed} step {step}: returns differ"
        assert core.state_from_dict(d) == a, f"{name} seed {seed} step {step}: the dict does not rebuild the state"
        if a.is_terminal:
            return d
        p = a.current_player
        if a.is_chance_node:  # explicit chance: the same outcomes and exact probabilities; seat 0's view
            assert a.chance_outcomes(exact=True) == b.chance_outcomes(exact=True), \
                f"{name} seed {seed} step {step}: chance outcomes differ"
            p = 0
        assert a.observation(p).tolist() == b.observation(p), f"{name} seed {seed} step {step}: observations differ"
        action = choose(core.spec, d, legal, policy)
        for state in (a, b):
            if apply:
                apply(state, action, step)
            else:
                state.apply(action)
        step += 1
