"""Explicit chance, search-safe copies, per-player views and outcomes, for every game.

Each game's own chance rules (which events, their probabilities at named positions) are tested
next to the game, in tests/<game>/test_<game>_chance.py. Here: what every game promises.
"""

from __future__ import annotations

import pickle
import random
import zlib
from collections import Counter
from typing import Any, Dict, Hashable, List

import pytest
from scipy.stats import chi2_contingency

import dimsum
from dimsum.testing import check_game, first_chance_node, profile

GAMES = dimsum.games()

# Small games (short rounds, each game's profile says how), so that hundreds of them take seconds.
SMALL: Dict[str, Dict[str, Any]] = {name: dict(profile(name).small) for name in GAMES}


def explicit(name: str, **options: Any):
    return dimsum.make(name, chance="explicit", **{**SMALL[name], **options})


# -- the option --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_the_chance_option_is_sampled_by_default_and_checked(name):
    assert dimsum.make(name).explicit_chance is False
    assert dimsum.make(name, chance="explicit").explicit_chance is True
    with pytest.raises(ValueError, match="chance"):
        dimsum.make(name, chance="exact")
    with pytest.raises(TypeError, match="chance"):
        dimsum.make(name, chance=True)


@pytest.mark.parametrize("name", GAMES)
def test_a_state_of_one_mode_is_refused_by_the_other(name):
    sampled, chance = dimsum.make(name), dimsum.make(name, chance="explicit")
    assert sampled != chance
    with pytest.raises(ValueError, match="differently configured"):
        chance.state_from_bytes(sampled.new_state(1).to_bytes())


@pytest.mark.parametrize("name", GAMES)
def test_the_outcome_range_is_fixed_and_named(name):
    sampled, chance = dimsum.make(name), dimsum.make(name, chance="explicit")
    assert sampled.num_chance_outcomes == chance.num_chance_outcomes > 0
    assert chance.num_chance_outcomes <= chance.num_actions
    names = [chance.chance_outcome_name(o) for o in range(chance.num_chance_outcomes)]
    assert len(set(names)) == len(names)
    assert [chance.parse_chance_outcome(n) for n in names] == list(range(len(names)))


@pytest.mark.parametrize("name", GAMES)
def test_a_sampled_game_never_stops_at_chance(name):
    state = dimsum.make(name, **SMALL[name]).new_state(5)
    rng = random.Random(5)
    while not state.is_terminal:
        assert not state.is_chance_node and state.current_player >= 0
        state.apply(rng.choice(state.legal_actions()))
    with pytest.raises(ValueError, match="not a chance node"):
        state.chance_outcomes()


@pytest.mark.parametrize("name", GAMES)
def test_an_explicit_game_stops_at_chance_with_exact_outcomes(name):
    state = first_chance_node(explicit(name), 3)
    assert state.is_chance_node and state.current_player == dimsum.CHANCE != dimsum.TERMINAL
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == state.legal_actions()
    assert abs(sum(p for _, p in outcomes) - 1) <= 1e-12
    assert sum(p for _, p in state.chance_outcomes(exact=True)) == 1


# -- conformance: every promise of the API, in explicit mode -------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_check_game_in_explicit_mode(name):
    for options in profile(name).conformance[:4]:
        check_game(dimsum.make(name, chance="explicit", **options), n_games=2, seed=11)


# -- bad input at a chance node ----------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_bad_input_at_a_chance_node_leaves_the_state_unchanged(name):
    game = explicit(name)
    state = first_chance_node(game, 8)
    before = state.to_bytes()
    outcomes = set(state.legal_actions())
    # an id in range that is no outcome here, if there is one (a die's faces may fill the range)
    not_outcome = next((a for a in range(game.num_actions) if a not in outcomes), None)
    if not_outcome is not None:
        with pytest.raises(dimsum.IllegalActionError, match="not a possible outcome"):
            state.apply(not_outcome)
    with pytest.raises(dimsum.IllegalActionError, match="out of range"):
        state.apply(game.num_actions)
    with pytest.raises(dimsum.IllegalActionError):
        state.apply(-1)
    for junk in (1.5, "1", None, [0], True):
        with pytest.raises(TypeError):
            state.apply(junk)
    with pytest.raises(ValueError):
        state.parse_action("no such outcome")
    assert state.to_bytes() == before


def test_time_does_not_pass_at_a_chance_node():
    game = explicit("dim_sum_jam")
    state = game.new_state(4)
    assert state.is_chance_node
    before = state.to_bytes()
    with pytest.raises(dimsum.IllegalActionError, match="chance acts first"):
        state.advance(5)
    with pytest.raises(ValueError, match="takes no time"):
        state.apply(state.legal_actions()[0], ticks=3)
    assert state.to_bytes() == before
    top = state.clock.top
    state.apply(state.legal_actions()[0], ticks=0)
    assert state.timeline[-1][1] == 0 and state.clock.top == top


@pytest.mark.parametrize("name", GAMES)
def test_the_batch_engines_refuse_explicit_games(name):
    game = explicit(name)
    with pytest.raises(ValueError, match="chance='sampled'"):
        dimsum.BatchEnv(game, 2)
    with pytest.raises(ValueError, match="chance='sampled'"):
        dimsum.random_playouts(game, 2)


# -- the same game in both modes: chi-square tests on the trajectories ---------------------------------

CHECKPOINTS = (0, 3, 10)  # decisions: the first (after the opening's chance events), then later ones
GAMES_PER_MODE = 300


def _position_feature(state) -> Hashable:
    """A small categorical summary of the position, what the player to act sees included."""
    p = state.current_player
    seen = zlib.crc32(state.observation(p).tobytes()) % 5
    return (p, len(state.legal_actions()), seen)


def _trajectory_statistics(game, seed: int, explicit_chance: bool) -> Dict[Any, Hashable]:
    """Plays one game: the players uniformly at random (their own generator, the same in both
    modes), chance inside apply (sampled) or drawn here by random.choices (explicit)."""
    policy, chance = random.Random(seed), random.Random(~seed)
    state = game.new_state(seed)
    stats: Dict[Any, Hashable] = {}
    decisions = 0
    while not state.is_terminal:
        if state.is_chance_node:
            assert explicit_chance
            outcomes = state.chance_outcomes()
            state.apply(chance.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0])
            continue
        if decisions in CHECKPOINTS:
            stats[decisions] = _position_feature(state)
        state.apply(policy.choice(state.legal_actions()))
        decisions += 1
    stats["returns"] = state.returns()
    stats["length"] = decisions
    stats["reason"] = state.outcome.reason
    return stats


def _homogeneous(a: List[Hashable], b: List[Hashable]) -> float:
    """The p-value of a chi-square test that a and b come from one distribution (categories
    rarer than 10 in all are pooled, so that every expected count is large enough)."""
    ca, cb = Counter(a), Counter(b)
    common = [k for k in set(ca) | set(cb) if ca[k] + cb[k] >= 10]
    rows = [[ca[k] for k in common], [cb[k] for k in common]]
    rows[0].append(len(a) - sum(rows[0]))
    rows[1].append(len(b) - sum(rows[1]))
    if rows[0][-1] + rows[1][-1] == 0:
        rows = [r[:-1] for r in rows]
    if len(rows[0]) < 2:
        return 1.0  # one category: nothing can differ
    return chi2_contingency(rows)[1]


@pytest.mark.parametrize("name", GAMES)
def test_explicit_chance_plays_the_same_game_as_sampled(name):
    sampled, chance = dimsum.make(name, **SMALL[name]), explicit(name)
    runs = {mode: [_trajectory_statistics(game, 10_000 + i, mode) for i in range(GAMES_PER_MODE)]
            for mode, game in ((False, sampled), (True, chance))}
    lengths = sorted(r["length"] for rs in runs.values() for r in rs)
    cuts = [lengths[len(lengths) * q // 5] for q in range(1, 5)]  # quintiles of both together
    keys = list(CHECKPOINTS) + ["returns", "reason"]
    for key in keys:
        a = [r.get(key) for r in runs[False]]
        b = [r.get(key) for r in runs[True]]
        assert _homogeneous(a, b) > 1e-3, f"{name}: the {key!r} statistic differs between the modes"
    binned = [[sum(r["length"] > c for c in cuts) for r in runs[m]] for m in (False, True)]
    assert _homogeneous(*binned) > 1e-3, f"{name}: game lengths differ between the modes"


def test_the_chi_square_test_sees_a_difference():
    """The check above can fail: a biased chance (always the first outcome) is caught."""
    game = explicit("yum_cha")
    biased = []
    for i in range(GAMES_PER_MODE):
        state, policy, decisions = game.new_state(i), random.Random(i), 0
        while decisions == 0:
            if state.is_chance_node:
                state.apply(state.legal_actions()[0])
                continue
            biased.append(_position_feature(state))
            decisions += 1
    fair = [_trajectory_statistics(dimsum.make("yum_cha", **SMALL["yum_cha"]), 10_000 + i, False)[0]
            for i in range(GAMES_PER_MODE)]
    assert _homogeneous(fair, biased) < 1e-6


# -- search-safe copies ------------------------------------------------------------------------------

def _future(state, steps: int = 200) -> List[Any]:
    """What happens next under a fixed policy (seeded random moves, the same seed every call): the
    positions' keys. Random moves, not a fixed choice such as the last legal action: the contract
    does not say which moves draw randomness, and a fixed choice may never draw any."""
    state, policy = state.clone(), random.Random(1234)
    keys = []
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(policy.choice(state.legal_actions()))
        keys.append(state.hash)
    return keys


@pytest.mark.parametrize("name", GAMES)
def test_clone_keeps_the_future_and_clone_with_a_seed_redraws_it(name):
    game = dimsum.make(name, **SMALL[name])
    state = game.new_state(21)
    assert _future(state.clone()) == _future(state)  # an exact copy knows the coming draws
    futures = {tuple(_future(state.clone(seed=s))) for s in range(8)}
    if profile(name).chance_after_deal:
        assert len(futures) > 1, ("clone(seed) did not change the future randomness (a game whose only chance "
                                  "is the deal declares chance_after_deal=False in its profile)")
    else:  # every random event was the deal: no seed changes what comes
        assert len(futures) == 1, "the profile says no chance follows the deal, but clone(seed) changed the future"
    copy = state.clone(seed=3)
    assert copy.hash == state.hash and copy.history == state.history
    assert copy.observation(0).tolist() == state.observation(0).tolist()
    assert _future(copy) == _future(state.clone(seed=3))  # the same seed, the same future


# -- per-player views --------------------------------------------------------------------------------

def _states_along(game, seed: int, steps: int) -> List[Any]:
    rng, state, out = random.Random(seed), game.new_state(seed), []
    for _ in range(steps):
        if state.is_terminal:
            break
        out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("mode", ["sampled", "explicit"])
def test_observation_string_says_exactly_what_the_observation_says(name, mode):
    game = dimsum.make(name, chance=mode, **SMALL[name])
    states = [s for seed in range(3) for s in _states_along(game, seed, 40)]
    for p in range(game.players):
        by_text: Dict[str, bytes] = {}
        for s in states:
            text, obs = s.observation_string(p), s.observation(p).tobytes()
            assert by_text.setdefault(text, obs) == obs, "one text for two observations"
        assert len(set(by_text.values())) == len(by_text), "two texts for one observation"


@pytest.mark.parametrize("name", GAMES)
def test_str_is_the_omniscient_picture_and_the_views_are_per_player(name):
    state = dimsum.make(name, **SMALL[name]).new_state(2)
    assert "what seat 0 sees" in state.observation_string(0)
    assert str(state) != state.observation_string(0)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("mode", ["sampled", "explicit"])
def test_resample_keeps_the_players_view_and_history(name, mode):
    game = dimsum.make(name, chance=mode, **SMALL[name])
    for state in _states_along(game, 4, 30)[::6]:
        for p in range(game.players):
            copy = state.resample(p, 99)
            assert len(copy.history) == len(state.history)
            # nothing in the history is hidden from p: chance is sampled, or all is public
            if mode == "sampled" or dimsum.game_info(name).information == "perfect":
                assert copy.history == state.history
            assert copy.observation_string(p) == state.observation_string(p)
            assert copy.information_state_string(p) == state.information_state_string(p)
            # and it goes on: the same own actions seen the same way
            if not copy.is_terminal and copy.current_player == p == state.current_player:
                a = state.legal_actions()[0]
                again, other = state.clone(), copy.clone()
                again.apply(a)
                other.apply(a)
                assert again.information_state_string(p).splitlines()[:-1] == \
                    other.information_state_string(p).splitlines()[:-1]


def test_information_state_tells_apart_what_the_player_saw_and_nothing_else():
    game = dimsum.make("yum_cha", **SMALL["yum_cha"])
    state = game.new_state(6)
    drawer = state.current_player
    state.apply(0)  # a draw from the deck: only the drawer sees the card
    watcher = (drawer + 1) % game.players
    twin = state.resample(watcher, 5)  # the others' hands redrawn as the watcher may imagine them
    assert twin.to_dict() != state.to_dict()
    assert twin.information_state_string(watcher) == state.information_state_string(watcher)
    with pytest.raises(ValueError, match="resampled for seat"):
        twin.information_state_string(drawer)
    # another deal is another information state for every seat (each sees another hand)
    assert all(game.new_state(7).information_state_string(p) != game.new_state(6).information_state_string(p)
               for p in range(game.players))
    # the drawer's view names its own action; the watcher's does not name the card drawn
    assert "you: draw" in state.information_state_string(drawer)
    assert "you:" not in state.information_state_string(watcher)


def test_yum_cha_explicit_resample_redraws_the_hidden_outcomes_of_the_history():
    """The rewritten history replays from the deal to the resampled position; it differs from
    the real one only where seat p did not see the card; and it does not copy the real cards."""
    game = explicit("yum_cha", players=3)
    hidden = 0
    for seed in range(12):
        state = _states_along(game, seed, 60)[-1]
        for p in range(game.players):
            copy = state.resample(p, seed)
            replayed = game.new_state(seed)
            for a in copy.history:
                replayed.apply(a)
            assert {k: v for k, v in replayed.fields().items() if k != "rng"} == \
                {k: v for k, v in copy.fields().items() if k != "rng"}
            assert copy.information_state_string(p) == state.information_state_string(p)
            for q in range(game.players):  # every seat's view is defined on the copy
                copy.information_state_string(q)
            real, imagined = game.new_state(seed), game.new_state(seed)
            for a, b in zip(state.history, copy.history):
                assert (a == b) or (real.is_chance_node and imagined.is_chance_node)  # only chance differs
                real.apply(a)
                imagined.apply(b)
                # ... and only where p could not tell: p saw the same thing at every step
                assert (real.observation(p) == imagined.observation(p)).all()
                hidden += a != b
    assert hidden > 0  # the real hidden cards are not simply copied


@pytest.mark.parametrize("name", GAMES)
def test_views_survive_pickling(name):
    game = dimsum.make(name, **SMALL[name])
    state = _states_along(game, 9, 12)[-1]
    again = pickle.loads(pickle.dumps(state))
    assert again.information_state_string(0) == state.information_state_string(0)
    imported = game.state_from_bytes(state.to_bytes())
    assert "imported position" in imported.information_state_string(0)


# -- outcomes ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_outcome_says_why_the_game_ended(name):
    game = dimsum.make(name, **SMALL[name])
    state = game.new_state(1)
    assert state.outcome is None
    rng = random.Random(1)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    outcome = state.outcome
    assert isinstance(outcome, dimsum.Outcome)
    assert outcome.returns == state.returns() and outcome.reason and str(outcome) == outcome.description
    assert all(0 <= p < game.players for p in outcome.winners)
