"""The dimsum random number generator, in pure Python, bit for bit the same as
``src/dimsum_core/common/rng.hpp``.

Why our own generator: ``random`` and ``std::`` distributions differ between
platforms and standard libraries; a game must be the same game everywhere.

- Generator: xoshiro256** (Blackman and Vigna), seeded with four outputs of splitmix64.
- Bounded integers: Lemire's multiply-shift with rejection (unbiased).
- Shuffles: Fisher-Yates from the end.
- Draws from a multiset given as counts: one bounded integer below the total, then a
  walk through the counts in index order.

Every function here has a twin in rng.hpp; ``tests/test_rng.py`` checks both against
the known-answer vectors in ``tests/data/rng_vectors.json``.
"""

from __future__ import annotations

from typing import List, MutableSequence, Sequence

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def splitmix64(x: int) -> int:
    """One splitmix64 output for the counter value ``x`` (the mixing function)."""
    z = (x + GOLDEN_GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def derive_seed(seed: int, stream: int) -> int:
    """The seed of sub-stream ``stream`` of ``seed`` (env i of a batch, game i of a playout run).

    Depends only on (seed, stream), never on thread count or batch size.
    """
    return splitmix64(splitmix64(seed & MASK64) ^ (stream & MASK64))


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64


class Rng:
    """xoshiro256** with the dimsum helpers. Its whole state is four 64-bit words."""

    __slots__ = ("s",)

    def __init__(self, seed: int = 0) -> None:
        s = []
        x = seed & MASK64
        for _ in range(4):
            s.append(splitmix64(x))
            x = (x + GOLDEN_GAMMA) & MASK64
        self.s: List[int] = s

    @classmethod
    def from_state(cls, words: Sequence[int]) -> "Rng":
        if len(words) != 4 or any(not 0 <= int(w) <= MASK64 for w in words):
            raise ValueError("an Rng state is four integers in [0, 2**64)")
        if not any(words):
            raise ValueError("an all-zero xoshiro256** state never leaves zero")
        rng = cls.__new__(cls)
        rng.s = [int(w) for w in words]
        return rng

    def state(self) -> List[int]:
        return list(self.s)

    def clone(self) -> "Rng":
        return Rng.from_state(self.s)

    def next_u64(self) -> int:
        s = self.s
        result = (_rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def bounded(self, n: int) -> int:
        """A uniform integer in [0, n), n >= 1 (Lemire's method with rejection)."""
        if n <= 0:
            raise ValueError(f"bounded(n) needs n >= 1, got {n}")
        m = self.next_u64() * n
        low = m & MASK64
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next_u64() * n
                low = m & MASK64
        return m >> 64

    def shuffle(self, items: MutableSequence) -> None:
        """Fisher-Yates from the end, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.bounded(i + 1)
            items[i], items[j] = items[j], items[i]

    def draw_index(self, counts: Sequence[int]) -> int:
        """Pick one item of a multiset given as counts per kind, uniformly over items.

        Returns the kind's index; the caller removes the item. The multiset must not be empty.
        """
        total = sum(counts)
        if total <= 0:
            raise ValueError("draw_index from an empty multiset")
        r = self.bounded(total)
        for kind, c in enumerate(counts):
            if r < c:
                return kind
            r -= c
        raise AssertionError("unreachable: r < total")
