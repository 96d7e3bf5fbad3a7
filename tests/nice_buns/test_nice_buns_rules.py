"""Nice Buns rule tests: one or more per rule and ruling of docs/rules/nice_buns.md.

Positions are built with state_from_dict (see nb_helpers.position: the bag holds whatever is
not placed elsewhere). Seats: 0 is Ben, 1 is Jill where the rulebook's examples name them.
"""

import pytest

from dimsum.reference.rng import Rng
from nb_helpers import act, face, front, legal_names, one_face_dice, position, seat

TERMINAL = -1
KINDS = ("blue", "green", "red", "yellow", "fish head")


def build(engine, options, **kw):
    game = engine("nice_buns", **options)
    return game, game.state_from_dict(position(options, **kw))


def give_position(options, ben, jill, third=None, giver_front=None):
    """Seat 1 holds the large die (a give) and must act; seat 0 and 2 are as given."""
    return dict(
        seats=[seat(**ben), seat(**(giver_front or jill)), seat(**(third or {"front": {"yellow": 1}}))],
        phase="act", roller=1, dice={"small": "draw 1", "medium": "put back", "large": "give"},
        split="small+medium | large", chooser_takes="small+medium", die="large")


# ---------------------------------------------------------------------------------------------
# NB-1 setup

@pytest.mark.parametrize("players", [2, 4, 6])
def test_setup_tray_of_six_without_fish_and_two_non_matching_buns_each(engine, players):
    game = engine("nice_buns", players=players)
    for seed in range(20):
        d = game.new_state(seed).to_dict()
        assert sum(d["tray"].values()) == 6 and "fish head" not in d["tray"]
        for s in d["seats"]:
            held = [k for k, c in s["front"].items() if c]
            assert len(held) == 2 and "fish head" not in held
            assert all(c == 1 for c in s["front"].values() if c)
            assert s["plate"] == [] and s["fish_on"] is None
        assert d["bag"]["fish head"] == 12
        assert sum(d["bag"].values()) == 92 - 6 - 2 * players
        assert d["phase"] == "split" and d["current_player"] == d["roller"] and d["turn"] == 1


def test_setup_start_player_option(engine):
    game = engine("nice_buns", players=5, start_player=3)
    assert all(game.new_state(seed).current_player == 3 for seed in range(10))


def test_setup_consumes_rng_in_documented_order(engine):
    """Start player, tray (colours only), seat by seat two non-matching buns, then the roll."""
    players, seed = 3, 12345
    d = engine("nice_buns", players=players).new_state(seed).to_dict()
    rng = Rng(seed)
    bag = [20, 20, 20, 20]
    roller = rng.bounded(players)
    tray = [0] * 4
    for _ in range(6):
        c = rng.draw_index(bag)
        bag[c] -= 1
        tray[c] += 1
    fronts = []
    for _ in range(players):
        f = [0] * 4
        for _ in range(2):
            c = rng.draw_index([bag[k] if not f[k] else 0 for k in range(4)])
            bag[c] -= 1
            f[c] += 1
        fronts.append(f)
    dice = [rng.bounded(6) for _ in range(3)]
    assert d["roller"] == roller
    assert [d["tray"][k] for k in KINDS[:4]] == tray
    assert [[s["front"][k] for k in KINDS[:4]] for s in d["seats"]] == fronts
    assert [d["dice"][die]["face"] for die in ("small", "medium", "large")] == dice
    assert d["rng"] == rng.state()


# ---------------------------------------------------------------------------------------------
# NB-2 splitting and choosing, NB-3 order, NB-13 play order

def test_split_offers_the_four_partitions_including_3_0(engine):
    _, s = build(engine, {"players": 3}, seats=[seat({"red": 1}), seat({"blue": 1}), seat({"green": 1})])
    assert legal_names(s) == sorted(["split: small+medium+large | none", "split: small+medium | large",
                                     "split: small+large | medium", "split: medium+large | small"])


def test_left_neighbour_chooses_one_of_the_two_groups(engine):
    _, s = build(engine, {"players": 3}, roller=2,
                 seats=[seat({"red": 1}), seat({"blue": 1}), seat({"green": 1})])
    act(s, "split: small+medium+large | none")
    assert s.current_player == 0          # seat 2's left neighbour wraps round to seat 0
    assert legal_names(s) == ["choose group: none", "choose group: small+medium+large"]


def test_two_players_the_other_player_chooses(engine):
    _, s = build(engine, {"players": 2}, roller=1, seats=[seat({"red": 1}), seat({"blue": 1})])
    act(s, "split: medium+large | small")
    assert s.current_player == 0
    assert legal_names(s) == ["choose group: medium+large", "choose group: small"]


def test_ben_and_jill_turn_example(engine):
    """The rulebook's turn example: Ben splits large+small | medium, Jill takes large+small."""
    opts = {"players": 3}
    game, s = build(engine, opts, roller=0,
                    dice={"small": "draw 2", "medium": "take blue/red", "large": "give"},
                    seats=[seat({"green": 1, "yellow": 1}), seat(), seat({"blue": 1})],
                    tray={"red": 1, "blue": 1, "green": 2, "yellow": 2}, rng=(11, 22, 33, 44))
    bag = [s.to_dict()["bag"][k] for k in KINDS]
    act(s, "split: small+large | medium")
    assert s.current_player == 1                     # Jill chooses
    act(s, "choose group: small+large")
    # 1. small die: Jill takes two buns from the bag, one at a time (NB-4)
    rng = Rng.from_state([11, 22, 33, 44])
    drawn = []
    for _ in range(2):
        k = rng.draw_index(bag)
        bag[k] -= 1
        drawn.append(KINDS[k])
    expected = {k: drawn.count(k) for k in set(drawn)}
    assert front(s, 1) == expected
    # 2. medium die: Ben takes a red or a blue bun from the tray
    assert s.current_player == 0
    assert legal_names(s) == ["take blue from tray", "take red from tray"]
    act(s, "take red from tray")
    assert front(s, 0) == {"green": 1, "yellow": 1, "red": 1}
    assert sum(s.to_dict()["tray"].values()) == 6    # refilled at once
    # 3. large die: Jill gives a bun to another player
    assert s.current_player == 1
    act(s, f"give {drawn[0]} to player 2")
    assert front(s, 2).get(drawn[0], 0) == 1 + (drawn[0] == "blue")
    # play moves clockwise: Jill, the chooser, rolls next
    d = s.to_dict()
    assert (d["turn"], d["roller"], d["phase"], d["current_player"]) == (2, 1, "split", 1)


def test_dice_resolve_small_then_medium_then_large_by_their_holders(engine):
    opts = {"players": 3, "dice": one_face_dice(face("take", colours=["red"]), face("take", colours=["blue"]),
                                                face("take", colours=["green"]))}
    _, s = build(engine, opts, roller=0, seats=[seat(), seat(), seat({"yellow": 1})],
                 tray={"red": 2, "blue": 2, "green": 2})
    act(s, "split: small+large | medium")
    act(s, "choose group: medium")          # Jill holds the medium die, Ben small and large
    # every die had one option, so the whole turn resolved itself
    assert front(s, 0) == {"red": 1, "green": 1} and front(s, 1) == {"blue": 1}
    assert s.to_dict()["turn"] == 2


# ---------------------------------------------------------------------------------------------
# NB-4 small die, NB-11 empty bag

def test_small_die_draws_one_bun_at_a_time_from_the_bag_including_fish_heads(engine):
    """Each bun is one rng.draw_index over the bag's five counts; the next roll follows."""
    opts = {"players": 2, "fish_tiebreak": "colour_order",
            "dice": one_face_dice(face("draw", count=1), face("draw", count=1), face("draw", count=1))}
    for seed in range(40):
        words = [seed + 1, 5, 7, 9]
        _, s = build(engine, opts, seats=[seat({"red": 1}), seat()], rng=words)
        bag = [s.to_dict()["bag"][k] for k in KINDS]
        act(s, "split: small+medium+large | none")
        act(s, "choose group: small+medium+large")      # seat 1 draws three buns
        rng = Rng.from_state(words)
        got = [0] * 5
        for _ in range(3):          # three buns can make no set of four: nothing goes back
            k = rng.draw_index(bag)
            bag[k] -= 1
            got[k] += 1
        for _ in range(3):          # the next turn's roll
            rng.bounded(1)
        d = s.to_dict()
        plated = d["seats"][1]["plate"]
        assert [d["seats"][1]["front"][k] + 3 * (k in plated) for k in KINDS] == got
        assert [d["bag"][k] for k in KINDS] == bag
        assert d["rng"] == rng.state()


# ---------------------------------------------------------------------------------------------
# NB-5 medium die

def test_medium_die_only_one_colour_available_must_be_taken(engine):
    opts = {"players": 2, "dice": one_face_dice(face("take", colours=["red", "blue"]), face("put_back"),
                                                face("give"))}
    _, s = build(engine, opts, seats=[seat({"green": 1, "yellow": 1}), seat({"green": 1, "yellow": 1})],
                 tray={"red": 1, "green": 2, "yellow": 3})
    act(s, "split: small+medium+large | none")
    act(s, "choose group: none")                 # the roller (seat 0) holds every die
    assert front(s, 0) == {"green": 1, "yellow": 1, "red": 1}    # taken automatically
    assert s.current_player == 0 and "put back red" in legal_names(s)


def test_medium_die_neither_colour_available_gives_nothing(engine):
    opts = {"players": 2, "dice": one_face_dice(face("take", colours=["red", "blue"]), face("put_back"),
                                                face("give"))}
    _, s = build(engine, opts, seats=[seat({"green": 1, "yellow": 1}), seat({"green": 1})],
                 tray={"green": 3, "yellow": 3})
    act(s, "split: small+medium+large | none")
    act(s, "choose group: none")
    assert front(s, 0) == {"green": 1, "yellow": 1}
    assert legal_names(s) == ["put back green", "put back yellow"]


def test_medium_die_four_colour_face_takes_any_colour_on_the_tray(engine):
    _, s = build(engine, {"players": 2}, seats=[seat({"red": 1}), seat({"blue": 1})], phase="act",
                 dice={"small": "draw 1", "medium": "take any colour"}, split="small+large | medium",
                 chooser_takes="small+large", die="medium", tray={"green": 4, "yellow": 2})
    assert legal_names(s) == ["take green from tray", "take yellow from tray"]


def test_tray_refills_at_once_and_never_holds_a_fish_head(engine):
    _, s = build(engine, {"players": 2}, seats=[seat({"red": 1}), seat({"blue": 1})], phase="act",
                 dice={"small": "draw 1", "medium": "take any colour"}, split="small+large | medium",
                 chooser_takes="small+large", die="medium", tray={"green": 4, "yellow": 2})
    bag_before = s.to_dict()["bag"]
    act(s, "take green from tray")
    d = s.to_dict()
    assert sum(d["tray"].values()) == 6 and set(d["tray"]) == {"blue", "green", "red", "yellow"}
    assert d["bag"]["fish head"] == bag_before["fish head"]
    assert sum(d["bag"].values()) == sum(bag_before.values()) - 1


def test_put_back_may_return_a_fish_head(engine):
    kw = dict(seats=[seat({"red": 1, "fish head": 1}, fish_on="red"), seat({"blue": 1})], phase="act",
              dice={"small": "draw 1", "medium": "put back"}, split="small+large | medium",
              chooser_takes="small+large", die="medium")
    _, s = build(engine, {"players": 2}, **kw)
    assert legal_names(s) == ["put back fish head", "put back red"]
    bag = s.to_dict()["bag"]
    act(s, "put back fish head")
    d = s.to_dict()
    assert d["bag"]["fish head"] == bag["fish head"] + 1 and d["seats"][0]["fish_on"] is None
    # then seat 1's large die (give) had one option: its only bun, to seat 0
    assert front(s, 0) == {"red": 1, "blue": 1}


def test_fish_movable_false_keeps_fish_heads_out_of_put_back(engine):
    kw = dict(seats=[seat({"red": 1, "blue": 1, "fish head": 1}, fish_on="blue"), seat({"blue": 1})],
              phase="act", dice={"small": "draw 1", "medium": "put back"}, split="small+large | medium",
              chooser_takes="small+large", die="medium")
    _, s = build(engine, {"players": 2, "fish_movable": False}, **kw)
    assert legal_names(s) == ["put back blue", "put back red"]


def test_put_back_moves_the_fish_head_to_the_new_largest_set(engine):
    kw = dict(seats=[seat({"red": 2, "blue": 2, "fish head": 1}, fish_on="blue"), seat({"blue": 1})],
              phase="act", dice={"small": "draw 1", "medium": "put back"}, split="small+large | medium",
              chooser_takes="small+large", die="medium")
    _, s = build(engine, {"players": 2}, **kw)
    act(s, "put back blue")
    assert s.to_dict()["seats"][0]["fish_on"] == "red"


# ---------------------------------------------------------------------------------------------
# NB-6 large die

def test_give_is_the_givers_choice_of_bun_and_recipient(engine):
    _, s = build(engine, {"players": 3}, **give_position({"players": 3}, ben={"front": {"red": 1}},
                                                            jill={"front": {"green": 1, "fish head": 1},
                                                                  "fish_on": "green"}))
    assert s.current_player == 1
    assert legal_names(s) == sorted(["give green to seat 0", "give green to seat 2",
                                     "give fish head to seat 0", "give fish head to seat 2"])


def test_steal_targets_only_unplated_buns(engine):
    _, s = build(engine, {"players": 3}, seats=[seat({"red": 1}), seat({"blue": 1}, plate=["green"]),
                                                 seat({"yellow": 2})],
                 phase="act", roller=0, dice={"small": "draw 1", "medium": "put back", "large": "steal"},
                 split="small+medium | large", chooser_takes="small+medium", die="large")
    assert legal_names(s) == ["steal blue from seat 1", "steal yellow from seat 2"]
    act(s, "steal blue from seat 1")
    assert front(s, 0) == {"red": 1, "blue": 1} and front(s, 1) == {}
    assert s.to_dict()["seats"][1]["plate"] == ["green"]


def test_swap_target_has_no_say_and_same_kind_swaps_are_legal(engine):
    _, s = build(engine, {"players": 2}, seats=[seat({"red": 1, "blue": 1}), seat({"red": 1})],
                 phase="act", roller=0, dice={"small": "draw 1", "medium": "put back", "large": "swap"},
                 split="small+medium | large", chooser_takes="small+medium", die="large")
    assert legal_names(s) == ["swap my blue for seat 1's red", "swap my red for seat 1's red"]
    act(s, "swap my blue for seat 1's red")
    assert front(s, 0) == {"red": 2} and front(s, 1) == {"blue": 1}


def test_swap_cascade_runs_for_the_actor_first(engine):
    """Both players complete their third set in one swap: the actor's cascade runs first and wins."""
    _, s = build(engine, {"players": 3},
                 seats=[seat({"blue": 2, "red": 1}, plate=["green", "yellow"]),
                        seat({"red": 2, "blue": 1}, plate=["green", "yellow"]), seat({"green": 1})],
                 tray={"blue": 3, "red": 3}, phase="act", roller=0,
                 dice={"small": "draw 1", "medium": "put back", "large": "swap"},
                 split="small+medium | large", chooser_takes="small+medium", die="large")
    act(s, "swap my red for seat 1's blue")
    assert s.is_terminal and s.current_player == TERMINAL
    assert s.returns() == (1.0, 0.0, 0.0)
    assert s.to_dict()["winner"] == 0


@pytest.mark.parametrize("mandatory", [True, False])
@pytest.mark.parametrize("large", ["give", "steal", "swap"])
def test_the_longest_lists_of_a_die_come_whole_and_in_order(engine, large, mandatory):
    """Six players each holding every kind: the longest give, steal and swap lists there are (25,
    25 and 125 entries, then 'pass' when the dice are optional), in the order of the action ids.
    The core writes a die's options several at a time and one at a time near the end of the
    list's room (kMaxActions, 126): the last entries of the swap list are written that way."""
    options = {"players": 6, "mandatory_dice": mandatory}
    every = {kind: 1 for kind in KINDS}
    _, s = build(engine, options, seats=[seat(every, fish_on="blue") for _ in range(6)], phase="act", roller=0,
                 dice={"small": "draw 1", "medium": "put back", "large": large},
                 split="small+medium | large", chooser_takes="small+medium", die="large")
    legal = list(s.legal_actions())
    assert legal == sorted(set(legal))
    others = range(1, 6)
    expected = {
        "give": [f"give {k} to seat {t}" for k in KINDS for t in others],
        "steal": [f"steal {k} from seat {t}" for k in KINDS for t in others],
        "swap": [f"swap my {k} for seat {t}'s {b}" for k in KINDS for t in others for b in KINDS],
    }[large] + ([] if mandatory else ["pass"])
    assert [s.action_name(a) for a in legal] == expected


def test_mandatory_dice_false_offers_pass(engine):
    kw = dict(seats=[seat({"red": 1, "blue": 1}), seat({"red": 1})], phase="act", roller=0,
              dice={"small": "draw 1", "medium": "put back", "large": "give"},
              split="small+medium | large", chooser_takes="small+medium", die="large")
    _, s = build(engine, {"players": 2, "mandatory_dice": False}, **kw)
    assert legal_names(s) == ["give blue to seat 1", "give red to seat 1", "pass"]
    act(s, "pass")
    assert front(s, 0) == {"red": 1, "blue": 1} and s.to_dict()["turn"] == 2
    _, s = build(engine, {"players": 2}, **kw)
    assert "pass" not in legal_names(s)


# ---------------------------------------------------------------------------------------------
# NB-7 fish heads

def test_fish_head_joins_the_largest_set(engine):
    """Rulebook: Ben has two red and one blue, so the fish head joins the red set."""
    _, s = build(engine, {"players": 3}, **give_position(
        {"players": 3}, ben={"front": {"red": 2, "blue": 1}},
        jill={"front": {"green": 1, "fish head": 1}, "fish_on": "green"}))
    act(s, "give fish head to seat 0")
    d = s.to_dict()
    assert d["seats"][0]["fish_on"] == "red" and d["seats"][0]["front"]["fish head"] == 1
    assert d["seats"][1]["fish_on"] is None


def test_fish_head_stays_on_a_set_still_tied_for_largest(engine):
    """Ben (2 red + fish, 1 blue) collects one blue: 2 and 2, the fish head stays on red."""
    _, s = build(engine, {"players": 3}, **give_position(
        {"players": 3}, ben={"front": {"red": 2, "blue": 1, "fish head": 1}, "fish_on": "red"},
        jill={"front": {"green": 1, "blue": 1}}))
    act(s, "give blue to seat 0")
    assert s.to_dict()["seats"][0]["fish_on"] == "red"
    assert front(s, 0) == {"red": 2, "blue": 2, "fish head": 1}


def test_fish_head_moves_to_the_larger_set_and_makes_it_greedy(engine):
    """Rulebook: after two more blue the fish head moves to the blue set; 3 blue + fish go back."""
    _, s = build(engine, {"players": 3}, **give_position(
        {"players": 3}, ben={"front": {"red": 2, "blue": 2, "fish head": 1}, "fish_on": "red"},
        jill={"front": {"green": 1, "blue": 1}}))
    bag = s.to_dict()["bag"]
    act(s, "give blue to seat 0")
    d = s.to_dict()
    assert front(s, 0) == {"red": 2} and d["seats"][0]["fish_on"] is None
    assert d["bag"]["blue"] == bag["blue"] + 3 and d["bag"]["fish head"] == bag["fish head"] + 1


def test_fish_tiebreak_owner_asks_the_owner(engine):
    _, s = build(engine, {"players": 3}, **give_position(
        {"players": 3}, ben={"front": {"red": 1, "blue": 1}},
        jill={"front": {"green": 1, "fish head": 1}, "fish_on": "green"}))
    act(s, "give fish head to seat 0")
    d = s.to_dict()
    assert d["phase"] == "fish" and s.current_player == 0 and d["cascade"] == [0]
    assert legal_names(s) == ["fish head to blue", "fish head to red"]
    act(s, "fish head to red")
    d = s.to_dict()
    assert d["seats"][0]["fish_on"] == "red" and d["turn"] == 2 and d["phase"] == "split"


def test_fish_tiebreak_colour_order_picks_the_first_tied_colour(engine):
    opts = {"players": 3, "fish_tiebreak": "colour_order"}
    _, s = build(engine, opts, **give_position(
        opts, ben={"front": {"red": 1, "yellow": 1}},
        jill={"front": {"green": 1, "fish head": 1}, "fish_on": "green"}))
    act(s, "give fish head to seat 0")
    assert s.to_dict()["seats"][0]["fish_on"] == "red" and s.to_dict()["phase"] == "split"


def test_fish_heads_alone_form_a_set_of_their_own(engine):
    _, s = build(engine, {"players": 3}, **give_position(
        {"players": 3}, ben={"front": {"fish head": 3}},
        jill={"front": {"green": 1, "fish head": 1}, "fish_on": "green"}))
    bag = s.to_dict()["bag"]
    act(s, "give fish head to seat 0")
    assert front(s, 0) == {} and s.to_dict()["bag"]["fish head"] == bag["fish head"] + 4


# ---------------------------------------------------------------------------------------------
# NB-8 don't be greedy, NB-9 no doubles, plating, winning

def test_greedy_set_of_four_goes_back_blue(engine):
    """Rulebook: two blue + a fish head is a set of three; another blue makes four: all go back."""
    _, s = build(engine, {"players": 3}, **give_position(
        {"players": 3}, ben={"front": {"blue": 2, "green": 1, "fish head": 1}, "fish_on": "blue"},
        jill={"front": {"blue": 1, "yellow": 1}}))
    bag = s.to_dict()["bag"]
    act(s, "give blue to seat 0")
    d = s.to_dict()
    assert front(s, 0) == {"green": 1}
    assert d["bag"]["blue"] == bag["blue"] + 3 and d["bag"]["fish head"] == bag["fish head"] + 1


def test_greedy_set_of_four_goes_back_fish_head(engine):
    """... OR another fish head: two fish heads on two blue is a set of four."""
    _, s = build(engine, {"players": 3}, **give_position(
        {"players": 3}, ben={"front": {"blue": 2, "green": 1, "fish head": 1}, "fish_on": "blue"},
        jill={"front": {"yellow": 1, "fish head": 1}, "fish_on": "yellow"}))
    bag = s.to_dict()["bag"]
    act(s, "give fish head to seat 0")
    d = s.to_dict()
    assert front(s, 0) == {"green": 1}
    assert d["bag"]["blue"] == bag["blue"] + 2 and d["bag"]["fish head"] == bag["fish head"] + 2


def test_no_doubles_second_red_set_goes_straight_back(engine):
    _, s = build(engine, {"players": 3}, **give_position(
        {"players": 3}, ben={"front": {"red": 2, "blue": 1}, "plate": ["red"]},
        jill={"front": {"red": 1, "yellow": 1}}))
    bag = s.to_dict()["bag"]
    act(s, "give red to seat 0")
    d = s.to_dict()
    assert front(s, 0) == {"blue": 1} and d["seats"][0]["plate"] == ["red"]
    assert d["bag"]["red"] == bag["red"] + 3


def test_automatic_plating_of_a_complete_set(engine):
    _, s = build(engine, {"players": 3}, **give_position(
        {"players": 3}, ben={"front": {"red": 2, "blue": 1}}, jill={"front": {"red": 1, "yellow": 1}}))
    act(s, "give red to seat 0")
    assert s.to_dict()["seats"][0]["plate"] == ["red"] and front(s, 0) == {"blue": 1}


def test_a_fish_head_blocks_plating(engine):
    """A third red while a fish head is held: the fish moves to red, four go back, nothing plated."""
    _, s = build(engine, {"players": 3}, **give_position(
        {"players": 3}, ben={"front": {"red": 2, "blue": 2, "fish head": 1}, "fish_on": "blue"},
        jill={"front": {"red": 1, "yellow": 1}}))
    act(s, "give red to seat 0")
    assert s.to_dict()["seats"][0]["plate"] == [] and front(s, 0) == {"blue": 2}


def test_manual_plating_asks_the_owner(engine):
    opts = {"players": 3, "manual_plating": True}
    kw = give_position(opts, ben={"front": {"red": 2, "blue": 1}}, jill={"front": {"red": 1, "yellow": 1}})
    _, s = build(engine, opts, **kw)
    act(s, "give red to seat 0")
    assert s.to_dict()["phase"] == "plate" and s.current_player == 0
    assert legal_names(s) == ["keep buns unplated", "plate red"]
    act(s, "keep buns unplated")
    assert front(s, 0) == {"red": 3, "blue": 1} and s.to_dict()["phase"] == "split"
    _, s = build(engine, opts, **kw)
    act(s, "give red to seat 0")
    act(s, "plate red")
    assert s.to_dict()["seats"][0]["plate"] == ["red"] and front(s, 0) == {"blue": 1}


def test_win_at_once_even_off_turn_and_remaining_dice_ignored(engine):
    opts = {"players": 3, "dice": one_face_dice(face("draw", count=1), face("give"), face("steal"))}
    _, s = build(engine, opts, seats=[seat({"green": 1}), seat({"red": 1, "yellow": 1}),
                                      seat({"red": 2}, plate=["blue", "green"])],
                 phase="act", roller=1, split="small+large | medium", chooser_takes="small+large",
                 die="medium", tray={"blue": 2, "yellow": 4})
    act(s, "give red to seat 2")
    d = s.to_dict()
    assert s.is_terminal and d["winner"] == 2 and d["phase"] == "over"
    assert s.returns() == (0.0, 0.0, 1.0)
    assert s.legal_actions() == []
    assert front(s, 1) == {"yellow": 1}          # the large die (steal) never acted


def test_turn_cap_ends_the_game_as_a_draw(engine):
    game = engine("nice_buns", players=3, max_turns=2)
    for seed in range(10):
        s = game.new_state(seed)
        rng = Rng(seed)
        while not s.is_terminal:
            la = s.legal_actions()
            s.apply(la[rng.bounded(len(la))])
        d = s.to_dict()
        assert d["turn"] <= 2
        if d["winner"] is None:
            assert d["turn"] == 2 and s.returns() == (0.0, 0.0, 0.0)


# ---------------------------------------------------------------------------------------------
# NB-10 the tray when the bag has no coloured buns

def _no_colour_in_bag_seats():
    """Six players; every coloured bun is plated, in front of someone or on the tray."""
    plates = [["blue", "green"], ["red", "yellow"], ["blue", "green"], ["red", "yellow"], ["blue", "red"],
              ["green", "yellow"]]
    fronts = [{"blue": 2, "green": 2, "red": 2, "yellow": 2}] * 4 + [
        {"blue": 1, "green": 1, "red": 1, "yellow": 1}, {"red": 1, "yellow": 1}]
    return [seat(dict(f), plate=p) for f, p in zip(fronts, plates)]


def test_tray_stays_short_when_the_bag_has_no_coloured_buns(engine):
    _, s = build(engine, {"players": 6}, seats=_no_colour_in_bag_seats(), phase="act", roller=4,
                 dice={"small": "draw 1", "medium": "take any colour", "large": "give"},
                 split="small+large | medium", chooser_takes="small+large", die="medium",
                 tray={"blue": 2, "green": 2, "red": 1, "yellow": 1})
    assert s.to_dict()["bag"] == {"blue": 0, "green": 0, "red": 0, "yellow": 0, "fish head": 12}
    act(s, "take green from tray")
    d = s.to_dict()
    assert sum(d["tray"].values()) == 5 and d["current_player"] == 5


def test_tray_tops_up_when_buns_go_back_to_the_bag(engine):
    _, s = build(engine, {"players": 6}, seats=_no_colour_in_bag_seats(), phase="act", roller=0,
                 dice={"small": "draw 1", "medium": "take any colour", "large": "give"},
                 split="small+large | medium", chooser_takes="small+large", die="medium",
                 tray={"blue": 2, "green": 2, "red": 1, "yellow": 1})
    act(s, "take blue from tray")           # a second blue set: back to the bag, then the tray refills
    d = s.to_dict()
    assert d["tray"] == {"blue": 2, "green": 2, "red": 1, "yellow": 1}
    assert d["bag"]["blue"] == 2 and front(s, 0).get("blue", 0) == 0
