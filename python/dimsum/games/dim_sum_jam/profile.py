"""Dim Sum Jam's test and benchmark profile: what the shared tests and benchmarks need to know
about this game (read with ``dimsum.testing.profile("dim_sum_jam")``)."""

from typing import Any, Dict

from ..._common import Profile


def _token_twice(d: Dict[str, Any]) -> None:
    """A token that is in a hand put in the bag as well."""
    d["bag"] = d["bag"] + [d["hands"][0][0]]


PROFILE = Profile(
    conformance=(
        dict(players=2),
        dict(players=3, ticks_per_action=0),
        dict(players=4, glass_ticks=400, timeout_discard="active_player", timeout_resume="free_play"),
        dict(players=5, achievement="gold-4", reverse_variant=True, reverse_trigger="team_once"),
        dict(players=3, achievement="silver-2", reverse_variant=True, reverse_trigger="on_self_table"),
        dict(players=4, achievement="copper-4", opening_free="first_round", draw_after_tea=True),
        dict(players=2, achievement="silver-1", flip_model="full", stand_side="same_side_up"),
        dict(players=3, achievement="copper-3", reverse_variant=True, decline_tea=False,
             ticks_per_team_decision=30, max_free_redraws=0),
        dict(players=5, achievement="gold-2", glass_ticks=300),
    ),
    golden=dict(players=3),
    bad_input=dict(players=3),
    same_size=dict(players=3, complaint_limit=2),
    corrupt_dict=_token_twice,
    corrupt_dict_error="bag",
    threads=dict(players=3),
    bench=dict(players=4),
    peer="hanabi",
    small=dict(players=3),
    reserved_bytes=True,
)
