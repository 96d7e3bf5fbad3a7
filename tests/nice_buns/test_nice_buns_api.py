"""Nice Buns: options, data, action space, dict validation, observation, resample, random play."""

import json
from importlib import resources

import pytest

import dimsum
from dimsum import IllegalActionError
from dimsum.games import nice_buns as spec
from dimsum.reference.rng import Rng
from nb_helpers import face, one_face_dice, position, seat

KINDS = spec.KINDS


# ---------------------------------------------------------------------------------------------
# Options

def test_options_have_the_research_defaults(engine):
    opts = engine("nice_buns").options
    assert opts["players"] == 4 and opts["fish_tiebreak"] == "owner" and opts["manual_plating"] is False
    assert opts["mandatory_dice"] is True and opts["fish_movable"] is True
    assert opts["start_player"] is None and opts["max_turns"] == 1000 and opts["dice"] is None


def test_unknown_option_is_refused_with_the_known_ones(engine):
    with pytest.raises(ValueError, match="fish_tiebreak"):
        engine("nice_buns", fish_tie="owner")


@pytest.mark.parametrize("options, error, match", [
    ({"players": 7}, ValueError, "players"),
    ({"players": 1}, ValueError, "players"),
    ({"players": "3"}, TypeError, "players"),
    ({"fish_tiebreak": "random"}, ValueError, "fish_tiebreak"),
    ({"manual_plating": 1}, TypeError, "manual_plating"),
    ({"mandatory_dice": "yes"}, TypeError, "mandatory_dice"),
    ({"players": 3, "start_player": 3}, ValueError, "start_player"),
    ({"max_turns": 0}, ValueError, "max_turns"),
    ({"dice": [1, 2]}, TypeError, "dice"),
])
def test_bad_option_values_name_the_option(engine, options, error, match):
    with pytest.raises(error, match=match):
        engine("nice_buns", **options)


# ---------------------------------------------------------------------------------------------
# Data

def test_packaged_data_has_provenance_on_every_component():
    data = json.loads(resources.files("dimsum.data").joinpath("nice_buns.json").read_text())
    entries = data["colours"] + [data[k] for k in ("fish_heads", "plates", "serving_tray", "starting_buns", "sets")]
    for die in spec.DICE:
        entries.append(data["dice"][die])
        entries += data["dice"][die]["faces"]
    for e in entries:
        assert e["provenance"] in ("rulebook", "source", "inferred", "default") and e["source"]
    assert [c["count"] for c in data["colours"]] == [20, 20, 20, 20] and data["fish_heads"]["count"] == 12


def test_default_dice_are_the_research_defaults():
    cfg = spec.make_config()
    assert [f.name for f in cfg.dice[0]] == ["draw 1", "draw 1", "draw 2", "draw 2", "draw 3", "draw 3"]
    assert [f.name for f in cfg.dice[1]] == ["put back", "take any colour", "take blue/red", "take blue/green",
                                             "take green/yellow", "take red/yellow"]
    assert [f.name for f in cfg.dice[2]] == ["give", "give", "steal", "steal", "swap", "swap"]


def test_dice_override_replaces_only_the_dice_given(engine):
    medium = {"provenance": "default", "faces": [face("take", colours=["red"]), face("put_back")]}
    game = engine("nice_buns", dice={"medium": medium})
    cfg = spec.make_config(dice={"medium": medium})
    assert [f.name for f in cfg.dice[1]] == ["take red", "put back"]
    assert len(cfg.dice[0]) == 6
    d = game.new_state(3).to_dict()
    assert d["dice"]["medium"]["shows"] in ("take red", "put back")


@pytest.mark.parametrize("dice, match", [
    ({"huge": {"provenance": "default", "faces": [face("give")]}}, "unknown die"),
    ({"small": {"provenance": "default", "faces": [face("explode")]}}, "'action' must be one of"),
    ({"small": {"provenance": "default", "faces": [face("take", colours=["purple"])]}}, "unknown colour"),
    ({"small": {"provenance": "default", "faces": [face("take", colours=["red", "red"])]}}, "appears twice"),
    ({"small": {"provenance": "default", "faces": [face("take", colours=[])]}}, "colours"),
    ({"small": {"provenance": "default", "faces": [face("draw", count=0)]}}, "count"),
    ({"small": {"provenance": "default", "faces": [face("draw", count=7)]}}, "count"),
    ({"small": {"provenance": "default", "faces": [face("give", count=1)]}}, "only a 'draw' face"),
    ({"small": {"provenance": "default", "faces": [{"action": "give"}]}}, "provenance"),
    ({"small": {"provenance": "default", "faces": [face("give", colour="red")]}}, "unknown key"),
    ({"small": {"provenance": "default", "faces": []}}, "faces"),
    ({"small": {"provenance": "default", "faces": [face("give")] * 13}}, "faces"),
    ({"small": {"faces": [face("give")]}}, "provenance"),
])
def test_bad_dice_data_is_refused_naming_the_fault(engine, dice, match):
    with pytest.raises(ValueError, match=match):
        engine("nice_buns", dice=dice)


# ---------------------------------------------------------------------------------------------
# Action space

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_action_space_is_fixed_compact_and_readable(engine, players):
    game = engine("nice_buns", players=players)
    assert game.num_actions == 4 + 8 + 4 + 5 + 5 * players * 2 + 25 * players + 4 + 4 + 2
    assert game.num_actions <= 300
    names = [game.action_name(a) for a in range(game.num_actions)]
    assert len(set(names)) == len(names)
    assert all(game.parse_action(n) == a for a, n in enumerate(names))
    assert game.parse_action("Split:  small+large | medium") == 2
    for name in ("choose group: medium", "take blue from tray", "put back fish head",
                 f"give red to seat {players - 1}", "steal red from seat 1",
                 "swap my red for seat 1's blue", "fish head to blue", "plate yellow",
                 "keep buns unplated", "pass"):
        assert game.action_name(game.parse_action(name)) == name


def test_config_bounds_and_layout():
    cfg = spec.make_config(players=3)
    game = dimsum.make("nice_buns", players=3)
    assert (cfg.min_return, cfg.max_return) == (0.0, 1.0)
    assert game.max_game_length == 1000 * (2 + 3 * 1 + 8 * (3 + 2 + 2))
    assert game.observation_layout[-1].stop == game.observation_shape[0]
    assert [s.name for s in game.observation_layout][:3] == ["observer", "current_player", "phase"]


# ---------------------------------------------------------------------------------------------
# Dicts: round trip and validation

def _split_state_dict(players=3):
    return position({"players": players}, seats=[seat({"red": 1, "blue": 1}), seat({"green": 2}),
                                                 seat({"yellow": 1, "fish head": 1}, fish_on="yellow")][:players])


def test_dict_round_trips(engine):
    game = engine("nice_buns", players=3)
    d = game.state_from_dict(_split_state_dict()).to_dict()
    assert game.state_from_dict(d).to_dict() == d
    assert json.loads(json.dumps(d)) == d


def _mutations():
    def m(f):
        return f

    yield "game", m(lambda d: d.update(game="yum_cha")), ValueError
    yield "unknown key", m(lambda d: d.update(extra=1)), ValueError
    yield "missing", m(lambda d: d.pop("tray")), ValueError
    yield "players", m(lambda d: d.update(players=4)), ValueError
    yield "phase", m(lambda d: d.update(phase="dance")), ValueError
    yield "turn", m(lambda d: d.update(turn="1")), TypeError
    yield "turn", m(lambda d: d.update(turn=0)), ValueError
    yield "roller", m(lambda d: d.update(roller=3)), ValueError
    yield "dice", m(lambda d: d["dice"]["small"].update(face=6)), ValueError
    yield "shows", m(lambda d: d["dice"]["small"].update(shows="draw 9")), ValueError
    yield "bag", m(lambda d: d["bag"].update(red=d["bag"]["red"] + 1)), ValueError
    yield "tray", m(lambda d: d["tray"].update({"fish head": 1})), ValueError
    yield "tray", m(lambda d: (d["tray"].update(red=0), d["bag"].update(red=d["bag"]["red"] + 1))), ValueError
    yield "seats", m(lambda d: d["seats"][0]["front"].update(red=-1)), ValueError
    yield "seats", m(lambda d: d["seats"][0]["front"].update(purple=1)), ValueError
    yield "seats", m(lambda d: d["seats"][0].update(plate=["red", "red"])), ValueError
    yield "fish", m(lambda d: d["seats"][2].update(fish_on=None)), ValueError
    yield "fish", m(lambda d: d["seats"][0].update(fish_on="red")), ValueError
    yield "greedy", m(lambda d: (d["seats"][1]["front"].update(green=4),
                                 d["bag"].update(green=d["bag"]["green"] - 2))), ValueError
    yield "plating", m(lambda d: (d["seats"][1]["front"].update(green=3),
                                  d["bag"].update(green=d["bag"]["green"] - 1))), ValueError
    yield "split", m(lambda d: d.update(split="small | medium+large")), ValueError
    yield "chooser", m(lambda d: d.update(chooser_takes="small")), ValueError
    yield "cascade", m(lambda d: d.update(cascade=[0])), ValueError
    yield "winner", m(lambda d: d.update(winner=1)), ValueError
    yield "rng", m(lambda d: d.update(rng=[0, 0, 0, 0])), ValueError
    yield "rng", m(lambda d: d.update(rng=[1, 2, 3])), ValueError
    yield "current_player", m(lambda d: d.update(current_player=2)), ValueError
    yield "seats type", m(lambda d: d["seats"][0].update(front=[1, 2])), TypeError


@pytest.mark.parametrize("label, mutate, error", list(_mutations()), ids=[m[0] for m in _mutations()])
def test_bad_dicts_are_refused(engine, label, mutate, error):
    game = engine("nice_buns", players=3)
    d = game.state_from_dict(_split_state_dict()).to_dict()
    mutate(d)
    with pytest.raises(error):
        game.state_from_dict(d)


def test_a_decision_with_one_option_cannot_be_a_resting_position(engine):
    d = position({"players": 2}, seats=[seat({"red": 1}), seat({"blue": 1})], phase="act",
                 dice={"small": "draw 1", "medium": "put back"}, split="small+large | medium",
                 chooser_takes="small+large", die="medium")
    with pytest.raises(ValueError, match="automatically"):
        engine("nice_buns", players=2).state_from_dict(d)


# ---------------------------------------------------------------------------------------------
# Observation, resample, str

def test_observation_is_public_and_has_the_layout_shape(engine):
    game = engine("nice_buns", players=4)
    s = game.new_state(5)
    obs = [list(s.observation(p)) for p in range(4)]
    assert all(len(o) == game.observation_shape[0] for o in obs)
    observer = next(sl for sl in game.observation_layout if sl.name == "observer")
    strip = [o[:observer.start] + o[observer.stop:] for o in obs]
    assert all(x == strip[0] for x in strip)            # NB-12: everything but the bag order is public
    bag = next(sl for sl in game.observation_layout if sl.name == "bag")
    assert obs[0][bag.start:bag.stop] == [float(v) for v in s.to_dict()["bag"].values()]


def test_resample_keeps_every_visible_fact_and_reseeds(engine):
    game = engine("nice_buns", players=3)
    s = game.new_state(9)
    r = s.resample(1, seed=77)
    a, b = s.to_dict(), r.to_dict()
    assert b["rng"] == Rng(77).state()
    a.pop("rng"), b.pop("rng")
    assert a == b


def test_str_shows_the_table(engine):
    s = engine("nice_buns", players=2).new_state(1)
    text = str(s)
    assert "Nice Buns, turn 1" in text and "seat 1:" in text and "tray:" in text


# ---------------------------------------------------------------------------------------------
# Seeded random play

CONFIGS = [
    {"players": 2},
    {"players": 4},
    {"players": 6},
    {"players": 3, "manual_plating": True, "mandatory_dice": False, "fish_movable": False},
    {"players": 5, "fish_tiebreak": "colour_order", "start_player": 4},
    {"players": 3, "max_turns": 3,
     "dice": one_face_dice(face("draw", count=6), face("take", colours=["red", "green"]), face("swap"))},
]


@pytest.mark.parametrize("options", CONFIGS, ids=[str(sorted(c)) for c in CONFIGS])
def test_random_games_terminate_and_keep_every_invariant(engine, options):
    game = engine("nice_buns", **options)
    cfg = spec.make_config(**options)
    games = 40
    for seed in range(games):
        s = game.new_state(seed)
        pick = Rng(seed + 1)
        steps = 0
        while not s.is_terminal:
            legal = s.legal_actions()
            assert legal == sorted(set(legal)) and len(legal) >= 2
            d = s.to_dict()
            assert game.state_from_dict(d).to_dict() == d          # validated, round-trips
            assert s.clone().to_dict() == d
            illegal = next(a for a in range(game.num_actions) if a not in legal)
            with pytest.raises(IllegalActionError):
                s.apply(illegal)
            assert s.to_dict() == d                                # unchanged
            p = s.current_player
            r = s.resample(p, seed + 99)
            rd = r.to_dict()
            assert {k: v for k, v in rd.items() if k != "rng"} == {k: v for k, v in d.items() if k != "rng"}
            assert len(s.observation(p)) == game.observation_shape[0]
            s.apply(legal[pick.bounded(len(legal))])
            steps += 1
            assert steps <= game.max_game_length
        ret = s.returns()
        assert len(ret) == cfg.players and all(v in (0.0, 1.0) for v in ret) and sum(ret) <= 1.0
        d = s.to_dict()
        assert sum(ret) == (d["winner"] is not None)
        assert game.state_from_dict(d).to_dict() == d


def test_same_seed_same_game(engine):
    game = engine("nice_buns", players=4)

    def play(seed):
        s = game.new_state(seed)
        pick = Rng(1)
        while not s.is_terminal:
            la = s.legal_actions()
            s.apply(la[pick.bounded(len(la))])
        return s.to_dict(), list(s.history)

    assert play(42) == play(42)
    assert play(42) != play(43)


@pytest.mark.parametrize("options", CONFIGS, ids=[str(sorted(c)) for c in CONFIGS])
def test_random_play_observations_stay_inside_the_declared_bounds(options):
    game = dimsum.make("nice_buns", **options)
    low, high = game.observation_bounds
    assert low.shape == high.shape == game.observation_shape
    for seed in range(25):
        s = game.new_state(seed)
        pick = Rng(seed + 7)
        while True:
            for p in range(game.players):
                obs = s.observation(p)
                if not ((low <= obs) & (obs <= high)).all():
                    outside = [(sl.name, i - sl.start, float(obs[i])) for sl in game.observation_layout
                               for i in range(sl.start, sl.stop) if not low[i] <= obs[i] <= high[i]]
                    raise AssertionError(f"seed {seed}: outside the bounds: {outside[:5]}")
            if s.is_terminal:
                break
            legal = s.legal_actions()
            s.apply(legal[pick.bounded(len(legal))])
