"""benchmarks/goals.py's report: a goal is met by the median of its rounds on the side its target
says, and the range column tells a timing's spread, an instruction count (exact) and a single
round apart. No measurement here: the figures are made up."""

import pytest

from benchmarks.goals import Figure, GoalRun, main, table


def test_a_goal_is_met_by_the_median_of_its_rounds_on_the_targets_side():
    assert Figure("speed-up", [2.0, 6.0, 5.5], target=5.0).met  # median 5.5
    assert not Figure("speed-up", [6.0, 4.0, 4.5], target=5.0).met  # median 4.5: one good round is not enough
    assert Figure("cost", [4.0, 6.0, 4.5], target=5.0, higher_is_better=False).met
    assert not Figure("cost", [5.5], target=5.0, higher_is_better=False).met


def test_the_table_gives_the_range_or_says_why_there_is_none():
    run = GoalRun("9. a goal", "somewhere", [
        Figure("timed", [1.0, 3.0, 2.0], 2.5),
        Figure("counted", [7.5], 8.0, higher_is_better=False, exact=True),
        Figure("timed once", [3.0], 2.5),
    ], others_cores=0.25, load_average=1.5)
    rows = [line for line in table([run], rounds=3).splitlines() if line.startswith("| 9.")]
    assert rows[0].split(" | ")[2:6] == ["2.00x", "1.00-3.00", ">= 2.5x", "no"]
    assert rows[1].split(" | ")[2:6] == ["7.50x", "exact", "<= 8x", "yes"]
    assert rows[2].split(" | ")[2:6] == ["3.00x", "one round", ">= 2.5x", "yes"]
    assert rows[0].endswith("| 0.25 | 1.5 |")


def test_zero_rounds_and_an_unknown_goal_are_refused():
    with pytest.raises(SystemExit):
        main(["--rounds", "0"])
    with pytest.raises(SystemExit):
        main(["--only", "no_such_goal"])
