"""``state.clock`` on the core: a small value type of the fast layer (dimsum._core.Clock), read
from the state's clock fields, equal field by field to the reference engine's clock."""

import pickle
import random

import pytest

import dimsum
import dimsum.reference
from dimsum._core import Clock

GAME = "dim_sum_jam"


def _reading(clock):
    return (clock.top, clock.capacity, clock.bottom, clock.lying_down, clock.ran_out, clock.to_dict())


@pytest.mark.parametrize("options", [dict(players=3, glass_ticks=300), dict(players=4, chance="explicit"),
                                     dict(players=2, achievement="silver-4", glass_ticks=200)])
def test_the_core_clock_equals_the_reference_clock_at_every_step(options):
    core, ref = dimsum.make(GAME, **options), dimsum.reference.make(GAME, **options)
    for seed in range(8):
        rng = random.Random(seed)
        a, b = core.new_state(seed), ref.new_state(seed)
        while not a.is_terminal:
            assert _reading(a.clock) == _reading(b.clock)
            if not a.is_chance_node and rng.random() < 0.1:
                ticks = rng.randrange(1, 400)
                a.advance(ticks)
                b.advance(ticks)
                continue
            if a.is_chance_node:
                action, ticks = rng.choice(a.legal_actions()), None
            else:
                action, ticks = rng.choice(a.legal_actions()), rng.choice([None, 0, rng.randrange(200)])
            a.apply(action, ticks)
            b.apply(action, ticks)
        assert _reading(a.clock) == _reading(b.clock)


def test_the_clock_is_a_value_of_the_fast_layer():
    state = dimsum.make(GAME, glass_ticks=600).new_state(3)
    clock = state.clock
    assert type(clock) is Clock and type(clock).__module__ == "dimsum._core"
    assert clock == state.clock and hash(clock) == hash(state.clock) and clock is not state.clock
    assert clock == Clock(600, 600) and clock != Clock(599, 600) and clock != Clock(600, 600, True)
    assert (clock != (600, 600, False)) and clock.__eq__(object()) is NotImplemented
    state.advance(100)
    assert clock.top == 600 and state.clock.top == 500  # a value: it does not follow the state
    assert pickle.loads(pickle.dumps(state.clock)) == state.clock
    assert repr(state.clock) == "Clock(top=500, capacity=600, lying_down=False)"
    for name in ("top", "capacity", "lying_down", "bottom", "ran_out"):
        with pytest.raises(AttributeError):
            setattr(clock, name, 1)


def test_a_clock_made_by_hand_is_checked():
    assert _reading(Clock(0, 10)) == (0, 10, 10, False, True, {"top": 0, "capacity": 10, "lying": False})
    assert Clock(0, 10, lying_down=True).ran_out is False
    with pytest.raises(ValueError, match="clock top"):
        Clock(11, 10)
    with pytest.raises(ValueError, match="clock capacity"):
        Clock(0, 0)
    with pytest.raises(TypeError, match="clock top"):
        Clock("5", 10)
    with pytest.raises(TypeError, match="lying_down must be True or False"):
        Clock(5, 10, 1)
