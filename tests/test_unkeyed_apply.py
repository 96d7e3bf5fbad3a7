"""apply_unkeyed (common/engine.hpp, "Key upkeep") plays the same games as apply, and rekey gives
back apply's key: BatchEnv steps its states unkeyed (a timed game's too, at the actions' default
cost) and keys a copy only when it hands one out (clone_state). On seeded random games, every
env's state after every step, so rekeyed, equals byte for byte, its key included, the same
position played with the per-move API's apply, which keeps the key exact at every move."""

import random

import pytest

import dimsum
from dimsum import _core

GAMES = _core.registered_games()

# Configurations per game: the defaults, and for Dim Sum Jam the rule options whose paths the
# default does not take (the Reverse token, playing the next hand, extra VIPs in the shuffle, a
# glass so short that every few plays time out, one complaint to lose).
CONFIGS = [(name, {}) for name in GAMES] + [
    ("dim_sum_jam", dict(players=4, reverse_variant=True, reverse_trigger="team_once", play_next_hand=True,
                         extra_vips=2, glass_ticks=120, ticks_per_team_decision=20, timeout_discard="active_player",
                         timeout_resume="free_play", draw_after_tea=True)),
    ("dim_sum_jam", dict(players=3, reverse_variant=True, reverse_trigger="on_self_table", flip_model="full",
                         stand_side="same_side_up", opening_free="first_round", hand_limit=4, tea_supply=1,
                         interrupted_reward="timeout_first", glass_ticks=300)),
    ("dim_sum_jam", dict(players=5, complaint_limit=1, ticks_per_action=0)),
]
SHORT = {"yum_cha": dict(players=3, rounds=1, max_turns_per_round=6)}  # games that end within the test


@pytest.mark.parametrize("name,options", CONFIGS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CONFIGS)])
def test_unkeyed_steps_then_rekey_equal_the_keyed_sequence(name, options):
    game = dimsum.make(name, **{**SHORT.get(name, {}), **options})
    envs, steps = 4, 400
    env = dimsum.BatchEnv(game, envs, seed=3, threads=1)
    env.reset()
    rng = random.Random(f"{name}-{sorted(options.items())}")
    keyed = []
    for i in range(envs):  # each env starts from a position the per-move API dealt
        keyed.append(game.new_state(rng.randrange(1 << 62)))
        env.set_state(i, keyed[i])
    compared = finished = 0
    for _ in range(steps):
        actions = [rng.choice(s.legal_actions()) for s in keyed]
        env.step(actions)
        for i, state in enumerate(keyed):
            state.apply(actions[i])  # keyed at every move
            if state.is_terminal:  # the env dealt its next game: start both again from one deal
                finished += 1
                keyed[i] = game.new_state(rng.randrange(1 << 62))
                env.set_state(i, keyed[i])
                continue
            copy = env.clone_state(i)  # stepped unkeyed, rekeyed once here
            assert copy.hash == state.hash, (name, i)
            assert copy.to_bytes() == state.to_bytes(), (name, i)
            compared += 1
    assert compared > steps * envs // 2 and finished > 0
