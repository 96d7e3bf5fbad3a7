// Bit helpers shared by every game: iterate set bits, and 64 four-bit counts in 256 bits.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "byte_order.hpp"

namespace dimsum {

// Calls f(index) for each set bit of `mask`, lowest first (a fixed order: results never
// depend on iteration order).
template <typename F>
inline void for_each_bit(uint64_t mask, F&& f) {
  while (mask) {
    f(std::countr_zero(mask));
    mask &= mask - 1;
  }
}

// Bits set in each byte of x.
constexpr uint64_t byte_counts(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  return (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
}

// The number of set bits: the popcnt instruction wherever the compiler may emit it inline, else
// written out. GCC and Clang on baseline x86-64 (the portable wheel, -march=x86-64: no popcnt
// before SSE4.2) make std::popcount a call into libgcc (__popcountdi2), and the written-out
// count inlines (Dim Sum Jam's random step loop measured about 10% faster with it). A build for
// x86-64-v2 or newer (__POPCNT__), aarch64 (cnt) and MSVC (which checks the CPU once, inline)
// get the instruction. Not done: a CPU check before a popcnt in a target("popcnt") function,
// which cannot inline into baseline code, so every count would be a call again.
// -DDIMSUM_INLINE_POPCOUNT=0 or =1 forces either branch (the golden program, .ci/golden, runs
// both on one machine, so that no branch ships untested).
#ifndef DIMSUM_INLINE_POPCOUNT
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__) && !defined(_MSC_VER)
#define DIMSUM_INLINE_POPCOUNT 0
#else
#define DIMSUM_INLINE_POPCOUNT 1
#endif
#endif

constexpr int count_bits(uint64_t mask) {
#if DIMSUM_INLINE_POPCOUNT
  return std::popcount(mask);
#else
  return static_cast<int>((byte_counts(mask) * 0x0101010101010101ull) >> 56);
#endif
}

// set_bit_table<T, Masks>()[m][r]: the index of the r-th set bit of mask m (m < Masks <= 256),
// ascending, as a T; entries past m's count are 0. Eight entries a mask, so that a row can be
// read (or copied into vector lanes) whole.
template <class T, int Masks>
constexpr std::array<std::array<T, 8>, Masks> set_bit_table() {
  static_assert(Masks >= 1 && Masks <= 256, "masks of at most eight bits");
  std::array<std::array<T, 8>, Masks> table{};
  for (int m = 0; m < Masks; ++m)
    for (int i = 0, r = 0; i < 8; ++i)
      if (m >> i & 1) table[m][r++] = static_cast<T>(i);
  return table;
}

// kSelectInByte[b][r]: the index of the r-th set bit of byte b.
inline constexpr auto kSelectInByte = set_bit_table<uint8_t, 256>();

// kBitsOfSix[m]: the set bits of a six-bit mask (kinds, seats), ascending, as int16 (the type of
// an action list's entries), padded to eight.
inline constexpr auto kBitsOfSix = set_bit_table<int16_t, 64>();

// The index of the k-th (0-based, ascending) set bit of `mask`, which has more than k bits:
// the byte holding it from the bytes' running counts, then a 2 KB table inside that byte (which
// measured faster than walking the byte's bits in Dim Sum Jam's random step loop, where each
// token and card drawn is a kth_bit).
inline int kth_bit(uint64_t mask, int k) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  const uint64_t running = byte_counts(mask) * kOnes;  // byte i: bits set in bytes 0..i
  // high bit of byte i set when running_i <= k (every running count is below 128)
  const uint64_t at_most_k = ((static_cast<uint64_t>(k) * kOnes) | kHigh) - running;
  const int byte = std::countr_zero(~at_most_k & kHigh) >> 3;
  if (byte > 7) return -1;  // unreachable when k < the number of set bits
  const int rank = k - (byte ? static_cast<int>((running >> (8 * byte - 8)) & 0xFFu) : 0);
  return 8 * byte + kSelectInByte[(mask >> (8 * byte)) & 0xFFu][rank & 7];
}

inline constexpr uint64_t kLowNibbleBits = 0x1111111111111111ull;

// A multiset over up to 64 kinds with at most 15 of each: four bits a kind, sixteen kinds a
// word. A hand of cards is one of these; adding a card is one add, and the kinds present
// are a mask computed in a few operations, not a loop over kinds.
struct Counts64 {
  uint64_t w[4];

  static constexpr int shift(int kind) { return (kind & 15) * 4; }
  constexpr int get(int kind) const { return static_cast<int>((w[kind >> 4] >> shift(kind)) & 15u); }
  constexpr void add(int kind) { w[kind >> 4] += 1ull << shift(kind); }
  constexpr void sub(int kind) { w[kind >> 4] -= 1ull << shift(kind); }
  constexpr void set(int kind, int count) {
    w[kind >> 4] = (w[kind >> 4] & ~(15ull << shift(kind))) | (static_cast<uint64_t>(count) << shift(kind));
  }
  constexpr void clear() { w[0] = w[1] = w[2] = w[3] = 0; }
  constexpr bool empty() const { return (w[0] | w[1] | w[2] | w[3]) == 0; }

  // Bit 4k of the result is set when kind 16*word + k is present.
  static constexpr uint64_t present_nibbles(uint64_t x) {
    return (x | (x >> 1) | (x >> 2) | (x >> 3)) & kLowNibbleBits;
  }
  // Calls f(kind) for every kind present, in increasing order.
  template <typename F>
  void for_each_present(F&& f) const {
    for (int word = 0; word < 4; ++word)
      for_each_bit(present_nibbles(w[word]), [&](int bit) { f(word * 16 + bit / 4); });
  }
  // Number of items (sum of all counts).
  static constexpr int sum_word(uint64_t x) {
    const uint64_t bytes = (x & 0x0F0F0F0F0F0F0F0Full) + ((x >> 4) & 0x0F0F0F0F0F0F0F0Full);
    return static_cast<int>((bytes * 0x0101010101010101ull) >> 56);
  }
  constexpr int total() const { return sum_word(w[0]) + sum_word(w[1]) + sum_word(w[2]) + sum_word(w[3]); }

  friend constexpr bool operator==(const Counts64& a, const Counts64& b) {
    return a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2] && a.w[3] == b.w[3];
  }
};

template <>
struct ByteLayout<Counts64> : Members<&Counts64::w> {};

}  // namespace dimsum
