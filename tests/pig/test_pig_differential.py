"""The C++ core and the pure-Python reference agree at every step of seeded Pig games, over every
option set of the profile and the rule options, in both chance modes."""

import pytest

from differential import play_in_lockstep
from dimsum.testing import profile

# (options, games): every profile option set and more, 2,000+ games in all.
CASES = [(dict(o), 150) for o in profile("pig").conformance] + [
    (dict(players=p, winscore=40), 150) for p in (2, 4, 6, 8)
] + [
    (dict(players=2, winscore=30, horizon=60), 100),
    (dict(players=3, winscore=20, piglet=True, diceoutcomes=3), 100),
]
EXPLICIT_CASES = [(dict(o, chance="explicit"), games // 3) for o, games in CASES]


def _ids(x):
    return str(x) if isinstance(x, int) else ",".join(f"{k}={v}" for k, v in x.items()) or "defaults"


@pytest.mark.parametrize("options,games", CASES + EXPLICIT_CASES, ids=_ids)
def test_core_and_reference_agree_step_by_step(options, games):
    """In both chance modes; in explicit mode every chance node's outcomes and weights too."""
    endings = set()
    for seed in range(games):
        final = play_in_lockstep("pig", options, seed)
        endings.add("target" if max(final["scores"]) >= options.get("winscore", 100) else "horizon")
    assert endings  # at least one game ended; which way depends on the options


def test_differential_cases_cover_two_thousand_games_and_both_endings():
    assert sum(g for _, g in CASES) >= 2000
    ends = set()
    for seed in range(30):
        final = play_in_lockstep("pig", dict(players=3, horizon=25), seed)
        ends.add("target" if max(final["scores"]) >= 100 else "horizon")
        final = play_in_lockstep("pig", dict(players=2, winscore=1), seed)
        ends.add("target" if max(final["scores"]) >= 1 else "horizon")
    assert ends == {"target", "horizon"}


def test_explicit_chance_games_stop_before_every_roll():
    rolls = []

    def seen(d):
        rolls.append(d["current_player"])

    play_in_lockstep("pig", dict(players=2, winscore=30, chance="explicit"), 3, on_step=seen)
    assert rolls[0] == 0 and -2 in rolls and rolls[-1] == -1
