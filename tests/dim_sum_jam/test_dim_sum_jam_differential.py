"""The C++ core and the pure-Python reference agree at every step of seeded Dim Sum Jam games,
with random tick costs (time-outs included) and every option that changes the rules, in both
chance modes (explicit: the same chance outcomes and weights at every chance node)."""

from fractions import Fraction
from math import lcm

import numpy as np
import pytest

import dimsum
import dimsum.reference
from dimsum.games.dim_sum_jam import make_config
from dimsum.reference.rng import Rng

GAME = "dim_sum_jam"

# (options, games): 2,000+ games over every player count, with and without achievements and
# the Reverse variant, time on (short glasses, so that time-outs happen) and off
CASES = [
    (dict(players=p, glass_ticks=800), 200) for p in range(2, 6)
] + [
    (dict(players=3, ticks_per_action=0), 100),
    (dict(players=4, achievement="copper-1"), 60),
    (dict(players=2, achievement="copper-2", glass_ticks=500), 80),
    (dict(players=3, achievement="copper-3", glass_ticks=300, ticks_per_team_decision=25), 80),
    (dict(players=5, achievement="copper-4", glass_ticks=600), 80),
    (dict(players=4, achievement="silver-1", flip_model="full"), 80),
    (dict(players=3, achievement="silver-2", glass_ticks=500), 80),
    (dict(players=5, achievement="silver-3", stand_side="same_side_up"), 80),
    (dict(players=2, achievement="silver-4", timeout_discard="active_player", glass_ticks=300), 80),
    (dict(players=4, achievement="gold-1", timeout_resume="free_play", glass_ticks=300), 60),
    (dict(players=3, achievement="gold-2", ticks_per_action=0), 60),
    (dict(players=5, achievement="gold-3", decline_tea=False), 60),
    (dict(players=2, achievement="gold-4", max_free_redraws=0, ticks_per_action=0), 60),
    (dict(players=3, reverse_variant=True, reverse_trigger="on_fulfil", glass_ticks=500), 80),
    (dict(players=4, reverse_variant=True, reverse_trigger="on_self_table", opening_free="first_round"), 80),
    (dict(players=5, reverse_variant=True, reverse_trigger="team_once", draw_after_tea=True,
          glass_ticks=350), 80),
    (dict(players=2, achievement="gold-4", reverse_variant=True, reverse_trigger="team_once",
          hand_limit=3, glass_ticks=250, ticks_per_action=30), 80),
]


def _choose(state, legal, rng):
    """A fifth random; otherwise a play the next player can follow, onto the fullest table, so
    that games run long and reach every ending (hands and tables are public)."""
    if rng.bounded(5) == 0:
        return legal[rng.bounded(len(legal))]
    plays = [a for a in legal if a < 392]
    if not plays:
        return legal[rng.bounded(len(legal))]
    d = state.to_dict()
    tables = d["tables"]
    nxt = d["hands"][(d["active"] + d["direction"]) % d["players"]]

    def follows(a):  # the next player holds a token for an empty icon of the table it sends them to
        if a >= 343:
            target = tables[0]
        else:
            target = tables[a // 7 % 7]
        empty = {i for i, x in zip(target["icons"], target["slots"]) if x is None}
        return any(code[:3] in empty for code in nxt)

    def table_of(a):
        return a % 7 if a < 343 else (a - 343) // 7

    return min(plays, key=lambda a: (not follows(a), sum(x is None for x in tables[table_of(a)]["slots"]), a))


# explicit chance (chance="explicit"): the same games stopped at every random event, the outcome
# drawn by its weight; a chance node is sometimes given ticks, which it must not charge
EXPLICIT_CASES = [
    (dict(players=p, glass_ticks=600, chance="explicit"), 25) for p in range(2, 6)
] + [
    (dict(players=3, ticks_per_action=0, chance="explicit"), 25),
    (dict(players=2, achievement="gold-4", glass_ticks=300, chance="explicit"), 25),
    (dict(players=4, achievement="copper-2", timeout_discard="active_player", glass_ticks=300, chance="explicit"), 20),
    (dict(players=3, achievement="silver-2", reverse_variant=True, reverse_trigger="on_fulfil", glass_ticks=400,
          chance="explicit"), 20),
    (dict(players=5, achievement="copper-3", reverse_variant=True, reverse_trigger="team_once",
          interrupted_reward="timeout_first", draw_after_tea=True, glass_ticks=350, chance="explicit"), 20),
    (dict(players=2, achievement="silver-1", hand_limit=3, max_free_redraws=1, glass_ticks=250, chance="explicit"), 20),
]


def _draw_outcome(state, rng):
    """A chance outcome drawn by its weight (the weights are the probabilities' common multiples)."""
    outcomes = state.chance_outcomes(exact=True)
    scale = lcm(*(p.denominator for _, p in outcomes))
    r = rng.bounded(scale)
    for o, p in outcomes:
        r -= p * scale
        if r < 0:
            return o
    raise AssertionError("unreachable: the probabilities sum to 1")


def play_both(options, seed, events=None):
    """Plays one game on both engines; returns (outcome, phases seen); adds the chance events
    met to ``events``."""
    core, ref = dimsum.make(GAME, **options), dimsum.reference.make(GAME, **options)
    a, b = core.new_state(seed), ref.new_state(seed)
    rng = Rng(seed ^ 0xD1FF)
    time_on = core.options["ticks_per_action"] > 0
    glass = core.options["glass_ticks"]
    step = 0
    phases = set()
    while True:
        d = a.to_dict()
        phases.add(d["phase"])
        assert d == b.to_dict(), f"seed {seed} step {step}: the states differ"
        legal = a.legal_actions()
        assert legal == b.legal_actions(), f"seed {seed} step {step}: legal actions differ"
        assert a.current_player == b.current_player
        assert a.returns() == b.returns()
        assert a.to_dict()["outcome"] == b.to_dict()["outcome"] and a.clock.top == b.clock.top
        assert core.state_from_dict(d) == a, f"seed {seed} step {step}: the dict does not rebuild the state"
        if a.is_terminal:
            assert a.timeline == b.timeline and a.history == b.history
            if step % 3 == 0:
                a.check()
            return d["outcome"], phases
        p = a.current_player
        if a.is_chance_node:
            p = rng.bounded(core.players)  # any seat's view: nobody acts
            chance = a.chance_outcomes(exact=True)
            assert chance == b.chance_outcomes(exact=True), f"seed {seed} step {step}: chance outcomes differ"
            assert [o for o, _ in chance] == legal and sum(q for _, q in chance) == Fraction(1)
            if events is not None:
                events.add(d["chance"])
        assert a.observation(p).tolist() == np.asarray(b.observation(p), dtype=np.float32).tolist(), \
            f"seed {seed} step {step}: observations differ"
        if step % 16 == 0:
            a.check()
        roll = rng.bounded(16)
        if a.is_chance_node:
            outcome = _draw_outcome(a, rng)
            ticks = 0 if time_on and roll == 0 else None  # a chance node takes no time
            a.apply(outcome, ticks=ticks)
            b.apply(outcome, ticks=ticks)
            assert a.timeline[-1] == b.timeline[-1] == (outcome, 0)
        elif time_on and roll == 0:
            ticks = rng.bounded(glass // 4 + 1)  # time passing with no action, sometimes past zero
            a.advance(ticks)
            b.advance(ticks)
        else:
            action = _choose(a, legal, rng)
            if time_on and roll <= 3:
                # a fast decision, or now and then a very slow one
                ticks = rng.bounded(glass + 1) if roll == 1 and rng.bounded(4) == 0 else rng.bounded(40)
                a.apply(action, ticks=ticks)
                b.apply(action, ticks=ticks)
            else:
                a.apply(action)
                b.apply(action)
        step += 1


@pytest.mark.parametrize("options,games", CASES, ids=lambda x: str(x) if isinstance(x, int) else
                         ",".join(f"{k}={v}" for k, v in x.items()))
def test_core_and_reference_agree_step_by_step(options, games):
    seen = set()
    for seed in range(games):
        outcome, phases = play_both(options, seed)
        seen |= phases | {outcome}
    # the rewards, the stuck rule and (with time on) time-outs were really exercised
    resolved = make_config(**options).options
    expected = {"play", "reward", "over", "complaints"}
    if resolved["complaint_limit"] > 1:  # with one complaint allowed the first one ends the game
        expected |= {"stuck_discard", "stand"} | ({"timeout_discard"} if resolved["ticks_per_action"] else set())
    assert expected <= seen, f"never reached: {expected - seen}"


@pytest.mark.parametrize("options,games", EXPLICIT_CASES, ids=lambda x: str(x) if isinstance(x, int) else
                         ",".join(f"{k}={v}" for k, v in x.items() if k != "chance"))
def test_core_and_reference_agree_step_by_step_with_explicit_chance(options, games):
    events, seen = set(), set()
    for seed in range(games):
        outcome, phases = play_both(options, seed, events)
        seen |= phases | {outcome}
    every = {"setup_card", "setup_seat", "setup_deal", "card", "draw", "refill"}
    if make_config(**options).options["extra_vips"]:
        every.add("setup_shuffle")
    assert every <= events and {"play", "reward", "over"} <= seen, f"never reached: {every - events}"


def test_differential_cases_cover_two_thousand_games_every_player_count_and_achievement():
    from dimsum.games.dim_sum_jam import ACHIEVEMENTS

    assert sum(g for _, g in CASES) >= 2000
    assert {o["players"] for o, _ in CASES} == {2, 3, 4, 5}
    assert {o["achievement"] for o, _ in CASES if "achievement" in o} == set(ACHIEVEMENTS)
    assert {o["reverse_trigger"] for o, _ in CASES if o.get("reverse_variant")} == {
        "on_fulfil", "on_self_table", "team_once"}


def test_every_ending_and_a_time_out_happen_in_the_differential_games():
    endings, timeouts = set(), 0
    for seed in range(120):
        endings.add(play_both(dict(players=3, ticks_per_action=0), seed)[0])
    for seed in range(20):
        core = dimsum.make(GAME, players=2, glass_ticks=200)
        s = core.new_state(seed)
        while not s.is_terminal:
            s.apply(s.legal_actions()[0], ticks=60)
            timeouts += s.to_dict()["phase"] == "timeout_discard"
    assert endings == {"win", "deck_out", "complaints"} and timeouts > 0


def test_observations_of_every_player_agree_on_a_long_game():
    core, ref = dimsum.make(GAME, players=5), dimsum.reference.make(GAME, players=5)
    a, b = core.new_state(77), ref.new_state(77)
    rng = Rng(77)
    while not a.is_terminal:
        for p in range(5):
            assert a.observation(p).tolist() == np.asarray(b.observation(p), dtype=np.float32).tolist()
        action = _choose(a, a.legal_actions(), rng)
        a.apply(action)
        b.apply(action)
    assert a.to_dict() == b.to_dict() and a.returns() == b.returns()


def test_random_playouts_in_cpp_match_the_reference():
    """dimsum.random_playouts (C++ only, default tick costs) plays the reference's games."""
    from dimsum.reference.rng import derive_seed

    game = dimsum.make(GAME, players=3, glass_ticks=600)
    returns, lengths = dimsum.random_playouts(game, 30, seed=5)
    ref = dimsum.reference.make(GAME, players=3, glass_ticks=600)
    policy_salt = 0x504F4C4943590001
    for i in range(30):
        s = ref.new_state(derive_seed(5, i))
        policy = Rng(derive_seed(5 ^ policy_salt, i))
        steps = 0
        while not s.is_terminal:
            legal = s.legal_actions()
            s.apply(legal[policy.bounded(len(legal))])
            steps += 1
        assert steps == lengths[i] and tuple(returns[i]) == s.returns()
