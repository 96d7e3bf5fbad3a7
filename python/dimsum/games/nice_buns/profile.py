"""Nice Buns' test and benchmark profile: what the shared tests and benchmarks need to know
about this game (read with ``dimsum.testing.profile("nice_buns")``)."""

from typing import Any, Dict

from ..._common import Profile


def _extra_bun(d: Dict[str, Any]) -> None:
    """One more bun of a colour in the bag than the game has."""
    d["bag"] = dict(d["bag"])
    d["bag"][next(iter(d["bag"]))] += 1


PROFILE = Profile(
    conformance=(
        dict(),
        dict(players=2, start_player=1),
        dict(players=6),
        dict(players=3, fish_tiebreak="colour_order"),
        dict(players=3, manual_plating=True),
        dict(players=5, mandatory_dice=False),
        dict(players=4, fish_movable=False),
        dict(players=3, max_turns=5),
        dict(players=4, dice={"small": {"provenance": "default", "faces": [
            {"action": "draw", "count": 6, "provenance": "default"}, {"action": "swap", "provenance": "default"}]}}),
    ),
    golden=dict(players=3, start_player=0),
    bad_input=dict(players=3),
    same_size=dict(players=3, max_turns=7),
    corrupt_dict=_extra_bun,
    corrupt_dict_error="bag",
    threads=dict(players=3),
    bench=dict(players=4),
    peer="pig",
    small=dict(players=3, max_turns=30),
    reserved_bytes=True,
)
