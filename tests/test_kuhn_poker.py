"""Kuhn poker (docs/rules/kuhn_poker.md): one test (or more) per rule, on both engines; the core and the
reference engine in lockstep; OpenSpiel's kuhn_poker in lockstep (legal actions, chance outcomes, current
player, returns, observations, information-state classes); OpenSpiel's CFR on both to the same
exploitability; resample and its explicit-mode history; check_game."""

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

import dimsum
from differential import play_in_lockstep
from dimsum.testing import check_game, profile
from needs import need_module

G = "kuhn_poker"
PASS, BET = 0, 1


def position(game, cards, betting="", seed=0):
    """A position from a readable dict: ``cards`` dealt, the ``betting`` ("pb") played."""
    d = game.new_state(seed).to_dict()
    d["cards"] = list(cards)
    d["betting"] = ""
    d["current_player"] = 0
    state = game.state_from_dict(d)
    for ch in betting:
        state.apply(BET if ch == "b" else PASS)
    return state


def contributions(state, player=0):
    layout = {s.name: s for s in state.game.observation_layout}
    sl = layout["pot_contribution"]
    return [int(v) for v in list(state.observation(player))[sl.start:sl.stop]]


# -- KP-1: players and antes ----------------------------------------------------------------------

def test_kp_1_every_seat_antes_one_chip(engine):
    for players in (2, 3, 5):
        state = engine(G, players=players).new_state(4)
        assert contributions(state) == [1] * players  # the pot starts at `players` chips
        for _ in range(players):
            state.apply(PASS)
        assert state.is_terminal and sorted(state.returns()) == [-1.0] * (players - 1) + [players - 1.0]


@pytest.mark.parametrize("players", [2, 3, 7, 10])
def test_kp_1_two_to_ten_players(engine, players):
    game = engine(G, players=players)
    d = game.new_state(0).to_dict()
    assert game.players == players and len(d["cards"]) == players
    assert game.num_chance_outcomes == players + 1


@pytest.mark.parametrize("players", [1, 11])
def test_kp_1_player_counts_outside_two_to_ten_are_refused(engine, players):
    with pytest.raises(ValueError, match="players"):
        engine(G, players=players)


def test_kp_1_defaults_are_openspiels(engine):
    game = engine(G)
    assert game.options == {"players": 2, "chance": "sampled"}
    assert (game.min_return, game.max_return) == (-2.0, 2.0)


# -- KP-2: the deal -----------------------------------------------------------------------------

def test_kp_2_each_seat_gets_a_distinct_card(engine):
    for players in (2, 3, 10):
        game = engine(G, players=players)
        for seed in range(50):
            cards = game.new_state(seed).to_dict()["cards"]
            assert len(set(cards)) == players and set(cards) <= set(range(players + 1))


def test_kp_2_every_deal_is_equally_likely(engine):
    game = engine(G)
    deals = Counter(tuple(game.new_state(seed).to_dict()["cards"]) for seed in range(3000))
    assert set(deals) == set(itertools.permutations(range(3), 2))  # the six deals of 3 cards to 2 seats
    assert all(400 <= n <= 600 for n in deals.values()), deals  # 500 each expected; sd ~20
    state = engine(G, players=3, chance="explicit").new_state(0)
    assert state.chance_outcomes(exact=True) == [(k, Fraction(1, 4)) for k in range(4)]
    state.apply(2)
    assert state.chance_outcomes(exact=True) == [(k, Fraction(1, 3)) for k in (0, 1, 3)]


def test_kp_2_explicit_chance_deals_seat_by_seat(engine):
    state = engine(G, players=3, chance="explicit").new_state(1)
    seen = []
    for card in (3, 0, 2):
        assert state.is_chance_node
        state.apply(card)
        seen.append(state.to_dict()["cards"])
    assert seen == [[3, None, None], [3, 0, None], [3, 0, 2]]
    assert state.current_player == 0 and not state.is_chance_node
    assert engine(G, players=3, chance="explicit").max_game_length == 3 + 5


# -- KP-3: the betting order ----------------------------------------------------------------------

def test_kp_3_seats_act_in_order_from_seat_0(engine):
    state = engine(G, players=4).new_state(2)
    order = []
    while not state.is_terminal:
        order.append(state.current_player)
        state.apply(PASS)
    assert order == [0, 1, 2, 3]


def test_kp_3_pass_and_bet_are_the_only_decisions(engine):
    game = engine(G, players=3)
    state = game.new_state(0)
    assert state.legal_actions() == [PASS, BET]
    assert [game.action_name(a) for a in range(game.num_actions)] == ["pass", "bet", "unused 2", "unused 3"]
    before = state.to_dict()
    with pytest.raises(dimsum.IllegalActionError):
        state.apply(2)
    assert state.to_dict() == before


# -- KP-4: after a bet ----------------------------------------------------------------------------

def test_kp_4_after_a_bet_every_other_seat_calls_or_folds_once(engine):
    state = position(engine(G, players=3), [0, 1, 2], "b")  # seat 0 bets
    order = []
    while not state.is_terminal:
        order.append(state.current_player)
        state.apply(BET)
    assert order == [1, 2]  # each other seat once, then the betting is over
    assert contributions(state) == [2, 2, 2]


def test_kp_4_seats_before_the_bettor_answer_in_a_second_round(engine):
    state = position(engine(G, players=4), [0, 1, 2, 3], "ppb")  # seat 2 bets after two checks
    order = []
    while not state.is_terminal:
        order.append(state.current_player)
        state.apply(PASS)
    assert order == [3, 0, 1]
    assert contributions(state) == [1, 1, 2, 1]


# -- KP-5: the end of the betting -----------------------------------------------------------------

def test_kp_5_all_pass_ends_the_game(engine):
    for players in (2, 5):
        state = position(engine(G, players=players), range(players), "p" * (players - 1))
        assert not state.is_terminal
        state.apply(PASS)
        assert state.is_terminal and state.legal_actions() == []


def test_kp_5_the_game_ends_when_every_seat_answered_the_bet(engine):
    state = position(engine(G, players=3), [2, 0, 1], "pbp")
    assert state.current_player == 0  # seat 0 checked, then faces seat 1's bet
    state.apply(BET)
    assert state.is_terminal and state.to_dict()["betting"] == "pbpb"


@pytest.mark.parametrize("players", [2, 3, 10])
def test_kp_5_the_longest_betting(engine, players):
    game = engine(G, players=players)
    state = position(game, range(players), "p" * (players - 1) + "b")
    for _ in range(players - 1):
        assert not state.is_terminal
        state.apply(BET)
    assert state.is_terminal and len(state.to_dict()["betting"]) == 2 * players - 1 == game.max_game_length


# -- KP-6: showdown and payoffs -------------------------------------------------------------------

def test_kp_6_showdown_after_all_pass(engine):
    state = position(engine(G, players=3), [1, 3, 0], "ppp")
    assert state.returns() == (-1.0, 2.0, -1.0)
    assert state.outcome.reason == "checked" and state.outcome.winners == (1,)


def test_kp_6_showdown_among_the_callers(engine):
    # seat 2 holds the highest card but folds; seat 0 (card 2) beats seat 1 (card 0)
    state = position(engine(G, players=3), [2, 0, 3], "pbpb")
    assert state.returns() == (3.0, -2.0, -1.0)
    assert state.outcome.reason == "showdown" and state.outcome.winners == (0,)


def test_kp_6_a_fold_loses_the_ante(engine):
    state = position(engine(G), [2, 0], "bp")  # seat 1 folds, though the showdown is irrelevant
    assert state.returns() == (1.0, -1.0)
    assert state.outcome.reason == "fold"
    state = position(engine(G), [0, 2], "bp")  # the fold loses even holding the higher card
    assert state.returns() == (1.0, -1.0)


def test_kp_6_payoffs_two_players(engine):
    # seat 0 holds the higher card: every betting sequence of the two-player game
    expected = {"pp": (1, -1), "pbp": (-1, 1), "pbb": (2, -2), "bp": (1, -1), "bb": (2, -2)}
    for betting, returns in expected.items():
        state = position(engine(G), [2, 1], betting)
        assert state.is_terminal and state.returns() == tuple(map(float, returns)), betting
    # and with the lower card: only the showdowns change hands
    lower = {"pp": (-1, 1), "pbp": (-1, 1), "pbb": (-2, 2), "bp": (1, -1), "bb": (-2, 2)}
    for betting, returns in lower.items():
        assert position(engine(G), [0, 1], betting).returns() == tuple(map(float, returns)), betting


def test_kp_6_payoffs_three_or_more_players(engine):
    # 3 players: seat 1 bets, seat 2 calls, seat 0 folds; pot 5, seat 2's card beats seat 1's
    assert position(engine(G, players=3), [3, 1, 2], "pbbp").returns() == (-1.0, -2.0, 3.0)
    # 4 players: seat 0 bets, seats 1 and 2 fold, seat 3 calls with the higher card; pot 6
    assert position(engine(G, players=4), [1, 4, 0, 2], "bppb").returns() == (-2.0, -1.0, -1.0, 4.0)
    # 5 players, nobody bets: the highest card dealt (4; card 5 is undealt) takes the 5 antes
    assert position(engine(G, players=5), [0, 4, 1, 3, 2], "ppppp").returns() == (-1.0, 4.0, -1.0, -1.0, -1.0)
    # the most one seat can win: every other seat calls its bet (2 chips from each)
    state = position(engine(G, players=10), [10] + list(range(9)), "b" + "b" * 9)
    assert state.returns()[0] == 18.0 == engine(G, players=10).max_return


def test_kp_6_returns_are_zero_sum(engine):
    for players in (2, 3, 6):
        game = engine(G, players=players)
        rng = random.Random(players)
        for seed in range(60):
            state = game.new_state(seed)
            while not state.is_terminal:
                assert state.returns() == tuple([0.0] * players)
                state.apply(rng.choice(state.legal_actions()))
            assert sum(state.returns()) == 0.0


# -- KP-7: the heuristic --------------------------------------------------------------------------

def test_kp_7_heuristic_bets_only_the_highest_card():
    import dimsum.bots

    game = dimsum.make(G, players=3)
    bot = dimsum.bots.make("heuristic", game, seed=1)
    assert bot.act(position(game, [3, 0, 1])) == BET
    assert bot.act(position(game, [2, 0, 1])) == PASS
    assert bot.act(position(game, [0, 3, 1], "b")) == BET   # calls with the top card
    assert bot.act(position(game, [3, 2, 1], "b")) == PASS  # folds the second card


# -- states from outside --------------------------------------------------------------------------

@pytest.mark.parametrize("change,field", [
    (dict(cards=[1, 1, 0]), "cards"),
    (dict(cards=[1, 4, 0]), "cards"),
    (dict(cards=[1, None, 0]), "cards"),
    (dict(betting="pppp"), "decisions|betting"),
    (dict(betting="ppp", current_player=0), "current_player"),
    (dict(betting="pb", current_player=0), "current_player"),
    (dict(betting="x"), "betting"),
    (dict(current_player=-2), "current_player"),
])
def test_states_the_rules_cannot_reach_are_refused(change, field):
    game = dimsum.make(G, players=3)
    d = game.new_state(0).to_dict()
    d.update(change)
    with pytest.raises((ValueError, TypeError), match=field):
        game.state_from_dict(d)


# -- resample: what a seat cannot see, dealt anew --------------------------------------------------

def test_resample_keeps_the_seats_view_and_redraws_the_other_cards():
    game = dimsum.make(G, players=3)
    state = position(game, [0, 3, 1], "pb")
    redrawn = set()
    for seed in range(40):
        r = state.resample(0, seed)
        d = r.to_dict()
        assert d["cards"][0] == 0 and d["betting"] == "pb" and len(set(d["cards"])) == 3
        assert r.observation(0).tolist() == state.observation(0).tolist()
        assert r.information_state_string(0) == state.information_state_string(0)
        redrawn.add(tuple(d["cards"][1:]))
    assert redrawn == {(a, b) for a in (1, 2, 3) for b in (1, 2, 3) if a != b}  # every hidden pair, never 0
    over = position(game, [0, 3, 1], "ppp")
    assert over.resample(0, 5).to_dict()["cards"] == [0, 3, 1]  # the returns showed who won


def test_resample_in_explicit_mode_rewrites_the_deal_in_the_history():
    game = dimsum.make(G, players=3, chance="explicit")
    state = game.new_state(3)
    for card in (2, 0, 3):
        state.apply(card)
    state.apply(PASS)
    for seed in range(10):
        r = state.resample(1, seed)
        cards = r.to_dict()["cards"]
        assert cards[1] == 0 and r.history[:3] == cards and r.history[3:] == [PASS]
        assert r.information_state_string(1) == state.information_state_string(1)


def _channels(state, seat):
    """Everything the library shows one seat: the observation and its string, the information state
    and its key, the seat's picture, the terminal player's view and the language model's view."""
    from dimsum.llm.prompt import view as llm_view
    from dimsum.play.views import view_text

    names = [f"p{k}" for k in range(state.game.players)]
    return {"observation": state.observation(seat).tolist(), "observation_string": state.observation_string(seat),
            "information_state": state.information_state_string(seat), "key": state.information_state_key(seat),
            "svg": state.to_svg(seat), "terminal view": view_text(state, seat, names),
            "llm view": llm_view(state, seat, names)}


@pytest.mark.parametrize("options", [dict(players=2), dict(players=3), dict(players=3, chance="explicit")])
def test_a_seat_sees_a_resampled_state_as_the_real_one_through_every_channel(options):
    """The other cards are hidden everywhere, not only in the observation: a state and its resample
    for seat p look the same to p through every view, while the cards did change in some of them."""
    game = dimsum.make(G, **options)
    rng = random.Random(11)
    changed = 0
    for seed in range(25):
        state = game.new_state(seed)
        while True:
            if not state.is_chance_node:
                for p in range(game.players):
                    twin = state.resample(p, rng.getrandbits(32))
                    changed += twin.to_dict()["cards"] != state.to_dict()["cards"]
                    mine, theirs = _channels(state, p), _channels(twin, p)
                    for channel in mine:
                        assert mine[channel] == theirs[channel], f"seed {seed} seat {p}: {channel} shows a hidden card"
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
    assert changed > 50


@pytest.mark.parametrize("options", [dict(players=2), dict(players=4), dict(players=3, chance="explicit")])
def test_core_and_reference_resample_alike(options):
    import dimsum.reference

    core, ref = dimsum.make(G, **options), dimsum.reference.make(G, **options)
    rng = random.Random(7)
    for seed in range(30):
        a, b = core.new_state(seed), ref.new_state(seed)
        while True:
            for p in range(core.players):
                assert a.resample(p, seed * 31 + p).to_dict() == b.resample(p, seed * 31 + p).to_dict()
            if a.is_terminal:
                break
            action = rng.choice(a.legal_actions())
            a.apply(action)
            b.apply(action)


# -- the core and the reference in lockstep ---------------------------------------------------------

CASES = [dict(o) for o in profile(G).conformance] + [dict(players=p) for p in (5, 7, 8, 9)]


@pytest.mark.parametrize("options", CASES + [dict(o, chance="explicit") for o in CASES],
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_core_and_reference_agree_step_by_step(options):
    endings = Counter()
    for seed in range(150):
        final = play_in_lockstep(G, options, seed)
        endings["bet" if "b" in final["betting"] else "checked"] += 1
    assert endings["bet"]
    if options.get("players", 2) <= 6:  # everyone passing is 1 in 2 ** players: rare beyond
        assert endings["checked"]


@pytest.mark.parametrize("options", [dict(o) for o in profile(G).conformance] + [dict(players=3, chance="explicit")])
def test_check_game_passes(options):
    report = check_game(dimsum.make(G, **options), n_games=30, deep_every=2)
    assert report.games == 30 and report.longest <= dimsum.make(G, **options).max_game_length


# -- OpenSpiel's kuhn_poker in lockstep --------------------------------------------------------------

def _observation_tensor(theirs, p):
    return [float(v) for v in theirs.observation_tensor(p)]


def _lockstep_step(ours, theirs, where):
    assert ours.is_terminal == theirs.is_terminal(), where
    assert ours.is_chance_node == theirs.is_chance_node(), where
    assert list(ours.returns()) == pytest.approx(theirs.returns()), where
    if ours.is_terminal:
        return
    if ours.is_chance_node:
        outcomes, probs = zip(*theirs.chance_outcomes())
        assert [o for o, _ in ours.chance_outcomes()] == list(outcomes), where
        assert [p for _, p in ours.chance_outcomes()] == pytest.approx(probs), where
    else:
        assert ours.current_player == theirs.current_player(), where
        assert ours.legal_actions() == list(theirs.legal_actions()), where
        assert [ours.action_name(a) for a in ours.legal_actions()] == [
            theirs.action_to_string(theirs.current_player(), a).lower() for a in theirs.legal_actions()], where
    for p in range(ours.game.players):
        assert ours.observation(p).tolist() == _observation_tensor(theirs, p), f"{where} player {p}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dimsum_and_openspiel_kuhn_poker_agree_move_for_move(players):
    pyspiel = need_module("pyspiel")
    game = dimsum.make(G, players=players, chance="explicit")
    theirs_game = pyspiel.load_game(G, {"players": players})
    lengths = Counter()
    for seed in range(100):
        ours, theirs = game.new_state(seed), theirs_game.new_initial_state()
        rng = random.Random(seed)
        step = 0
        while True:
            _lockstep_step(ours, theirs, f"players {players} seed {seed} step {step}")
            if ours.is_terminal:
                break
            action = rng.choice(ours.legal_actions())
            ours.apply(action)
            theirs.apply_action(action)
            step += 1
        lengths[step] += 1
    assert len(lengths) >= 2  # games of several lengths: ended in the first round or after a bet


def _all_states(game, theirs_game):
    """Every state of both games, walked in lockstep (the whole tree, deal included)."""
    out = []

    def walk(ours, theirs, where):
        _lockstep_step(ours, theirs, where)
        out.append((ours, theirs))
        for action in ours.legal_actions():
            a, b = ours.clone(), theirs.clone()
            a.apply(action)
            b.apply_action(action)
            walk(a, b, where + [action])

    walk(game.new_state(0), theirs_game.new_initial_state(), [])
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_information_states_are_openspiels_classes(players):
    """Two states look the same to a seat in dimsum exactly when they do in OpenSpiel: over the whole
    tree, for every seat, at every decision and terminal state, the two information state strings
    induce the same partition."""
    pyspiel = need_module("pyspiel")
    game = dimsum.make(G, players=players, chance="explicit")
    pairs = [(a, b) for a, b in _all_states(game, pyspiel.load_game(G, {"players": players}))
             if not a.is_chance_node]
    for p in range(players):
        ours_of, theirs_of = {}, {}
        for a, b in pairs:
            mine, theirs = a.information_state_string(p), b.information_state_string(p)
            assert ours_of.setdefault(mine, theirs) == theirs, f"seat {p}: dimsum merges {theirs!r} and another"
            assert theirs_of.setdefault(theirs, mine) == mine, f"seat {p}: dimsum splits OpenSpiel's {theirs!r}"
    if players == 2:  # 12 information states at the decisions: 3 cards x 2 histories, for each seat
        at_decisions = {(a.current_player, a.information_state_string(a.current_player))
                        for a, _ in pairs if a.current_player >= 0}
        assert len(at_decisions) == 12


def test_the_games_declare_the_same_facts():
    pyspiel = need_module("pyspiel")
    for players in (2, 3, 10):
        ours, theirs = dimsum.make(G, players=players), pyspiel.load_game(G, {"players": players})
        assert {k: v for k, v in ours.options.items() if k != "chance"} == theirs.get_parameters()
        assert ours.num_chance_outcomes == theirs.max_chance_outcomes()
        assert (ours.min_return, ours.max_return) == (theirs.min_utility(), theirs.max_utility())
        # OpenSpiel counts the decisions (2 * players - 1); dimsum's bound counts the deal's chance nodes too
        assert dimsum.make(G, players=players, chance="explicit").max_game_length == players + theirs.max_game_length()
        assert list(ours.observation_shape) == theirs.observation_tensor_shape()
    info, kind = dimsum.game_info(G), pyspiel.load_game(G).get_type()
    assert info.information == "imperfect" and kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert info.utility == "zero_sum" and kind.utility == pyspiel.GameType.Utility.ZERO_SUM


CFR_ITERATIONS = 30


def _cfr(pyspiel, name):
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game(name)
    solver = cfr.CFRSolver(game)
    for _ in range(CFR_ITERATIONS):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    return len(policy.state_lookup), exploitability.exploitability(game, policy)


def test_openspiels_cfr_reaches_the_same_exploitability_through_the_adapter():
    pyspiel = need_module("pyspiel")
    need_module("open_spiel.python.algorithms.cfr")
    import dimsum.openspiel  # noqa: F401  (registers dimsum_kuhn_poker)

    theirs = _cfr(pyspiel, "kuhn_poker")
    ours = _cfr(pyspiel, "dimsum_kuhn_poker")
    assert ours[0] == theirs[0] == 12  # information states: 3 cards x 2 betting histories, for each seat
    assert ours[1] == pytest.approx(theirs[1], abs=1e-12)
    assert ours[1] == pytest.approx(0.02298, abs=5e-6)  # OpenSpiel's figure after 30 iterations
