"""When a timed IS-MCTS search reads the clock (src/dimsum_core/bots/search_clock.hpp): every
simulation once a simulation costs 2 us or more, so a small budget is overrun by one simulation at
most (a Yum Cha rollout is hundreds of microseconds: reading every 8th overran 1 ms by up to 7 of
them), and up to every 8th for fast ones, so that the reads stay about 2 us of work apart."""

import math

import pytest

import processes
from cpp.core_hooks import INCLUDE, build_check

SOURCE = INCLUDE.parent / "tests" / "cpp" / "search_clock.cpp"

CASES = [
    (250e-6, 1),    # a Yum Cha heuristic rollout: every simulation
    (20e-6, 1),     # a Dim Sum Jam one
    (2e-6, 1),      # the threshold
    (1.9e-6, 1),    # just under it: 1.05 simulations' worth, rounded down, still every one
    (1e-6, 2),
    (0.5e-6, 4),
    (0.3e-6, 6),
    (0.25e-6, 8),   # a fast Pig simulation: every 8th, the most
    (1e-9, 8),
    (0.0, 8),       # a clock too coarse to measure a simulation: the most
    (math.nan, 8),
    (math.inf, 1),
]


@pytest.fixture(scope="module")
def strides(tmp_path_factory):
    executable = build_check(tmp_path_factory.mktemp("search_clock"), SOURCE, [])
    done = processes.run([str(executable)], input="".join(f"{s!r}\n" for s, _ in CASES), capture_output=True,
                         text=True, check=True)
    return [int(line) for line in done.stdout.split()]


@pytest.mark.parametrize("index", range(len(CASES)))
def test_the_clock_is_read_about_two_microseconds_of_simulations_apart(strides, index):
    seconds, expected = CASES[index]
    assert strides[index] == expected, f"clock_stride({seconds!r})"

