"""Nice Buns in explicit chance mode (chance="explicit"): every random event is a chance node.

Each rule test is named after the event it checks (docs/rules/nice_buns.md, "Chance nodes"); the
outcomes and probabilities are written out by hand from the position. Outcome ids: 0-4 a bun of
kind blue, green, red, yellow, fish head; then each die's faces, small, medium, large (5 + 6d + f
with the default six-faced dice); then "seat N starts" (23 + N with the default dice).
"""

from fractions import Fraction

import pytest

import dimsum
import dimsum.reference
from dimsum import CHANCE, IllegalActionError
from dimsum.games import nice_buns as spec
from dimsum.reference.rng import Rng
from nb_helpers import act, face, one_face_dice, position, seat

EXPLICIT = {"chance": "explicit"}
BLUE, GREEN, RED, YELLOW, FISH = range(5)


def explicit(engine, **options):
    return engine("nice_buns", chance="explicit", **options)


def build(engine, options, **kw):
    game = explicit(engine, **options)
    return game, game.state_from_dict(position({**options, **EXPLICIT}, **kw))


def outcomes(s):
    """{outcome name: probability} at a chance node."""
    return {s.action_name(o): p for o, p in s.chance_outcomes(exact=True)}


def chance(s, name):
    assert s.is_chance_node and s.current_player == CHANCE
    s.apply(s.parse_action(name))


def bag(s):
    return s.to_dict()["bag"]


# ---------------------------------------------------------------------------------------------
# NB-1 set-up: the start player, the tray, the starting buns, then the first roll

def test_nb1_start_player_one_outcome_per_seat(engine):
    s = explicit(engine, players=5).new_state(0)
    d = s.to_dict()
    assert s.is_chance_node and s.current_player == CHANCE and d["current_player"] == CHANCE
    assert d["phase"] == "start_player" and d["roller"] is None
    assert s.chance_outcomes(exact=True) == [(23 + p, Fraction(1, 5)) for p in range(5)]
    assert s.legal_actions() == [23, 24, 25, 26, 27]
    assert outcomes(s) == {f"seat {p} starts": Fraction(1, 5) for p in range(5)}
    chance(s, "seat 3 starts")
    d = s.to_dict()
    assert d["roller"] == 3 and d["phase"] == "tray" and s.is_chance_node


def test_nb1_a_fixed_start_player_skips_the_start_player_event(engine):
    s = explicit(engine, players=3, start_player=2).new_state(0)
    assert s.to_dict()["phase"] == "tray" and s.to_dict()["roller"] == 2


def test_nb10_setup_tray_six_single_draws_over_the_colour_counts(engine):
    s = explicit(engine, players=2, start_player=0).new_state(0)
    # 20 of each colour, the fish heads never drawn for the tray
    assert outcomes(s) == {"draw blue": Fraction(1, 4), "draw green": Fraction(1, 4), "draw red": Fraction(1, 4),
                           "draw yellow": Fraction(1, 4)}
    chance(s, "draw blue")
    chance(s, "draw green")
    assert outcomes(s) == {"draw blue": Fraction(19, 78), "draw green": Fraction(19, 78),
                           "draw red": Fraction(20, 78), "draw yellow": Fraction(20, 78)}
    for _ in range(3):
        chance(s, "draw red")
    assert s.to_dict()["phase"] == "tray"                     # the sixth bun is its own node
    assert outcomes(s) == {"draw blue": Fraction(19, 75), "draw green": Fraction(19, 75),
                           "draw red": Fraction(17, 75), "draw yellow": Fraction(20, 75)}
    chance(s, "draw yellow")
    d = s.to_dict()
    assert d["tray"] == {"blue": 1, "green": 1, "red": 3, "yellow": 1} and d["phase"] == "starting_bun"
    assert d["bag"] == {"blue": 19, "green": 19, "red": 17, "yellow": 19, "fish head": 12}


def test_nb1_starting_buns_seat_by_seat_non_matching_one_node_each(engine):
    s = explicit(engine, players=3, start_player=1).new_state(0)
    for colour in ("blue", "blue", "green", "green", "red", "yellow"):   # the tray
        chance(s, f"draw {colour}")
    # bag: blue 18, green 18, red 19, yellow 19; seat 0's first bun
    assert s.to_dict()["phase"] == "starting_bun"
    assert outcomes(s) == {"draw blue": Fraction(18, 74), "draw green": Fraction(18, 74),
                           "draw red": Fraction(19, 74), "draw yellow": Fraction(19, 74)}
    chance(s, "draw red")
    # seat 0's second bun must not be red: the held colour counts as 0
    assert outcomes(s) == {"draw blue": Fraction(18, 55), "draw green": Fraction(18, 55),
                           "draw yellow": Fraction(19, 55)}
    assert s.parse_action("draw red") not in s.legal_actions()
    chance(s, "draw yellow")
    seats = s.to_dict()["seats"]
    assert seats[0]["front"]["red"] == seats[0]["front"]["yellow"] == 1
    assert sum(seats[1]["front"].values()) == 0
    # seat 1's first bun: every colour again, from the bag as it is now
    assert outcomes(s) == {"draw blue": Fraction(18, 72), "draw green": Fraction(18, 72),
                           "draw red": Fraction(18, 72), "draw yellow": Fraction(18, 72)}
    for colour in ("blue", "green", "blue", "green"):                   # seats 1 and 2
        chance(s, f"draw {colour}")
    d = s.to_dict()
    assert [sum(x["front"].values()) for x in d["seats"]] == [2, 2, 2]
    assert d["phase"] == "roll" and d["die"] == "small" and s.is_chance_node


def test_nb3_roll_is_three_nodes_small_medium_large_one_outcome_per_face(engine):
    s = explicit(engine, players=2, start_player=1).new_state(0)
    while s.to_dict()["phase"] != "roll":
        s.apply(s.legal_actions()[0])
    for d, die in enumerate(spec.DICE):
        assert s.to_dict()["phase"] == "roll" and s.to_dict()["die"] == die
        faces = s.game.spec.dice[d]
        assert s.chance_outcomes(exact=True) == [(5 + 6 * d + f, Fraction(1, 6)) for f in range(6)]
        assert [s.action_name(o) for o in s.legal_actions()] == [
            f"{die} die: {f.name} (face {i})" for i, f in enumerate(faces)]
        s.apply(5 + 6 * d + (3 if d == 0 else 1))
    d = s.to_dict()
    assert d["phase"] == "split" and d["die"] == "small" and not s.is_chance_node
    assert s.current_player == d["roller"] == 1                       # the roller splits
    assert {die: d["dice"][die]["face"] for die in spec.DICE} == {"small": 3, "medium": 1, "large": 1}
    assert d["dice"]["small"]["shows"] == "draw 2" and d["dice"]["medium"]["shows"] == "take any colour"


def test_nb3_each_turn_starts_with_a_roll_node_after_the_last_die(engine):
    opts = {"players": 2, "dice": one_face_dice(face("put_back"), face("put_back"), face("put_back"))}
    _, s = build(engine, opts, seats=[seat({"red": 1}), seat({"blue": 1})], roller=0)
    act(s, "split: small+medium+large | none")
    act(s, "choose group: none")           # seat 0 holds all three: one bun, then nothing to put back
    d = s.to_dict()
    assert d["phase"] == "roll" and d["turn"] == 2 and d["roller"] == 1 and d["die"] == "small"
    assert outcomes(s) == {"small die: put back (face 0)": 1}
    for die in ("small", "medium", "large"):
        chance(s, f"{die} die: put back (face 0)")
    assert s.current_player == 1 and s.to_dict()["phase"] == "split"


# ---------------------------------------------------------------------------------------------
# NB-4 a draw face: each bun one node over the bag's five counts

DRAW2 = {"players": 2, "fish_tiebreak": "colour_order",
         "dice": one_face_dice(face("draw", count=2), face("put_back"), face("give"))}


def test_nb4_draw_die_each_bun_one_node_over_the_bag_fish_heads_included(engine):
    _, s = build(engine, DRAW2, seats=[seat({"red": 1}), seat({"blue": 1})], roller=0)
    act(s, "split: small+medium+large | none")
    act(s, "choose group: small+medium+large")              # seat 1 holds every die
    d = s.to_dict()
    assert d["phase"] == "draw" and d["die"] == "small" and d["draws_left"] == 2
    # bag: blue 20-2-1, green 20-2, red 20-1-1, yellow 20-1, fish heads 12: 84 buns
    assert outcomes(s) == {"draw blue": Fraction(17, 84), "draw green": Fraction(18, 84),
                           "draw red": Fraction(18, 84), "draw yellow": Fraction(19, 84),
                           "draw fish head": Fraction(12, 84)}
    chance(s, "draw fish head")
    d = s.to_dict()
    assert d["seats"][1]["front"]["fish head"] == 1 and d["seats"][1]["fish_on"] == "blue"   # the cascade ran
    assert d["phase"] == "draw" and d["draws_left"] == 1
    assert outcomes(s)["draw fish head"] == Fraction(11, 83)
    chance(s, "draw blue")
    d = s.to_dict()
    assert d["seats"][1]["front"] == {"blue": 2, "green": 0, "red": 0, "yellow": 0, "fish head": 1}
    # the medium die (put back) is seat 1's decision: blue or the fish head
    assert d["phase"] == "act" and d["die"] == "medium" and s.current_player == 1


# ---------------------------------------------------------------------------------------------
# NB-10 the tray tops up one node per bun: after a take, after buns go back to the bag

TAKE = {"players": 3, "dice": one_face_dice(face("put_back"), face("take", colours=["red", "blue"]), face("give"))}


def test_nb10_take_then_one_tray_node_before_the_takers_cascade(engine):
    _, s = build(engine, TAKE, seats=[seat({"green": 1}), seat({"yellow": 1}), seat({"yellow": 1})], phase="act",
                 roller=0, split="small+medium | large", chooser_takes="small+medium", die="medium")
    assert s.current_player == 1
    act(s, "take red from tray")
    d = s.to_dict()
    assert d["phase"] == "tray" and d["cascade"] == [1] and d["die"] == "large"
    assert d["tray"] == {"blue": 2, "green": 2, "red": 0, "yellow": 1}
    # bag: blue 20-2, green 20-2-1, red 20-1, yellow 20-1-2; never a fish head
    assert outcomes(s) == {"draw blue": Fraction(18, 71), "draw green": Fraction(17, 71),
                           "draw red": Fraction(19, 71), "draw yellow": Fraction(17, 71)}
    chance(s, "draw red")
    d = s.to_dict()
    assert d["tray"] == {"blue": 2, "green": 2, "red": 1, "yellow": 1} and d["cascade"] == []
    assert d["phase"] == "act" and s.current_player == 0         # the large die: seat 0 gives green


def test_nb10_put_back_into_an_empty_bag_tops_up_the_short_tray(engine):
    options = {"players": 6, "dice": one_face_dice(face("put_back"), face("give"), face("give"))}
    _, s = build(engine, options, seats=_no_colour_in_bag_seats(yellow_off_tray=1), phase="act", roller=5,
                 split="small+medium+large | none", chooser_takes="none", die="small",
                 tray={"blue": 2, "green": 2, "red": 1, "yellow": 0})
    assert sum(bag(s).values()) == bag(s)["fish head"] and s.current_player == 5
    act(s, "put back yellow")
    assert s.to_dict()["phase"] == "tray"
    assert outcomes(s) == {"draw yellow": 1}                      # the one coloured bun in the bag
    chance(s, "draw yellow")
    assert s.to_dict()["tray"]["yellow"] == 1 and not s.is_chance_node


def _no_colour_in_bag_seats(yellow_off_tray=0):
    """Six players; every coloured bun is plated, in front of someone or on the tray."""
    plates = [["blue", "green"], ["red", "yellow"], ["blue", "green"], ["red", "yellow"], ["blue", "red"],
              ["green", "yellow"]]
    fronts = [{"blue": 2, "green": 2, "red": 2, "yellow": 2}] * 4 + [
        {"blue": 1, "green": 1, "red": 1, "yellow": 1}, {"red": 1, "yellow": 1 + yellow_off_tray}]
    return [seat(dict(f), plate=p) for f, p in zip(fronts, plates)]


def test_nb10_buns_back_to_the_bag_inside_a_cascade_stop_it_for_the_tray(engine):
    """No doubles sends three blue back; the short tray tops up (a node); the cascade goes on."""
    options = {"players": 6, "dice": one_face_dice(face("draw", count=1), face("take", colours=["blue", "green",
                                                                                                 "red", "yellow"]),
                                                   face("give"))}
    _, s = build(engine, options, seats=_no_colour_in_bag_seats(), phase="act", roller=0,
                 split="small+large | medium", chooser_takes="small+large", die="medium",
                 tray={"blue": 2, "green": 2, "red": 1, "yellow": 1})
    act(s, "take blue from tray")          # a second blue set for seat 0, whose blue is plated
    d = s.to_dict()
    assert d["phase"] == "tray" and d["cascade"] == [0]
    assert d["seats"][0]["front"]["blue"] == 0 and d["bag"]["blue"] == 3
    assert outcomes(s) == {"draw blue": 1}
    chance(s, "draw blue")
    d = s.to_dict()
    assert d["tray"] == {"blue": 2, "green": 2, "red": 1, "yellow": 1} and d["bag"]["blue"] == 2
    assert d["cascade"] == [] and d["phase"] == "act" and s.current_player == 1   # seat 1 gives


# ---------------------------------------------------------------------------------------------
# Explicit mode is the sampled game: chance drawing from the seed's generator replays it exactly

def _replay(options, seed):
    sampled = dimsum.make("nice_buns", **options).new_state(seed)
    core = dimsum.make("nice_buns", chance="explicit", **options).new_state(0)
    ref = dimsum.reference.make("nice_buns", chance="explicit", **options).new_state(0)
    draws, policy = Rng(seed), Rng(seed ^ 0xBEEF)
    nodes = 0
    while True:
        while ref.is_chance_node:
            weighted = ref._chance_outcomes()      # the exact weights, as the core's
            o = weighted[draws.draw_index([w for _, w in weighted])][0]
            core.apply(o)
            ref.apply(o)
            nodes += 1
        assert core.to_dict() == ref.to_dict()
        want, got = sampled.to_dict(), core.to_dict()
        want.pop("rng"), got.pop("rng")
        assert got == want
        if sampled.is_terminal:
            break
        legal = sampled.legal_actions()
        a = legal[policy.bounded(len(legal))]
        for s in (sampled, core, ref):
            s.apply(a)
    # the same random numbers, no more and no fewer, in the same order
    assert sampled.to_dict()["rng"] == draws.state()
    return nodes


@pytest.mark.parametrize("options", [
    {"players": 4},
    {"players": 6, "manual_plating": True, "mandatory_dice": False},
    {"players": 2, "start_player": 1, "fish_tiebreak": "colour_order", "fish_movable": False},
])
def test_explicit_chance_drawn_from_the_seed_replays_the_sampled_game(options):
    assert sum(_replay(options, seed) for seed in range(12)) > 0


# ---------------------------------------------------------------------------------------------
# Bad input at chance nodes: refused, the state unchanged

def _tray_node(engine):
    _, s = build(engine, TAKE, seats=[seat({"green": 1}), seat({"yellow": 1}), seat({"yellow": 1})], phase="act",
                 roller=0, split="small+medium | large", chooser_takes="small+medium", die="medium")
    act(s, "take red from tray")
    assert s.to_dict()["phase"] == "tray"
    return s


def test_bad_input_at_a_chance_node_leaves_the_state_unchanged(engine):
    s = _tray_node(engine)
    before = s.to_dict()
    cfg = s.game.spec
    for a in (FISH, 5, 23, cfg.PASS, cfg.KEEP):      # fish head (never on the tray), a face, a seat, actions
        with pytest.raises(IllegalActionError):
            s.apply(a)
    for a in (-1, cfg.PASS + 1, 10 ** 6):
        with pytest.raises(ValueError):
            s.apply(a)
    for a in ("draw red", 1.0, True, None, [2]):
        with pytest.raises(TypeError):
            s.apply(a)
    with pytest.raises(ValueError):
        s.parse_action("take red from tray")         # a player's action is not an outcome's name
    assert s.to_dict() == before and s.is_chance_node


def test_bad_input_at_a_chance_node_keeps_the_cores_bytes():
    s = _tray_node(lambda name, **o: dimsum.make(name, **o))
    before = s.to_bytes()
    for a in (FISH, 5, s.game.spec.PASS, -1, "draw red", 2.0):
        with pytest.raises((IllegalActionError, ValueError, TypeError)):
            s.apply(a)
        assert s.to_bytes() == before
    assert not s.is_legal(FISH) and s.is_legal(RED)


# ---------------------------------------------------------------------------------------------
# The position at a chance node: the dict, validation, observation, resample

def test_chance_phases_are_refused_in_a_sampled_game(engine):
    game = engine("nice_buns", players=3)
    d = position({"players": 3}, seats=[seat(), seat(), seat()], phase="roll")
    with pytest.raises(ValueError, match="phase"):
        game.state_from_dict(d)


@pytest.mark.parametrize("change,field", [
    (dict(phase="tray"), "tray"),                                                # the tray is full
    (dict(phase="roll", die="medium", dice={"large": "swap"}), "dice"),          # the large die not rolled yet
    (dict(roller=None), "roller"),                                               # only before the start player
    (dict(phase="draw", split="small+medium | large", chooser_takes="small+medium", die="medium"),
     "draws_left"),                                                              # not at a draw die
    (dict(phase="starting_bun", turn=2), "turn"),                                # the set-up is turn 1
    (dict(phase="start_player", seats=[seat(), seat(), seat()]), "roller"),      # the start player is known
])
def test_inconsistent_chance_nodes_are_refused(engine, change, field):
    game = explicit(engine, players=3)
    kw = dict(seats=[seat({"red": 1}), seat(), seat()], phase="split")
    kw.update(change)
    with pytest.raises(ValueError, match=field):
        game.state_from_dict(position({"players": 3, **EXPLICIT}, **kw))


def test_current_player_is_derived_at_a_chance_node_and_checked(engine):
    game = explicit(engine, players=3)
    d = position({"players": 3, **EXPLICIT}, seats=[seat(), seat(), seat()], phase="roll", die="medium")
    assert game.state_from_dict(d).current_player == CHANCE
    with pytest.raises(ValueError, match="current_player"):
        game.state_from_dict({**d, "current_player": 0})
    assert game.state_from_dict({**d, "current_player": CHANCE}).to_dict()["phase"] == "roll"


def test_observation_at_a_chance_node_shows_no_player_to_act_and_no_phase():
    game = dimsum.make("nice_buns", players=4, chance="explicit")
    s = game.new_state(1)
    lo, hi = game.observation_bounds
    layout = {sl.name: sl for sl in game.observation_layout}
    nodes = 0
    while s.is_chance_node:               # start player, tray, starting buns, roll: 1 + 6 + 8 + 3
        nodes += 1
        for p in range(4):
            obs = s.observation(p)
            assert ((obs >= lo) & (obs <= hi)).all()
            for name in ("current_player", "phase") + (("roller",) if s.to_dict()["roller"] is None else ()):
                assert not obs[layout[name].start:layout[name].stop].any()
        s.apply(s.legal_actions()[0])
    assert nodes == 18 and s.observation(0)[layout["current_player"].start + s.current_player] == 1


def test_resample_and_clone_keep_the_chance_node(engine):
    s = _tray_node(engine)
    for copy in (s.resample(2, 77), s.clone(seed=5)):
        assert copy.is_chance_node and copy.chance_outcomes(exact=True) == s.chance_outcomes(exact=True)
        a, b = copy.to_dict(), s.to_dict()
        assert a.pop("rng") != b.pop("rng") and a == b


def test_the_core_keeps_its_hash_and_invariants_through_chance_nodes():
    game = dimsum.make("nice_buns", players=5, chance="explicit", manual_plating=True)
    policy = Rng(8)
    for seed in range(3):
        s = game.new_state(seed)
        steps = 0
        while not s.is_terminal:
            s.check()                      # validate() and the hash recomputed from scratch
            legal = s.legal_actions()
            s.apply(legal[policy.bounded(len(legal))])
            steps += 1
        s.check()
        assert steps <= game.max_game_length


def test_max_game_length_counts_the_chance_nodes():
    # sampled: max_turns * (2 + (1 + 8*3) + (1 + 8*2) + (1 + 8*2)) = 61 a turn
    assert dimsum.make("nice_buns").max_game_length == 61_000
    # explicit adds the set-up (1 + 6 + 4 * 2) and per turn 3 rolls + 3 draws + 1 top-up + 1 (large die)
    assert dimsum.make("nice_buns", chance="explicit").max_game_length == 61_000 + 15 + 1000 * 8
    assert dimsum.reference.make("nice_buns", chance="explicit").max_game_length == 69_015


def test_chance_space_is_the_same_in_both_modes_and_names_are_unique():
    for players in (2, 6):
        a = dimsum.make("nice_buns", players=players)
        b = dimsum.make("nice_buns", players=players, chance="explicit")
        assert a.num_chance_outcomes == b.num_chance_outcomes == 5 + 18 + players
        names = [b.chance_outcome_name(o) for o in range(b.num_chance_outcomes)]
        assert names[:5] == ["draw blue", "draw green", "draw red", "draw yellow", "draw fish head"]
        assert names[5] == "small die: draw 1 (face 0)" and names[-1] == f"seat {players - 1} starts"
        assert len(set(names)) == len(names)
    custom = dimsum.make("nice_buns", dice=one_face_dice(face("give"), face("steal"), face("swap")))
    assert [custom.chance_outcome_name(o) for o in range(5, 8)] == [
        "small die: give (face 0)", "medium die: steal (face 0)", "large die: swap (face 0)"]
    assert custom.chance_outcome_name(8) == "seat 0 starts"


# ---------------------------------------------------------------------------------------------
# The package: ending (state.outcome) and observation_labels

def _play_out(game, seed):
    s = game.new_state(seed)
    policy = Rng(seed)
    while not s.is_terminal:
        legal = s.legal_actions()
        s.apply(legal[policy.bounded(len(legal))])
    return s


@pytest.mark.parametrize("mode", ["sampled", "explicit"])
def test_ending_plated_names_the_winner(mode):
    game = dimsum.make("nice_buns", players=3, chance=mode)
    ref = dimsum.reference.make("nice_buns", players=3, chance=mode)
    s = _play_out(game, 4)
    winner = s.to_dict()["winner"]
    assert winner is not None
    out = s.outcome
    assert out.reason == "plated" and out.winners == (winner,) and out.returns[winner] == 1.0
    assert out.description.startswith(f"Seat {winner} plated 3 sets (") and "wins" in out.description
    assert spec.ending(ref.spec, _play_out(ref, 4).fields()) == (out.reason, out.description, out.winners)


def test_ending_turn_cap_is_a_draw_without_winners():
    s = _play_out(dimsum.make("nice_buns", players=2, max_turns=1), 0)
    out = s.outcome
    assert out.reason == "turn_cap" and out.winners == () and out.returns == (0.0, 0.0)
    assert "1-turn cap" in out.description and "draw" in out.description


@pytest.mark.parametrize("players", [2, 3, 6])
def test_observation_labels_name_every_entry_of_their_slices(players):
    game = dimsum.make("nice_buns", players=players)
    labels = spec.observation_labels(game.spec)
    sizes = {sl.name: sl.stop - sl.start for sl in game.observation_layout}
    assert set(labels) <= set(sizes)
    for name, names in labels.items():
        assert len(names) == sizes[name], name
        assert len(set(names)) == len(names), name
    text = game.new_state(3).observation_string(0)
    assert "observer: seat 0" in text and "fish head=12" in text
