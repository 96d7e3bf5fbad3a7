"""Kuhn poker's test and benchmark profile: what the shared tests and benchmarks need to know about
this game (read with ``dimsum.testing.profile("kuhn_poker")``)."""

from typing import Any, Dict

from ..._common import Profile


def _one_card_twice(d: Dict[str, Any]) -> None:
    """Two seats holding the same card: the deck has one of each (KP-2)."""
    d["cards"] = [d["cards"][1]] + list(d["cards"][1:])


PROFILE = Profile(
    conformance=(
        dict(),
        dict(players=3),
        dict(players=4),
        dict(players=6),
        dict(players=10),
    ),
    golden=dict(players=3),
    bad_input=dict(players=3),
    same_size=dict(players=5),  # every config's State is 56 bytes
    corrupt_dict=_one_card_twice,
    corrupt_dict_error="cards",
    threads=dict(players=3),
    bench=dict(players=2),
    peer="kuhn_poker",
    chance_after_deal=False,  # the deal is the only randomness (KP-2): nothing follows it
)
