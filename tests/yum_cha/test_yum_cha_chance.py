"""Yum Cha's chance nodes (chance="explicit"), on both engines: every random event of the rules
(round 1's starter, each card of every deal, each draw from the deck), its outcomes and their
probabilities worked out by hand here, and what follows each event. Also the game's ending
(state.outcome) and the names of its observation entries. docs/rules/yum_cha.md, "Chance nodes"."""

from collections import Counter
from fractions import Fraction

import pytest

import dimsum
from dimsum.games import yum_cha as spec
from dimsum.reference.rng import Rng
from yc_policy import choose
from yc_positions import position

G = "yum_cha"
EXPLICIT = dict(chance="explicit")


def hand_sizes(state):
    return [sum(h.values()) for h in state.to_dict()["hands"]]


def deal_all(state, pick=lambda outcomes: outcomes[0][0]):
    """Plays the deal's chance nodes (the first outcome each time unless told); returns them."""
    dealt = []
    while state.to_dict()["phase"] == "deal":
        outcome = pick(state.chance_outcomes())
        dealt.append(outcome)
        state.apply(outcome)
    return dealt


def snapshot(state):
    return state.to_bytes() if hasattr(state, "to_bytes") else (state.to_dict(), list(state.history))


# -- the chance outcome space ---------------------------------------------------------------------

@pytest.mark.parametrize("chance", ["sampled", "explicit"])
def test_chance_outcomes_are_card_types_then_seats_in_both_modes(engine, chance):
    game = engine(G, players=4, chance=chance)
    cfg = game.spec
    assert game.num_chance_outcomes == cfg.num_types + 4 == 36
    names = cfg.chance_space.names
    assert names[:cfg.num_types] == tuple(f"draw {n}" for n in cfg.type_names)
    assert names[cfg.num_types:] == ("seat 0 starts", "seat 1 starts", "seat 2 starts", "seat 3 starts")
    assert names[cfg.type_index("Har Gow")] == "draw Har Gow"


def test_a_sampled_game_never_stops_at_a_chance_node(engine):
    game = engine(G, players=3, rounds=1, max_turns_per_round=20)
    state = game.new_state(4)
    while not state.is_terminal:
        assert not state.is_chance_node and state.current_player >= 0
        state.apply(state.legal_actions()[-1])


def test_max_game_length_counts_the_chance_nodes():
    # per round: 20 turns of two actions, 30 dealt cards, at most one deck draw a turn; + the starter
    core = dimsum.make(G, players=3, rounds=2, max_turns_per_round=20, **EXPLICIT)
    assert core.max_game_length == 2 * (20 * 2 + 30 + 20) + 1
    assert dimsum.make(G, players=3, rounds=2, max_turns_per_round=20).max_game_length == 2 * 20 * 2
    for seed in range(5):
        state, steps = core.new_state(seed), 0
        while not state.is_terminal:
            state.apply(state.legal_actions()[0])  # always draw from the deck: the longest games
            steps += 1
        assert steps <= core.max_game_length


# -- YC-11: round 1's starter ---------------------------------------------------------------------

def test_round_one_starter_is_a_chance_node_each_seat_one_in_players(engine):
    game = engine(G, players=4, **EXPLICIT)
    state = game.new_state(0)
    assert state.is_chance_node and state.current_player == dimsum.CHANCE
    assert state.to_dict()["phase"] == "starter_draw" and hand_sizes(state) == [0, 0, 0, 0]
    T = game.spec.num_types
    assert state.chance_outcomes(exact=True) == [(T + p, Fraction(1, 4)) for p in range(4)]
    assert state.legal_actions() == [T, T + 1, T + 2, T + 3]
    assert state.action_name(T + 2) == "seat 2 starts" and state.parse_action("seat 2 starts") == T + 2
    state.apply(T + 2)
    assert state.to_dict()["starter"] == 2 and state.to_dict()["phase"] == "deal"
    deal_all(state)
    assert state.current_player == 2 and state.to_dict()["phase"] == "draw"  # the drawn starter acts first


def test_a_configured_first_player_leaves_only_the_deal_to_chance(engine):
    game = engine(G, players=3, first_player=1, **EXPLICIT)
    state = game.new_state(0)
    assert state.to_dict()["phase"] == "deal" and state.is_chance_node
    assert len(deal_all(state)) == 30
    assert state.current_player == 1


# -- setup / YC-12: the deal, one card a chance node ------------------------------------------------

def test_first_card_of_the_deal_has_probability_copies_over_the_deck(engine):
    game = engine(G, players=3, first_player=0, **EXPLICIT)
    state = game.new_state(0)
    total = sum(t.copies for t in game.spec.types)  # 96: Pay the Bill is not dealt
    assert total == 96
    assert state.chance_outcomes(exact=True) == [(t.index, Fraction(t.copies, total)) for t in game.spec.types]
    assert state.action_name(game.spec.type_index("Har Gow")) == "draw Har Gow"


def test_deal_is_a_sequence_of_single_draws_seat_by_seat_weighted_by_what_is_left(engine):
    game = engine(G, players=3, first_player=2, **EXPLICIT)
    cfg = game.spec
    state = game.new_state(0)
    left = Counter({t.index: t.copies for t in cfg.types})
    policy = Rng(11)
    for k in range(30):
        # by hand: the weights are the copies still in the deck, and seat k // 10 gets the card
        assert state.is_chance_node and state.to_dict()["phase"] == "deal"
        expected = [(t, Fraction(n, sum(left.values()))) for t, n in sorted(left.items()) if n]
        assert state.chance_outcomes(exact=True) == expected
        assert hand_sizes(state) == [min(10, max(0, k - 10 * p)) for p in range(3)]
        outcomes = [t for t, _ in expected]
        t = outcomes[policy.bounded(len(outcomes))]
        state.apply(t)
        left[t] -= 1
        assert state.to_dict()["hands"][k // 10].get(cfg.type_names[t], 0) >= 1
    assert hand_sizes(state) == [10, 10, 10]
    assert state.current_player == 2 and not state.is_chance_node  # the starter draws first
    assert state.to_dict()["deck"] == {cfg.type_names[t]: n for t, n in sorted(left.items()) if n}


def test_a_card_type_drawn_out_is_no_longer_an_outcome(engine):
    game = engine(G, players=2, first_player=0, **EXPLICIT)
    state = game.new_state(0)
    har_gow = game.spec.type_index("Har Gow")
    for _ in range(3):  # all three copies
        state.apply(har_gow)
    outcomes = [t for t, _ in state.chance_outcomes()]
    assert har_gow not in outcomes and len(outcomes) == game.spec.num_types - 1
    assert state.to_dict()["hands"][0] == {"Har Gow": 3}


def test_every_round_starts_with_a_deal_of_chance_nodes(engine):
    # YC-10/YC-11/YC-12: a one-turn round ends at the cap; the next round is dealt by chance again
    game = engine(G, players=3, rounds=2, max_turns_per_round=1, first_player=1, **EXPLICIT)
    state = game.new_state(0)
    deal_all(state)
    state.apply(game.parse_action("draw from the deck"))
    state.apply(state.legal_actions()[0])  # chance: the card
    state.apply(state.legal_actions()[0])  # a discard: the turn cap ends the round
    d = state.to_dict()
    assert d["round"] == 1 and d["phase"] == "deal" and state.is_chance_node
    assert hand_sizes(state) == [0, 0, 0] and d["starter"] == 2  # the washout's left neighbour
    assert state.chance_outcomes(exact=True)[0] == (0, Fraction(game.spec.types[0].copies, 96))
    assert len(deal_all(state)) == 30 and state.current_player == 2


# -- YC-1: a draw from the deck --------------------------------------------------------------------

def test_draw_from_the_deck_is_a_chance_node_weighted_by_the_decks_counts(engine):
    game = engine(G, players=3, **EXPLICIT)
    cfg = game.spec
    state = position(game, {}, centre=["Egg Tart"], current=1)
    deck = {cfg.type_index(n): c for n, c in state.to_dict()["deck"].items()}
    state.apply(cfg.draw_action)
    d = state.to_dict()
    assert state.is_chance_node and d["phase"] == "deck_draw" and d["drawer"] == 1
    assert hand_sizes(state) == [10, 10, 10]  # nothing drawn yet
    total = sum(deck.values())
    assert state.chance_outcomes(exact=True) == [(t, Fraction(n, total)) for t, n in sorted(deck.items())]
    card = max(deck)
    state.apply(card)
    d = state.to_dict()
    assert state.current_player == 1 and d["phase"] == "discard" and d["drawer"] == -1
    assert d["hands"][1].get(cfg.type_names[card]) and sum(d["deck"].values()) == total - 1
    assert d["last_taken"] is None  # a card from the deck is not known to the others


def test_taking_from_the_centre_is_not_a_chance_event(engine):
    game = engine(G, players=3, **EXPLICIT)
    state = position(game, {}, centre=["Egg Tart"])
    state.apply(game.parse_action("take Egg Tart from the centre"))
    assert not state.is_chance_node and state.current_player == 0
    assert state.to_dict()["phase"] == "discard"


def test_auto_declare_checks_the_card_chance_gives(engine):
    # YC-5: the rules go on after the chance node exactly as after a sampled draw
    game = engine(G, players=2, rounds=2, auto_declare=True, **EXPLICIT)
    hand = ["Sesame Ball", "Taro Puff", "Stuffed Crab Claw", "Har Gow", "Teochew Dumpling", "Pork Dumpling",
            "Red Bean Soup", "Soy Pudding", "Egg Tart", "Dragon Well"]
    state = position(game, {0: hand}, phase="deck_draw", current=-2, drawer=0)
    assert state.is_chance_node
    state.apply(game.spec.type_index("Dragon Well"))  # the eleventh card completes the hand
    d = state.to_dict()
    assert d["declarations"] == [1, 0] and d["scores"][0] == (1 + 1 + 1) * 3
    assert d["round"] == 1 and d["phase"] == "deal" and d["starter"] == 0  # the declarer starts round 2


def test_deck_running_out_on_a_chance_draw_is_a_washout_at_the_end_of_the_turn(engine):
    game = engine(G, players=2, rounds=1, **EXPLICIT)
    state = position(game, {}, deck=["Egg Tart"])
    state.apply(0)
    assert state.chance_outcomes(exact=True) == [(game.spec.type_index("Egg Tart"), Fraction(1))]
    state.apply(game.spec.type_index("Egg Tart"))
    state.apply(game.parse_action("discard Egg Tart"))
    assert state.is_terminal and spec.ending(game.spec, state.fields())[0] == "all_washouts"
    assert "the deck ran out" in spec.ending(game.spec, state.fields())[1]


# -- bad input at chance nodes ----------------------------------------------------------------------

def chance_nodes(game):
    """A starter node, a deal node and a deck-draw node of the same game."""
    starter = game.new_state(3)
    deal = starter.clone()
    deal.apply(deal.legal_actions()[1])
    for _ in range(7):
        deal.apply(deal.legal_actions()[0])
    draw = deal.clone()
    deal_all(draw)
    draw.apply(0)
    return {"starter_draw": starter, "deal": deal, "deck_draw": draw}


def test_bad_outcomes_at_chance_nodes_are_refused_and_change_nothing(engine):
    game = engine(G, players=3, **EXPLICIT)
    cfg = game.spec
    for phase, state in chance_nodes(game).items():
        assert state.to_dict()["phase"] == phase
        before = snapshot(state)
        outcomes = state.legal_actions()
        not_outcomes = [a for a in range(game.num_actions) if a not in outcomes]
        # a card type at the starter node, a seat at a card node, a player's action (declare, discard)
        assert cfg.declare_action in not_outcomes and cfg.discard_action(cfg.num_types - 1) in not_outcomes
        for a in not_outcomes[:3] + [cfg.declare_action]:
            with pytest.raises(dimsum.IllegalActionError, match="not a possible outcome"):
                state.apply(a)
        for a in (-1, game.num_actions):
            with pytest.raises(ValueError):
                state.apply(a)
        for a in ("0", 1.0, None, True):
            with pytest.raises(TypeError):
                state.apply(a)
        assert snapshot(state) == before and state.legal_actions() == outcomes


def test_a_seat_is_not_a_card_and_an_empty_card_type_is_not_an_outcome(engine):
    game = engine(G, players=3, **EXPLICIT)
    nodes = chance_nodes(game)
    T = game.spec.num_types
    assert all(a >= T for a in nodes["starter_draw"].legal_actions())
    assert all(a < T for a in nodes["deal"].legal_actions())
    with pytest.raises(dimsum.IllegalActionError):
        nodes["deal"].apply(T)  # "seat 0 starts" while dealing


# -- the pending event in the state -----------------------------------------------------------------

def test_pending_events_round_trip_through_the_dict_and_bytes(engine):
    game = engine(G, players=3, **EXPLICIT)
    for state in chance_nodes(game).values():
        again = game.state_from_dict(state.to_dict())
        assert again.to_dict() == state.to_dict() and again.legal_actions() == state.legal_actions()
        if hasattr(state, "to_bytes"):
            assert game.state_from_bytes(state.to_bytes()) == state
            assert game.state_from_dict(state.to_dict()).hash == state.hash


def test_a_sampled_game_refuses_a_pending_chance_event():
    explicit, sampled = dimsum.make(G, players=3, **EXPLICIT), dimsum.make(G, players=3)
    for state in chance_nodes(explicit).values():
        with pytest.raises(ValueError, match="phase|current_player|drawer"):
            sampled.state_from_dict(state.to_dict())


def test_inconsistent_pending_events_are_refused():
    game = dimsum.make(G, players=3, **EXPLICIT)
    nodes = chance_nodes(game)
    bad = []
    d = nodes["deck_draw"].to_dict()
    bad.append(({**d, "drawer": -1}, "drawer"))                          # whose draw?
    bad.append(({**nodes["deal"].to_dict(), "drawer": 1}, "drawer"))     # a drawer while dealing
    d = nodes["deal"].to_dict()                                          # seat 0 short, seat 1 dealt to
    h0, h1 = dict(d["hands"][0]), dict(d["hands"][1])
    moved = next(iter(h0))
    h0[moved] -= 1
    h1[moved] = h1.get(moved, 0) + 1
    bad.append(({**d, "hands": [{k: v for k, v in h0.items() if v}, h1, d["hands"][2]]}, "hands"))
    bad.append(({**nodes["deal"].to_dict(), "current_player": 0}, "current_player"))
    bad.append(({**nodes["starter_draw"].to_dict(), "starter": 1}, "phase"))  # a starter already drawn
    bad.append(({**nodes["deck_draw"].to_dict(), "phase": "deal"}, "hands|phase"))   # every hand dealt
    fixed = dimsum.make(G, players=3, first_player=0, **EXPLICIT)
    for d, field in bad:
        with pytest.raises(ValueError, match=field):
            game.state_from_dict(d)
    with pytest.raises(ValueError, match="phase"):  # no starter to draw when it is configured
        fixed.state_from_dict(nodes["starter_draw"].to_dict())


def test_old_dicts_without_the_drawer_key_still_load(engine):
    game = engine(G, players=3)
    d = game.new_state(1).to_dict()
    del d["drawer"]
    assert game.state_from_dict(d).to_dict()["drawer"] == -1


def test_resample_at_a_chance_node_keeps_the_pending_event(engine):
    game = engine(G, players=3, **EXPLICIT)
    for phase, state in chance_nodes(game).items():
        for player in range(3):
            again = state.resample(player, 99)
            d, d0 = again.to_dict(), state.to_dict()
            assert again.is_chance_node and d["phase"] == phase and d["drawer"] == d0["drawer"]
            assert hand_sizes(again) == hand_sizes(state) and d["hands"][player] == d0["hands"][player]
            assert list(again.observation(player)) == list(state.observation(player))
            assert sorted(again.legal_actions()) == sorted(set(again.legal_actions()))


def test_observation_at_a_chance_node_shows_no_player_to_act(engine):
    game = engine(G, players=3, **EXPLICIT)
    layout = {sl.name: sl for sl in game.observation_layout}
    for state in chance_nodes(game).values():
        for p in range(3):
            obs = list(state.observation(p))
            for name in ("current_player", "phase", "last_taken"):
                sl = layout[name]
                assert obs[sl.start:sl.stop] == [0.0] * (sl.stop - sl.start)


# -- state.outcome (ending.py) ----------------------------------------------------------------------

def finish(game, seed, policy=None):
    state, rng = game.new_state(seed), Rng(seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(policy(game.spec, state.to_dict(), legal, rng) if policy else legal[rng.bounded(len(legal))])
    return state


@pytest.mark.parametrize("chance", ["sampled", "explicit"])
def test_uniform_random_games_end_in_washouts_and_say_so(chance):
    game = dimsum.make(G, players=4, rounds=2, max_turns_per_round=30, chance=chance)
    for seed in range(4):
        state = finish(game, seed)
        out = state.outcome
        assert out.reason == "all_washouts"
        assert "nobody declared Yum Cha: both rounds washed out" in out.description
        assert out.returns == state.returns()
        assert all(state.returns()[p] > 0 for p in out.winners)


def test_the_turn_cap_ending_is_named():
    game = dimsum.make(G, players=3, rounds=1, max_turns_per_round=5)
    out = finish(game, 1).outcome
    assert out.reason == "all_washouts" and "the 5-turn cap" in out.description


def test_a_declared_game_names_the_declarers_and_the_winner():
    game = dimsum.make(G, players=2, rounds=4, max_turns_per_round=25)
    for seed in range(60):
        state = finish(game, seed, choose)
        f = state.fields()
        if sum(f["declarations"]):
            break
    out = state.outcome
    assert out.reason == "declared"
    by = [f"seat {p}" for p, n in enumerate(f["declarations"]) if n]
    assert all(s in out.description for s in by)
    assert f"Yum Cha was declared in {sum(f['declarations'])} of 4 rounds" in out.description
    assert out.winners == tuple(p for p, r in enumerate(state.returns()) if r > 0)


def test_tie_break_picks_one_winner_in_the_ending():
    game = dimsum.make(G, players=2, rounds=1, tie_break="declarations_then_best_round")
    hand = ["Sesame Ball", "Taro Puff", "Stuffed Crab Claw", "Har Gow", "Teochew Dumpling", "Pork Dumpling",
            "Red Bean Soup", "Soy Pudding", "Egg Tart", "Dragon Well", "Dragon Well"]
    state = position(game, {1: hand}, phase="discard", current=1)
    state.apply(game.spec.declare_action)
    out = state.outcome
    assert out.reason == "declared" and out.winners == (1,)
    assert "seat 1 once" in out.description and "Seat 1 pays the bill (wins) with 9 points" in out.description


# -- observation_labels ------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [dict(players=2), dict(players=4, rounds=3), dict(players=6, rounds=1)])
def test_observation_labels_fit_the_slices(options):
    game = dimsum.make(G, **options)
    labels = spec.observation_labels(game.spec)
    layout = {sl.name: sl for sl in game.observation_layout}
    assert set(labels) <= set(layout)
    for name, names in labels.items():
        assert len(names) == layout[name].stop - layout[name].start, name
        assert len(set(names)) == len(names), name
    assert labels["hand"][game.spec.type_index("Har Gow")] == "Har Gow"
    text = game.new_state(0).observation_string(0)
    assert "hand_sizes: me=10, seat+1=10" in text
