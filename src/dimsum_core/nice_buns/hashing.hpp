// Nice Buns' Zobrist keys and the helpers that keep State::hash up to date.
// Internal to the nice_buns folder.
//
// The key is the XOR of
// - one key per (holder, kind, count) for the buns in front of each seat and on the tray
//   (updated on every change by change_count);
// - one key for the scalar block (turn, phase, dice, split, cascade, fish, plates, ...): a
//   turn touches many of these small fields, so the block is keyed as a whole, taken out of
//   the hash when apply starts and put back when it ends (ScalarBlockGuard).
//   Why not ScalarKeys<kSalt>::set per field (common/zobrist.hpp), as the other games do: one
//   apply writes up to a dozen of these fields, several of them many times (die, draws_left,
//   cascade, phase and fish_on change at every step of settle's loop), and each write would cost
//   two key computations; the block costs eight splitmix64 per apply whatever changed, and keeps
//   the rules free of hash bookkeeping. It also leaves no field unhashed by oversight: every byte
//   of the block is in the key.
// The bag is not hashed: it is everything not elsewhere. The RNG is not part of the key.
//
// change_count and ScalarBlockGuard take `kKeyed` (common/engine.hpp, "Key upkeep"): true for
// apply, which keeps the key exact; false for apply_unkeyed, where the same change leaves the key
// alone and the compiler drops the key's arithmetic (table reads and mixes) as dead code.
#pragma once

#include <array>
#include <cstring>

#include "../common/byte_order.hpp"
#include "../common/zobrist.hpp"
#include "byte_layout.hpp"
#include "engine.hpp"

namespace dimsum::nice_buns {

inline constexpr uint64_t kSalt = 0x4E49434542554E01ull;  // "NICEBUN" + table version
inline constexpr int kHolderTray = kMaxPlayers, kHolders = kMaxPlayers + 1;
inline constexpr int kTabledCounts = 16;  // counts at rest are below 16; larger ones are computed
inline constexpr auto kBunKeys = zobrist_table<kHolders * kKinds * kTabledCounts>(kSalt);

constexpr uint64_t bun_key(int holder, int kind, int count) {
  if (count == 0) return 0;
  const int slot = holder * kKinds + kind;
  return count < kTabledCounts ? kBunKeys[slot * kTabledCounts + count] : scalar_key(kSalt, 64 + slot, count);
}

inline constexpr int kBlockWords = static_cast<int>(kScalarBlockBytes / 8);
inline constexpr auto kBlockSalts = zobrist_table<kBlockWords>(kSalt ^ 0xB10C);

// The scalar block as four words read little-endian from the state's little-endian bytes
// (common/byte_order.hpp), so that the key is the same on every host: on a little-endian one
// this is the memcpy it always was; on a big-endian one `turn` (the only wider field) and each
// word are turned around first.
inline void scalar_block_words(const State& s, uint64_t (&words)[kBlockWords]) {
  if constexpr (kLittleEndianHost) {
    std::memcpy(words, &s.turn, kScalarBlockBytes);
  } else {
    unsigned char bytes[sizeof(State)];
    store_little_endian(s, bytes);
    for (int i = 0; i < kBlockWords; ++i)
      words[i] = load_little_endian_bytes(bytes + offsetof(State, turn) + 8 * i, 8);
  }
}

// The key of the scalar block: each of its four words mixed with its own salt (splitmix64 is
// a bijection with full avalanche, so distinct blocks get unrelated keys).
inline uint64_t scalar_block_key(const State& s) {
  uint64_t words[kBlockWords];
  scalar_block_words(s, words);
  uint64_t h = 0;
  for (int i = 0; i < kBlockWords; ++i) h ^= splitmix64(words[i] ^ kBlockSalts[i]);
  return h;
}

// kBunSteps[slot * kTabledCounts + n]: the key change when a count goes from n to n + 1 (or back),
// bun_key(n) ^ bun_key(n + 1) in one load; most changes are one bun (a draw, a take, a move).
inline constexpr auto kBunSteps = [] {
  std::array<uint64_t, kHolders * kKinds * kTabledCounts> steps{};
  for (int slot = 0; slot < kHolders * kKinds; ++slot)
    for (int n = 0; n + 1 < kTabledCounts; ++n)
      steps[slot * kTabledCounts + n] = (n ? kBunKeys[slot * kTabledCounts + n] : 0) ^ kBunKeys[slot * kTabledCounts + n + 1];
  return steps;
}();

// The key's change when `delta` (not 0) buns of `kind` are added to `where`, held by `holder`.
inline void key_count_change(State& s, int holder, const Buns& where, int kind, int delta) {
  const int before = where.get(kind);
  const int low = delta < 0 ? before + delta : before;  // the smaller of the two counts
  if ((delta == 1 || delta == -1) && low + 1 < kTabledCounts)
    s.hash ^= kBunSteps[(holder * kKinds + kind) * kTabledCounts + low];
  else
    s.hash ^= bun_key(holder, kind, before) ^ bun_key(holder, kind, before + delta);
}

// Adds `delta` (may be negative) buns of `kind` to `where`, held by `holder`, keeping the key
// when kKeyed.
template <bool kKeyed = true>
inline void change_count(State& s, int holder, Buns& where, int kind, int delta) {
  if constexpr (kKeyed) key_count_change(s, holder, where, kind, delta);
  if (delta >= 0) where.add(kind, delta);
  else where.sub(kind, -delta);
}

// Keeps the scalar block's share of the key across one apply: the words as they were are kept
// when the guard is made, and when it goes only the words that changed are re-keyed (a split
// changes one word, most steps two: two or four splitmix64 instead of eight). The key is the same
// as scalar_block_key's, word for word. ScalarBlockGuard<false> (apply_unkeyed) does nothing.
template <bool kKeyed = true>
struct ScalarBlockGuard {
  State& s;
  uint64_t before[kBlockWords];
  explicit ScalarBlockGuard(State& state) : s(state) { scalar_block_words(s, before); }
  ~ScalarBlockGuard() {
    uint64_t after[kBlockWords];
    scalar_block_words(s, after);
    for (int i = 0; i < kBlockWords; ++i)
      if (after[i] != before[i])
        s.hash ^= splitmix64(before[i] ^ kBlockSalts[i]) ^ splitmix64(after[i] ^ kBlockSalts[i]);
  }
  ScalarBlockGuard(const ScalarBlockGuard&) = delete;
  ScalarBlockGuard& operator=(const ScalarBlockGuard&) = delete;
};

template <>
struct ScalarBlockGuard<false> {
  explicit ScalarBlockGuard(State&) {}
  ScalarBlockGuard(const ScalarBlockGuard&) = delete;
  ScalarBlockGuard& operator=(const ScalarBlockGuard&) = delete;
};

}  // namespace dimsum::nice_buns
