"""One source for each size: the core computes a game's sizes (config_info), Python reads them.

Python keeps only the sizes it needs for its own purposes (its action and chance outcome names,
its players), and a Game refuses to build when one disagrees with the core's. The game length
bound, once handed over by Python for two games, is derived by the core; its config row stays
(kDerived) so that the fingerprint in to_bytes' header, and so saved states, keep their keys.
"""

import pytest

import dimsum
import dimsum.reference
from dimsum._schema import FieldSpec, fingerprint_values, pack_config
from dimsum.games import dim_sum_jam, yum_cha


@pytest.mark.parametrize("chance", ["sampled", "explicit"])
@pytest.mark.parametrize("name", dimsum.games())
def test_the_reference_engine_reports_the_cores_sizes(name, chance):
    core = dimsum.make(name, chance=chance)
    ref = dimsum.reference.make(name, chance=chance)
    assert (ref.num_actions, ref.num_chance_outcomes, ref.max_game_length, ref.observation_shape, ref.players) == (
        core.num_actions, core.num_chance_outcomes, core.max_game_length, core.observation_shape, core.players)


def test_python_action_names_that_disagree_with_the_core_are_refused_naming_both_numbers(monkeypatch):
    names = yum_cha._action_names
    monkeypatch.setattr(yum_cha, "_action_names", lambda types: names(types) + ["one too many"])
    with pytest.raises(AssertionError, match=r"yum_cha: the core's num_actions is 66, the Python spec has 67 action "
                                             r"names"):
        dimsum.make("yum_cha")


def test_python_chance_names_that_disagree_with_the_core_are_refused_naming_both_numbers(monkeypatch):
    names = yum_cha._chance_names
    monkeypatch.setattr(yum_cha, "_chance_names", lambda types, players: names(types, players)[:-1])
    with pytest.raises(AssertionError, match=r"yum_cha: the core's num_chance_outcomes is 36, the Python spec has "
                                             r"35 chance outcome names"):
        dimsum.make("yum_cha", players=4)


def test_a_derived_config_field_takes_no_value_but_keeps_its_place_in_the_fingerprint():
    fields = [FieldSpec("a", "", -1, (), 0, 9), FieldSpec("bound", "", -1, (), 0, 0, derived=True),
              FieldSpec("b", "", -1, (2,), 0, 9)]
    assert pack_config("g", fields, {"a": 1, "b": [2, 3]}) == [1, 2, 3]
    with pytest.raises(AssertionError, match=r"unknown fields \['bound'\]"):
        pack_config("g", fields, {"a": 1, "bound": 7, "b": [2, 3]})
    assert fingerprint_values("g", fields, {"a": 1, "b": [2, 3]}, {"bound": 7}) == [1, 7, 2, 3]
    with pytest.raises(AssertionError, match=r"derived config fields \['bound'\] are none of the core's sizes"):
        fingerprint_values("g", fields, {"a": 1, "b": [2, 3]}, {"max_game_length": 7})


# The config keys (to_bytes' header) of states saved while Python computed max_game_length and
# handed it over (commit cb9c2dc): the core's derived value keys them the same.
SAVED_KEYS = [
    ("nice_buns", dict(players=3, max_turns=7, chance="explicit"), "f977978d80713475"),
    ("nice_buns", dict(players=5, mandatory_dice=False), "78c162865e67ffe8"),
    ("dim_sum_jam", dict(players=3, hand_limit=4, complaint_limit=2, max_free_redraws=1, extra_vips=1),
     "29f88078c6695cd9"),
    ("dim_sum_jam", dict(players=4, chance="explicit", interrupted_reward="timeout_first"), "ee27e1f8374c3174"),
]


@pytest.mark.parametrize("name, options, key", SAVED_KEYS)
def test_states_saved_before_the_core_derived_the_bound_keep_their_config_key(name, options, key):
    game = dimsum.make(name, **options)
    data = game.new_state(3).to_bytes()
    assert data[16:24].hex() == key
    assert game.state_from_bytes(data) == game.new_state(3)


@pytest.mark.parametrize("chance", ["sampled", "explicit"])
def test_dim_sum_jam_bound_is_the_documented_formula(chance):
    """docs/rules/dim_sum_jam.md, "Termination" and section 11, for a config off the defaults."""
    options = dict(players=3, hand_limit=4, complaint_limit=2, max_free_redraws=1, extra_vips=1, chance=chance)
    cfg = dim_sum_jam.make_config(**options)
    hand, limit, players, redraws = 4, 2, 3, 1
    cards_ever = 7 + cfg.deck_length
    plays = cards_ever * max(len(card.icons) for card in cfg.cards)
    bound = plays + cards_ever + limit * players * (hand + 1) + limit * (redraws + 1) * (hand + 3)
    if chance == "explicit":
        top = cfg.top_section
        bound += (top - 1) + cfg.deck_length + 1 + players * hand  # the set-up
        bound += plays + limit * players * hand + limit * (redraws + 1) * hand  # a draw per play, refills
    assert dimsum.make("dim_sum_jam", **options).max_game_length == bound
