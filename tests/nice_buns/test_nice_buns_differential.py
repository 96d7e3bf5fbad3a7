"""The C++ core and the pure-Python reference agree at every step of seeded Nice Buns games."""

from collections import Counter

import pytest

import dimsum
import dimsum.reference
from dimsum.reference.rng import Rng
from differential import play_in_lockstep
from nb_helpers import face, one_face_dice

# Dice where every face kind sits on every die, so each die meets every action.
MIXED_DICE = {
    "small": {"provenance": "default", "faces": [face("draw", count=6), face("put_back"), face("give")]},
    "medium": {"provenance": "default", "faces": [face("take", colours=["red", "green"]), face("steal"),
                                                   face("draw", count=1)]},
    "large": {"provenance": "default", "faces": [face("swap"), face("take", colours=["blue", "green", "red",
                                                                                    "yellow"]),
                                                  face("draw", count=2)]},
}

# (options, games, phases that must be seen): 2,000+ games over every player count and every
# option that changes the rules.
CASES = [
    (dict(players=p), 250, {"split", "choose", "act", "fish", "over"}) for p in range(2, 7)
] + [
    (dict(players=4, fish_tiebreak="colour_order"), 150, {"act", "over"}),
    (dict(players=3, manual_plating=True), 150, {"plate", "fish"}),
    (dict(players=5, mandatory_dice=False), 150, {"act"}),
    (dict(players=6, fish_movable=False), 150, {"fish"}),
    (dict(players=2, start_player=1, max_turns=8), 150, {"over"}),
    (dict(players=4, dice=MIXED_DICE), 150, {"fish", "act"}),
    (dict(players=6, fish_tiebreak="colour_order", manual_plating=True, mandatory_dice=False,
          fish_movable=False, max_turns=40), 100, {"plate"}),
    (dict(players=3, max_turns=30,
          dice=one_face_dice(face("draw", count=6), face("take", colours=["yellow"]), face("give"))), 50, {"fish"}),
]


# Explicit chance mode (every random event a chance node, its outcome picked uniformly among the
# possible ones): the chance outcomes and their exact probabilities agree at every chance node.
CHANCE_PHASES = {"start_player", "tray", "starting_bun", "roll", "draw"}
EXPLICIT_CASES = [
    (dict(players=p, chance="explicit"), 40, CHANCE_PHASES | {"split", "choose", "act", "fish", "over"})
    for p in (2, 4, 6)
] + [
    (dict(players=3, chance="explicit", manual_plating=True, mandatory_dice=False), 40, {"plate", "tray"}),
    (dict(players=5, chance="explicit", fish_tiebreak="colour_order", fish_movable=False, dice=MIXED_DICE), 40,
     {"draw", "tray", "act"}),
    (dict(players=2, chance="explicit", start_player=1, max_turns=8), 40, {"over"} | CHANCE_PHASES - {"start_player"}),
]


def play_both(options, seed, seen):
    final = play_in_lockstep("nice_buns", options, seed, on_step=lambda d: seen.update([d["phase"]]))
    return final["winner"]


def _case_id(case):
    options, games, _ = case
    return ",".join(f"{k}={v}" if k != "dice" else "custom_dice" for k, v in options.items()) + f"-{games}"


@pytest.mark.parametrize("options,games,phases", CASES + EXPLICIT_CASES, ids=[_case_id(c) for c in CASES + EXPLICIT_CASES])
def test_core_and_reference_agree_step_by_step(options, games, phases):
    """In both chance modes; in explicit mode every chance node's outcomes and weights too."""
    seen = Counter()
    results = Counter()
    for seed in range(games):
        winner = play_both(options, seed, seen)
        results["won" if winner is not None else "drawn"] += 1
    assert phases <= set(seen), f"phases never reached: {phases - set(seen)}"
    if options.get("chance") == "explicit":
        assert "start_player" in seen or "start_player" in options
    assert results["won"] > 0 or options.get("max_turns", 1000) < 10   # the win path was exercised


def test_differential_cases_cover_two_thousand_games_and_every_player_count():
    assert sum(g for _, g, _ in CASES) >= 2000
    assert {o["players"] for o, _, _ in CASES} == {2, 3, 4, 5, 6}
    for option in ("fish_tiebreak", "manual_plating", "mandatory_dice", "fish_movable", "start_player",
                   "max_turns", "dice"):
        assert any(option in o for o, _, _ in CASES), option


def test_observations_of_every_player_agree_on_a_long_game():
    options = dict(players=6, manual_plating=True, mandatory_dice=False)
    core, ref = dimsum.make("nice_buns", **options), dimsum.reference.make("nice_buns", **options)
    a, b = core.new_state(77), ref.new_state(77)
    policy = Rng(77)
    while not a.is_terminal:
        for p in range(6):
            assert a.observation(p).tolist() == b.observation(p)
        legal = a.legal_actions()
        action = legal[policy.bounded(len(legal))]
        a.apply(action)
        b.apply(action)
    assert a.to_dict() == b.to_dict() and a.returns() == b.returns()


def test_the_core_keeps_its_hash_and_invariants_along_a_game():
    game = dimsum.make("nice_buns", players=4, manual_plating=True)
    s = game.new_state(3)
    policy = Rng(3)
    keys = set()
    while not s.is_terminal:
        s.check()                                   # validate() and the hash recomputed from scratch
        keys.add(s.hash)
        legal = s.legal_actions()
        s.apply(legal[policy.bounded(len(legal))])
    s.check()
    assert len(keys) > 10


def test_resample_reseeds_only_the_rng_in_the_core_like_the_reference():
    core, ref = dimsum.make("nice_buns", players=3), dimsum.reference.make("nice_buns", players=3)
    a, b = core.new_state(9), ref.new_state(9)
    for _ in range(2):                              # split, then choose: the dice start acting
        action = a.legal_actions()[0]
        a.apply(action)
        b.apply(action)
    assert a.resample(2, 55).to_dict() == b.resample(2, 55).to_dict()
    assert a.resample(2, 55).hash == a.hash
