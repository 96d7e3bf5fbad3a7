"""Yum Cha's test and benchmark profile: what the shared tests and benchmarks need to know
about this game (read with ``dimsum.testing.profile("yum_cha")``)."""

from typing import Any, Dict

from ..._common import Profile


def _extra_card(d: Dict[str, Any]) -> None:
    """One more copy of a card in the deck than the game has."""
    d["deck"] = dict(d["deck"])
    d["deck"][next(iter(d["deck"]))] += 1


PROFILE = Profile(
    conformance=(
        dict(players=2, max_turns_per_round=30),
        dict(players=4, max_turns_per_round=30, rounds=2),
        dict(players=6, max_turns_per_round=20, rounds=1),
        dict(players=3, max_turns_per_round=30, auto_declare=True, rounds=1),
        dict(players=3, max_turns_per_round=30, forbid_immediate_return=True, rounds=1),
        dict(players=5, max_turns_per_round=80, deck_out="reshuffle_centre", rounds=1),
        dict(players=6, max_turns_per_round=80, deck_out="centre_only", rounds=1),
        dict(players=3, max_turns_per_round=20, tie_break="declarations_then_best_round", reward="score"),
    ),
    golden=dict(players=3, rounds=1, max_turns_per_round=12, first_player=0),
    bad_input=dict(players=3),
    same_size=dict(players=3, max_turns_per_round=7),
    corrupt_dict=_extra_card,
    corrupt_dict_error="deck",
    threads=dict(players=3),
    bench=dict(players=4),
    peer="gin_rummy",
    search_simulations=200,
    small=dict(players=3, rounds=1, max_turns_per_round=12),
    reserved_bytes=True,
)
