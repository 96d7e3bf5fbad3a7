"""The C++ core and the pure-Python reference agree at every step of seeded games."""

import pytest

import dimsum
import dimsum.reference
from dimsum.reference.rng import Rng
from differential import play_in_lockstep
from yc_policy import choose

# (options, games): 2,000+ games over every player count and every option that changes the rules
CASES = [
    (dict(players=p, rounds=2, max_turns_per_round=40), 250) for p in range(2, 7)
] + [
    (dict(players=4, rounds=1, max_turns_per_round=60, auto_declare=True), 150),
    (dict(players=3, rounds=2, max_turns_per_round=40, forbid_immediate_return=True), 150),
    (dict(players=5, rounds=1, max_turns_per_round=120, deck_out="reshuffle_centre"), 150),
    (dict(players=6, rounds=1, max_turns_per_round=120, deck_out="centre_only"), 150),
    (dict(players=2, rounds=4, max_turns_per_round=25, tie_break="declarations_then_best_round"), 150),
    (dict(players=3, rounds=1, max_turns_per_round=40, reward="score", first_player=1), 150),
]


# The same rules with every random event a chance node (explicit chance): fewer games, as each
# deal is ten steps a player; the chooser draws outcomes by their weights.
EXPLICIT_CASES = [
    (dict(players=p, rounds=2, max_turns_per_round=40, chance="explicit"), 40) for p in range(2, 7)
] + [
    (dict(players=4, rounds=1, max_turns_per_round=60, auto_declare=True, chance="explicit"), 40),
    (dict(players=3, rounds=2, max_turns_per_round=40, forbid_immediate_return=True, chance="explicit"), 30),
    (dict(players=5, rounds=1, max_turns_per_round=120, deck_out="reshuffle_centre", chance="explicit"), 30),
    (dict(players=6, rounds=1, max_turns_per_round=120, deck_out="centre_only", chance="explicit"), 30),
    (dict(players=3, rounds=1, max_turns_per_round=40, reward="score", first_player=1, chance="explicit"), 30),
]


def play_both(options, seed):
    final = play_in_lockstep("yum_cha", options, seed, choose=choose)
    return sum(final["declarations"])


@pytest.mark.parametrize("options,games", CASES + EXPLICIT_CASES, ids=lambda x: str(x) if isinstance(x, int) else
                         ",".join(f"{k}={v}" for k, v in x.items()))
def test_core_and_reference_agree_step_by_step(options, games):
    """In both chance modes; in explicit mode every chance node's outcomes and weights too."""
    declared = 0
    for seed in range(games):
        declared += play_both(options, seed)
    assert declared > 0  # the scoring paths were really exercised


def test_explicit_chance_games_stop_at_every_random_event():
    """In lockstep, the chance nodes are really visited: a starter, whole deals, deck draws."""
    phases = []
    play_in_lockstep("yum_cha", dict(players=3, rounds=2, max_turns_per_round=30, chance="explicit"), 5,
                     choose=choose, on_step=lambda d: phases.append(d["phase"]))
    assert phases[0] == "starter_draw" and phases[1:31] == ["deal"] * 30 and phases[31] == "draw"
    assert phases.count("deal") == 2 * 30 and "deck_draw" in phases


def test_differential_cases_cover_two_thousand_games_and_every_player_count():
    assert sum(g for _, g in CASES) >= 2000
    assert {o["players"] for o, _ in CASES} == {2, 3, 4, 5, 6}


def test_observations_of_every_player_agree_on_a_long_default_game():
    core, ref = dimsum.make("yum_cha", players=6), dimsum.reference.make("yum_cha", players=6)
    a, b = core.new_state(77), ref.new_state(77)
    policy = Rng(77)
    while not a.is_terminal:
        for p in range(6):
            assert a.observation(p).tolist() == b.observation(p)
        action = choose(core.spec, a.to_dict(), a.legal_actions(), policy)
        a.apply(action)
        b.apply(action)
    assert a.to_dict() == b.to_dict() and a.returns() == b.returns()
