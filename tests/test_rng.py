"""The RNG is the same bit for bit in C++ and Python, and matches published known answers."""

import json
from collections import Counter
from pathlib import Path

import pytest

from dimsum.reference.rng import Rng, derive_seed, splitmix64

pytest_plugins = ["cpp.core_hooks"]  # the core_hooks fixture: the C++ RNG, through tests/cpp/core_hooks.cpp

VECTORS = json.loads((Path(__file__).parent / "data" / "rng_vectors.json").read_text())


def test_splitmix64_matches_its_published_first_output():
    # splitmix64 seeded with 0: the first output of Vigna's reference implementation
    assert splitmix64(0) == 0xE220A8397B1DCDAF


def test_xoshiro256starstar_matches_its_reference_sequence():
    # xoshiro256** from the state {1, 2, 3, 4} (Blackman and Vigna's reference code)
    rng = Rng.from_state([1, 2, 3, 4])
    assert [rng.next_u64() for _ in range(4)] == [11520, 0, 1509978240, 1215971899390074240]


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: str(v["seed"]))
def test_python_rng_reproduces_the_frozen_vectors(vector):
    rng = Rng(vector["seed"])
    assert [rng.next_u64() for _ in range(VECTORS["n"])] == vector["u64"]
    assert [rng.bounded(b) for b in VECTORS["bounds"]] == vector["bounded"]
    assert [rng.draw_index(VECTORS["counts"]) for _ in range(VECTORS["n"])] == vector["draws"]
    items = list(range(VECTORS["n"]))
    rng.shuffle(items)
    assert items == vector["shuffle"]
    assert derive_seed(vector["seed"], 7) == vector["derive_seed"]


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: str(v["seed"]))
def test_cpp_rng_reproduces_the_frozen_vectors(vector, core_hooks):
    out = core_hooks.rng_vectors(vector["seed"], VECTORS["n"], VECTORS["bounds"], VECTORS["counts"])
    assert out["u64"] == vector["u64"]
    assert out["bounded"] == vector["bounded"]
    assert out["draws"] == vector["draws"]
    assert out["shuffle"] == vector["shuffle"]
    assert out["derive_seed"] == vector["derive_seed"]


def test_bounded_stays_in_range_and_rejects_zero():
    rng = Rng(3)
    assert all(0 <= rng.bounded(n) < n for n in range(1, 300))
    with pytest.raises(ValueError):
        rng.bounded(0)


def test_die_rolls_are_uniform_chi_square():
    """Statistical check of chance: 60,000 rolls of a six-sided die under a fixed seed."""
    rng = Rng(2026)
    rolls = Counter(rng.bounded(6) for _ in range(60_000))
    expected = 10_000
    chi2 = sum((rolls[f] - expected) ** 2 / expected for f in range(6))
    assert chi2 < 20.5  # the 0.999 quantile of chi-square with 5 degrees of freedom


def test_multiset_draws_follow_the_counts_chi_square():
    rng = Rng(7)
    counts = [5, 1, 0, 3, 11]
    draws = Counter(rng.draw_index(counts) for _ in range(40_000))
    assert draws[2] == 0
    total = sum(counts)
    chi2 = sum((draws[k] - 40_000 * c / total) ** 2 / (40_000 * c / total) for k, c in enumerate(counts) if c)
    assert chi2 < 18.5  # 0.999 quantile, 4 degrees of freedom


def test_rng_state_round_trips_and_zero_state_is_refused():
    rng = Rng(11)
    rng.next_u64()
    twin = Rng.from_state(rng.state())
    assert [twin.next_u64() for _ in range(5)] == [rng.next_u64() for _ in range(5)]
    with pytest.raises(ValueError):
        Rng.from_state([0, 0, 0, 0])
