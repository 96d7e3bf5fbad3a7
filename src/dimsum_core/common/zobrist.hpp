// Zobrist keys: fixed tables generated at compile time from a fixed seed, so a position has
// the same 64-bit key on every platform and in every build.
#pragma once

#include <array>
#include <cstdint>

#include "rng.hpp"

namespace dimsum {

// `N` keys drawn from splitmix64 streams seeded by `salt`; one table per game and purpose.
template <size_t N>
constexpr std::array<uint64_t, N> zobrist_table(uint64_t salt) {
  std::array<uint64_t, N> keys{};
  for (size_t i = 0; i < N; ++i) keys[i] = splitmix64(salt ^ splitmix64(i));
  return keys;
}

// The key of a small scalar field (phase, a score, whose turn) with value `value`.
// Computed, not tabled: scalar fields take values from ranges too wide for a table, and
// the key must stay the same whatever the range.
constexpr uint64_t scalar_key(uint64_t salt, int field, int64_t value) {
  return splitmix64(salt ^ (static_cast<uint64_t>(field) << 40) ^ static_cast<uint64_t>(value + (1 << 20)));
}

// A game's scalar fields (phase, whose turn, a score), each keyed by its field number and value
// under the game's salt. set() changes a field and its share of the position's key together.
template <uint64_t Salt>
struct ScalarKeys {
  static constexpr uint64_t key(int field, int64_t value) { return scalar_key(Salt, field, value); }

  template <typename T>
  static void set(uint64_t& hash, int field, T& ref, int64_t value) {
    hash ^= key(field, ref) ^ key(field, value);
    ref = static_cast<T>(value);
  }
};

}  // namespace dimsum
