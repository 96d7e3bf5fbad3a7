"""The tick clock on its own (python/dimsum/reference/tick_clock.py; the C++ twin must match)."""

import pytest

from dimsum.reference.rng import Rng
from dimsum.reference.tick_clock import ClockView, TickClock

pytest_plugins = ["cpp.core_hooks"]  # the core_hooks fixture: the C++ clock, through tests/cpp/core_hooks.cpp


def test_new_clock_is_a_full_standing_glass():
    c = TickClock()
    assert (c.capacity, c.top, c.bottom, c.lying, c.ran_out) == (1200, 1200, 0, False, False)


def test_run_drains_the_top_and_stops_at_zero():
    c = TickClock(100)
    assert c.run(30) == 30 and c.top == 70
    assert c.run(500) == 70 and c.top == 0 and c.ran_out
    assert c.run(5) == 0 and c.top == 0


def test_run_zero_ticks_changes_nothing():
    c = TickClock(100, 40)
    assert c.run(0) == 0 and c.top == 40 and not c.ran_out


def test_flip_is_physical_capacity_minus_top():
    c = TickClock(1200, 1000)
    c.flip()
    assert c.top == 200
    c.flip()
    assert c.top == 1000
    empty = TickClock(1200, 0)
    empty.flip()
    assert empty.top == 1200


def test_refill_gives_a_full_glass():
    c = TickClock(1200, 700)
    c.refill()
    assert c.top == 1200


def test_lying_glass_is_frozen_and_cannot_be_flipped():
    c = TickClock(1200, 500)
    c.lay_down()
    assert c.run(300) == 0 and c.top == 500 and not c.ran_out
    with pytest.raises(ValueError):
        c.flip()
    with pytest.raises(ValueError):
        c.lay_down()


def test_stand_on_either_side():
    same, turned = TickClock(1200, 500, lying=True), TickClock(1200, 500, lying=True)
    same.stand(turned=False)
    turned.stand(turned=True)
    assert (same.top, turned.top) == (500, 700)
    assert not same.lying and not turned.lying
    with pytest.raises(ValueError):
        same.stand(turned=False)


def test_empty_lying_glass_runs_out_when_stood_on_its_empty_side():
    c = TickClock(1200, 0, lying=True)
    assert not c.ran_out
    c.stand(turned=False)
    assert c.ran_out


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (2.0, TypeError), (None, TypeError),
                                        (True, TypeError)])
def test_bad_ticks_are_rejected_and_the_glass_unchanged(bad, error):
    c = TickClock(100, 60)
    with pytest.raises(error):
        c.run(bad)
    assert c.top == 60


@pytest.mark.parametrize("kwargs", [{"capacity": 0}, {"capacity": 10, "top": 11}, {"capacity": 10, "top": -1},
                                    {"capacity": 10 ** 7}])
def test_bad_construction_is_rejected(kwargs):
    with pytest.raises(ValueError):
        TickClock(**kwargs)


def test_dict_round_trip_and_validation():
    c = TickClock(1200, 333, lying=True)
    assert TickClock.from_dict(c.to_dict()) == c
    with pytest.raises(ValueError):
        TickClock.from_dict({"top": 1, "capacity": 10}, None)
    with pytest.raises(ValueError):
        TickClock.from_dict({"top": 1, "capacity": 10, "lying": False}, capacity=1200)
    with pytest.raises(TypeError):
        TickClock.from_dict({"top": 1, "capacity": 10, "lying": "no"})


def test_copy_is_independent():
    c = TickClock(100, 50)
    d = c.copy()
    d.run(10)
    assert (c.top, d.top) == (50, 40)


def test_view_is_read_only_and_live():
    c = TickClock(100, 50)
    v = ClockView(c)
    assert (v.top, v.capacity, v.bottom, v.lying_down) == (50, 100, 50, False)
    c.run(20)
    assert v.top == 30
    with pytest.raises(AttributeError):
        v.top = 5


# -- the C++ twin (common/tick_clock.hpp), through the test-only tests/cpp/core_hooks.cpp ----------

def test_cpp_tick_clock_checks_pass(core_hooks):
    assert core_hooks.clock_checks() == []


def _python_script(capacity, top, lying, ops):
    """The reference clock driven by the same (op, arg) script as core_hooks.clock_scripts."""
    c = TickClock(capacity, top, lying)
    out = []
    for op, arg in ops:
        if op == 0:
            result = c.run(arg)
        else:
            action = {1: c.flip, 2: c.refill, 3: c.lay_down, 4: lambda: c.stand(turned=bool(arg))}[op]
            try:
                action()
                result = 1
            except ValueError:  # the C++ clock refuses the same things and stays unchanged
                result = 0
        out.append((result, c.top, c.lying, c.ran_out))
    return out


def test_cpp_and_python_clocks_agree_on_random_operations(core_hooks):
    rng = Rng(2024)
    scripts = []
    for _ in range(500):
        capacity = 1 + rng.bounded(2000) if rng.bounded(10) else 1_000_000
        top, lying = rng.bounded(capacity + 1), bool(rng.bounded(2))
        ops = []
        for _ in range(1 + rng.bounded(40)):
            op = rng.bounded(5)
            # mostly small runs, sometimes far past the empty glass
            arg = (rng.bounded(capacity // 3 + 2) if rng.bounded(4) else rng.bounded(3 * capacity + 1)) \
                if op == 0 else rng.bounded(2)
            ops.append((op, arg))
        scripts.append((capacity, top, lying, ops))
    # one run of the C++ program for all 500 scripts, then the same check on each
    for script, cpp in zip(scripts, core_hooks.clock_scripts(scripts), strict=True):
        assert cpp == _python_script(*script)
