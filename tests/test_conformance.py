"""dimsum.testing.check_game on every game and every option set that changes the rules."""

import pytest

import dimsum
from dimsum.testing import check_game

CONFIGS = [
    ("yum_cha", dict(players=2, max_turns_per_round=30)),
    ("yum_cha", dict(players=4, max_turns_per_round=30, rounds=2)),
    ("yum_cha", dict(players=6, max_turns_per_round=20, rounds=1)),
    ("yum_cha", dict(players=3, max_turns_per_round=30, auto_declare=True, rounds=1)),
    ("yum_cha", dict(players=3, max_turns_per_round=30, forbid_immediate_return=True, rounds=1)),
    ("yum_cha", dict(players=5, max_turns_per_round=80, deck_out="reshuffle_centre", rounds=1)),
    ("yum_cha", dict(players=6, max_turns_per_round=80, deck_out="centre_only", rounds=1)),
    ("yum_cha", dict(players=3, max_turns_per_round=20, tie_break="declarations_then_best_round", reward="score")),
    ("nice_buns", dict()),
    ("nice_buns", dict(players=2, start_player=1)),
    ("nice_buns", dict(players=6)),
    ("nice_buns", dict(players=3, fish_tiebreak="colour_order")),
    ("nice_buns", dict(players=3, manual_plating=True)),
    ("nice_buns", dict(players=5, mandatory_dice=False)),
    ("nice_buns", dict(players=4, fish_movable=False)),
    ("nice_buns", dict(players=3, max_turns=5)),
    ("nice_buns", dict(players=4, dice={"small": {"provenance": "default", "faces": [
        {"action": "draw", "count": 6, "provenance": "default"}, {"action": "swap", "provenance": "default"}]}})),
    ("dim_sum_jam", dict(players=2)),
    ("dim_sum_jam", dict(players=3, ticks_per_action=0)),
    ("dim_sum_jam", dict(players=4, glass_ticks=400, timeout_discard="active_player", timeout_resume="free_play")),
    ("dim_sum_jam", dict(players=5, achievement="gold-4", reverse_variant=True, reverse_trigger="team_once")),
    ("dim_sum_jam", dict(players=3, achievement="silver-2", reverse_variant=True, reverse_trigger="on_self_table")),
    ("dim_sum_jam", dict(players=4, achievement="copper-4", opening_free="first_round", draw_after_tea=True)),
    ("dim_sum_jam", dict(players=2, achievement="silver-1", flip_model="full", stand_side="same_side_up")),
    ("dim_sum_jam", dict(players=3, achievement="copper-3", reverse_variant=True, decline_tea=False,
                         ticks_per_team_decision=30, max_free_redraws=0)),
    ("dim_sum_jam", dict(players=5, achievement="gold-2", glass_ticks=300)),
]


@pytest.mark.parametrize("name,options", CONFIGS, ids=lambda x: x if isinstance(x, str) else
                         ",".join(f"{k}={v}" for k, v in x.items()))
def test_check_game(name, options):
    report = check_game(dimsum.make(name, **options), n_games=4)
    assert report.games == 4 and report.steps > 0


def test_check_game_catches_a_broken_promise():
    """The suite is not a check that cannot fail: a game whose masks lie is caught."""

    class LyingState:
        def __init__(self, state):
            self._s = state

        def __getattr__(self, name):
            return getattr(self._s, name)

        def legal_mask(self):
            mask = self._s.legal_mask().copy()
            mask[:] = True
            return mask

    class LyingGame:
        def __init__(self, game):
            self._g = game

        def __getattr__(self, name):
            return getattr(self._g, name)

        def new_state(self, seed):
            return LyingState(self._g.new_state(seed))

    with pytest.raises(AssertionError, match="legal_mask disagrees"):
        check_game(LyingGame(dimsum.make("yum_cha", max_turns_per_round=5)), n_games=1)
