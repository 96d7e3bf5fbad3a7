"""Pig's test and benchmark profile: what the shared tests and benchmarks need to know about this
game (read with ``dimsum.testing.profile("pig")``)."""

from typing import Any, Dict

from ..._common import Profile


def _two_winners(d: Dict[str, Any]) -> None:
    """Two seats at the target: a game ends when the first reaches it (PIG-5)."""
    d["scores"] = [d["scores"][0] + 100, d["scores"][1] + 100] + list(d["scores"][2:])


PROFILE = Profile(
    conformance=(
        dict(),
        dict(players=3),
        dict(players=10, winscore=30),
        dict(players=2, winscore=20, diceoutcomes=2),
        dict(players=4, winscore=50, diceoutcomes=20),
        dict(players=2, winscore=40, piglet=True),
        dict(players=3, horizon=25),
        dict(players=2, winscore=1),
    ),
    golden=dict(players=3, winscore=30),
    bad_input=dict(players=3),
    same_size=dict(players=3, winscore=50, horizon=40),
    corrupt_dict=_two_winners,
    corrupt_dict_error="scores",
    threads=dict(players=3),
    bench=dict(players=2),
    peer="pig",
    small=dict(winscore=30),
    reserved_bytes=True,
)
