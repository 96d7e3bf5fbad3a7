"""IS-MCTS guided by a policy network (docs/BOTS.md, "Guided by a policy"): rollout='policy'
and guide='policy' with weights=, a seed fixing every choice, the defaults untouched, clear
errors, fairness to the seat that searches, and strength over random play at a small budget."""

import pickle

import numpy as np
import pytest

import dimsum
import dimsum.arena
import dimsum.bots
from dimsum.baselines import PolicyFileError, shipped_path

GUIDED = [dict(guide="policy", weights="shipped"), dict(guide="policy_ucb", weights="shipped"),
          dict(guide="policy_heuristic", weights="shipped"), dict(rollout="policy", weights="shipped"),
          dict(rollout="policy", guide="policy", weights="shipped")]
GUIDED_IDS = ["policy-prior", "policy-prior-ucb", "policy-prior-heuristic", "policy-rollouts", "both"]


@pytest.fixture(scope="module")
def game():
    return dimsum.make("nice_buns", players=2)


def played_states(game, games=2, seed=0, every=7):
    """Every `every`-th decision node of a few games played by random bots."""
    rng = np.random.default_rng(seed)
    states = []
    for g in range(games):
        s = game.new_state(seed * 1000 + g)
        k = 0
        while not s.is_terminal:
            if k % every == 0:
                states.append(s.clone())
            k += 1
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    return states


def searches(game, states, **params):
    """One ismcts bot of `params` acting on each of `states`: (its move, its last_search) each."""
    bot = dimsum.bots.make("ismcts", game, **params)
    return [(bot.act(s), bot.last_search) for s in states]


@pytest.mark.parametrize("params", GUIDED, ids=GUIDED_IDS)
def test_a_seed_fixes_the_whole_search_and_another_seed_changes_it(game, params):
    states = played_states(game, games=1, seed=1)
    search = lambda seed: searches(game, states, seed=seed, simulations=60, **params)
    first = search(3)
    assert first == search(3)
    assert first != search(4)  # tens of searches: seeds that agree on every visit count would be a broken draw
    assert all(s.is_legal(a) for s, (a, _) in zip(states, first))


def test_the_defaults_are_the_heuristic_guide_and_give_what_they_gave(game):
    states = played_states(game, games=1, seed=2)
    plain = dimsum.bots.make("ismcts", game, seed=5, simulations=80)
    explicit = dimsum.bots.make("ismcts", game, seed=5, simulations=80, guide="heuristic", weights=None)
    assert plain.guide == "heuristic" and plain.weights is None
    for s in states:
        assert plain.act(s) == explicit.act(s) and plain.last_search == explicit.last_search


def test_the_policy_prior_changes_the_search(game):
    # the guide is really used: the same seed and budget grow another tree with it
    states = played_states(game, games=1, seed=3)
    search = lambda **params: searches(game, states, seed=1, simulations=60, **params)
    assert search() != search(guide="policy", weights="shipped")
    assert search() != search(rollout="policy", weights="shipped")


@pytest.mark.parametrize("params,error,message", [
    (dict(rollout="policy"), ValueError, r"rollout='policy' needs weights=: a policy file's path or 'shipped'"),
    (dict(guide="policy"), ValueError, r"guide='policy' needs weights="),
    (dict(rollout="policy", guide="policy"), ValueError, r"rollout='policy' and guide='policy' needs weights="),
    (dict(guide="policy_ucb"), ValueError, r"guide='policy_ucb' needs weights="),
    (dict(guide="policy_heuristic"), ValueError, r"guide='policy_heuristic' needs weights="),
    (dict(weights="shipped"), ValueError,
     r"weights= is used by rollout='policy' or guide='policy'/'policy_ucb'/'policy_heuristic' only"),
    (dict(guide="prior", weights="shipped"), ValueError,
     r"'guide' takes one of \['heuristic', 'policy', 'policy_ucb', 'policy_heuristic'\]"),
    (dict(guide="policy", weights=3), TypeError, r"weights is a policy file's path or 'shipped', got int"),
])
def test_bad_options_say_what_to_pass(game, params, error, message):
    with pytest.raises(error, match=message):
        dimsum.bots.make("ismcts", game, **params)


def test_weights_for_another_game_or_player_count_are_refused(game):
    four = shipped_path(dimsum.make("nice_buns", players=4))
    with pytest.raises(PolicyFileError, match="made for nice_buns"):
        dimsum.bots.make("ismcts", game, guide="policy", weights=four)
    with pytest.raises(PolicyFileError, match="not for yum_cha"):
        dimsum.bots.make("ismcts", dimsum.make("yum_cha"), rollout="policy", weights=shipped_path(game))
    with pytest.raises(ValueError, match="no shipped policy for dim_sum_jam with 2 players"):  # 3p and 4p ship, 2p not
        dimsum.bots.make("ismcts", dimsum.make("dim_sum_jam", players=2), rollout="policy", weights="shipped")


def test_the_native_search_refuses_a_network_that_does_not_fit_or_is_missing(game):
    from dimsum import _batch

    bot = dimsum.bots.make("ismcts", game, guide="policy", weights="shipped")
    other = dimsum.make("yum_cha")
    s = other.new_state(1)
    args = (other.name, other.config_bytes(), other.state_size, other.version[0], s.to_bytes(), 10, 0.0, 0.3, 5.0)
    tail = (1, 0, 0, other.min_return, other.max_return)
    with pytest.raises(ValueError, match="this network takes"):
        _batch.ismcts_search(*args, "heuristic", *tail, "policy", bot._net)
    with pytest.raises(ValueError, match="needs a policy network"):
        _batch.ismcts_search(*args, "policy", *tail, "heuristic", None)
    with pytest.raises(ValueError, match="needs a policy network"):
        _batch.ismcts_search(*args, "heuristic", *tail, "policy_ucb", None)
    with pytest.raises(ValueError, match="guide must be 'heuristic', 'policy', 'policy_ucb' or 'policy_heuristic'"):
        _batch.ismcts_search(*args, "heuristic", *tail, "prior", None)


@pytest.mark.parametrize("params", GUIDED, ids=GUIDED_IDS)
def test_it_is_fair_states_its_seat_cannot_tell_apart_give_the_same_search(game, params):
    for k, s in enumerate(played_states(game, games=2, seed=4)):
        seat = s.current_player
        other = s.resample(seat, 1000 + k)  # the hidden parts (the bag's order, the dice to come) redrawn
        assert np.array_equal(other.observation(seat), s.observation(seat))
        bot = dimsum.bots.make("ismcts", game, seed=k, simulations=40, **params)
        twin = dimsum.bots.make("ismcts", game, seed=k, simulations=40, **params)
        assert bot.act(s) == twin.act(other)
        assert bot.last_search == twin.last_search  # the whole search, not only its result


def test_a_pickled_guided_bot_plays_as_the_original(game):
    bot = dimsum.bots.make("ismcts", game, seed=3, simulations=30, guide="policy", rollout="policy", weights="shipped")
    copy = pickle.loads(pickle.dumps(bot))
    states = played_states(game, games=1, seed=5)
    assert [bot.act(s) for s in states] == [copy.act(s) for s in states]


def test_guided_ismcts_at_a_small_budget_beats_random_in_a_short_arena_run(game):
    results = dimsum.arena.run(game, "ismcts:simulations=20,guide=policy,rollout=policy,weights=shipped,random",
                               games=30, seed=7, progress=False)
    guided = next(s for s in results.standings() if s.bot.startswith("ismcts"))
    assert guided.games == 30 and guided.interval[0] > 0.5, results.table()


def test_root_parallel_guided_trees_share_the_network_and_stay_deterministic(game):
    # every tree evaluates the one network with its own thread's scratch: the same seed and
    # thread count give the same whole search
    states = played_states(game, games=1, seed=6)
    search = lambda: searches(game, states, seed=2, simulations=80, threads=2, guide="policy", rollout="policy",
                              weights="shipped")
    first = search()
    assert first == search() and all(sims == 80 for _, (sims, _, _) in first)


def test_the_guided_search_spends_a_small_budget_on_the_actions_the_policy_likes(game):
    # PUCT (search_tree.hpp, select_guided): an untried action competes by its prior, so a budget of
    # as many simulations as legal actions leaves some untried, where trying every action once first
    # (UCB's rule, the heuristic guide's) would visit each exactly once
    states = [s for s in played_states(game, games=2, seed=8, every=3) if len(s.legal_actions()) >= 4]
    assert len(states) >= 5
    untried_somewhere = 0
    for k, s in enumerate(states):
        n = len(s.legal_actions())
        bot = dimsum.bots.make("ismcts", game, seed=k, simulations=n, guide="policy", weights="shipped")
        bot.act(s)
        visits = [v for _, v, _ in bot.last_search[2]]
        assert sum(visits) == n
        untried_somewhere += min(visits) == 0
    assert untried_somewhere >= len(states) // 2


def test_one_guided_simulation_tries_the_policys_favourite(game):
    # with no visits yet every action's value is the same, and the prior alone decides
    for k, s in enumerate(played_states(game, games=1, seed=9)):
        bot = dimsum.bots.make("ismcts", game, seed=k, simulations=1, guide="policy", weights="shipped")
        greedy = dimsum.bots.make("policy", game, seed=k, weights="shipped", greedy=True)
        assert bot.act(s) == greedy.act(s)


def test_bias_weighs_the_prior_in_the_guided_search(game):
    # bias is PUCT's constant there: another bias grows another tree from the same seed
    states = played_states(game, games=1, seed=10)
    search = lambda bias: searches(game, states, seed=1, simulations=60, bias=bias, guide="policy", weights="shipped")
    assert search(5.0) != search(1.0)


def test_the_ucb_guide_tries_every_action_once_first_its_policys_favourite_first(game):
    # guide='policy_ucb' (search_tree.hpp, select_guided_ucb): UCB plus the prior's bias, so a
    # budget of as many simulations as legal actions visits each exactly once (PUCT would leave
    # some untried: the test above), and one simulation tries the policy's favourite
    states = [s for s in played_states(game, games=2, seed=8, every=3) if len(s.legal_actions()) >= 4]
    assert len(states) >= 5
    for k, s in enumerate(states):
        n = len(s.legal_actions())
        bot = dimsum.bots.make("ismcts", game, seed=k, simulations=n, guide="policy_ucb", weights="shipped")
        bot.act(s)
        assert [v for _, v, _ in bot.last_search[2]] == [1] * n
        one = dimsum.bots.make("ismcts", game, seed=k, simulations=1, guide="policy_ucb", weights="shipped")
        greedy = dimsum.bots.make("policy", game, seed=k, weights="shipped", greedy=True)
        assert one.act(s) == greedy.act(s)


def test_the_policy_guides_grow_different_trees(game):
    # PUCT, UCB plus the prior, and that plus the heuristic's bias: three rules, three trees
    states = played_states(game, games=1, seed=11)
    search = lambda guide: searches(game, states, seed=1, simulations=60, guide=guide, weights="shipped")
    assert search("policy") != search("policy_ucb") != search("policy_heuristic") != search("policy")


def test_the_heuristic_bias_in_the_policy_guide_tries_every_action_once_first(game):
    # guide='policy_heuristic' is policy_ucb's rule plus the heuristic's bias: still every legal
    # action tried once before UCB chooses
    states = [s for s in played_states(game, games=1, seed=12, every=3) if len(s.legal_actions()) >= 4]
    assert states
    for k, s in enumerate(states):
        n = len(s.legal_actions())
        bot = dimsum.bots.make("ismcts", game, seed=k, simulations=n, guide="policy_heuristic", weights="shipped")
        bot.act(s)
        assert [v for _, v, _ in bot.last_search[2]] == [1] * n
