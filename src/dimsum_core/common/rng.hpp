// The dimsum random number generator: bit for bit the twin of python/dimsum/reference/rng.py.
//
// Why our own: std:: distributions differ between standard libraries, and a seed must
// give the same game on every platform. xoshiro256** seeded through splitmix64,
// Lemire's unbiased bounded integers, Fisher-Yates from the end.
#pragma once

#include <cstdint>
#include <cstddef>

#include "byte_order.hpp"

namespace dimsum {

inline constexpr uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ull;

constexpr uint64_t splitmix64(uint64_t x) noexcept {
  uint64_t z = x + kGoldenGamma;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Seed of sub-stream `stream` (env i of a batch, game i of a playout run).
constexpr uint64_t derive_seed(uint64_t seed, uint64_t stream) noexcept {
  return splitmix64(splitmix64(seed) ^ stream);
}

// 64x64 -> 128 multiply, portable (no __int128 on MSVC). -DDIMSUM_PORTABLE_MUL64 takes MSVC's
// branch where __int128 exists (the golden program, .ci/golden, runs both).
struct U128 { uint64_t hi, lo; };
constexpr U128 mul_64x64(uint64_t a, uint64_t b) noexcept {
#if defined(__SIZEOF_INT128__) && !defined(DIMSUM_PORTABLE_MUL64)
  __extension__ typedef unsigned __int128 u128;  // __extension__: allowed under -Wpedantic
  const u128 m = static_cast<u128>(a) * b;
  return {static_cast<uint64_t>(m >> 64), static_cast<uint64_t>(m)};
#else
  const uint64_t a_lo = a & 0xFFFFFFFFull, a_hi = a >> 32;
  const uint64_t b_lo = b & 0xFFFFFFFFull, b_hi = b >> 32;
  const uint64_t p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
  const uint64_t mid = (p0 >> 32) + (p1 & 0xFFFFFFFFull) + (p2 & 0xFFFFFFFFull);
  return {p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32), (mid << 32) | (p0 & 0xFFFFFFFFull)};
#endif
}

// xoshiro256**: 32 bytes of state, trivially copyable, so it lives inside every game state.
struct Rng {
  uint64_t s[4];

  static constexpr Rng from_seed(uint64_t seed) noexcept {
    Rng r{};
    uint64_t x = seed;
    for (auto& word : r.s) {
      word = splitmix64(x);
      x += kGoldenGamma;
    }
    return r;
  }

  static constexpr uint64_t rotl(uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }

  constexpr uint64_t next_u64() noexcept {
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }

  // Uniform in [0, n), n >= 1: Lemire's multiply-shift with rejection.
  constexpr uint64_t bounded(uint64_t n) noexcept {
    U128 m = mul_64x64(next_u64(), n);
    if (m.lo < n) {
      const uint64_t threshold = (0 - n) % n;
      while (m.lo < threshold) m = mul_64x64(next_u64(), n);
    }
    return m.hi;
  }

  // Fisher-Yates from the end.
  template <typename T>
  constexpr void shuffle(T* items, size_t n) noexcept {
    for (size_t i = n; i > 1; --i) {
      const size_t j = static_cast<size_t>(bounded(i));
      T tmp = items[i - 1];
      items[i - 1] = items[j];
      items[j] = tmp;
    }
  }
};

// Crosses in a state's bytes: four words (common/byte_order.hpp).
template <>
struct ByteLayout<Rng> : Members<&Rng::s> {};

}  // namespace dimsum
