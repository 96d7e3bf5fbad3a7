// Internal to the policy network's source files (policy_net.cpp: the layers; policy_input.cpp:
// the input row): the instruction sets they are compiled for and which one a CPU runs, GCC's
// four-float vectors, and the listing of non-zero values four at a time. Included first by each:
// it turns off the contraction of a multiply and an add into one fused operation for the rest of
// the file (no compiler may fuse: policy_net.cpp's top says why).
#pragma once

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <cstdint>
#include <cstring>

#if defined(__SSE2__) || defined(_M_X64)
// x86-64 always has SSE2: make_input finds the non-zero values of a group of four with one
// compare and a movemask (the portable fallback tests them one by one).
#include <emmintrin.h>
#define DIMSUM_POLICY_SSE2 1
#endif
#if defined(__GNUC__) && defined(__x86_64__) && defined(__linux__)
// The kernels are compiled for any x86-64 (SSE2) and for AVX and AVX-512 (twice and four times as
// wide), chosen at run time. Not FMA: each lane does the same multiply, then add, as SSE2 and a
// scalar loop do, so every build and every CPU gives the same bits (a fused multiply-add rounds
// once, not twice). GCC and Clang declare every intrinsic whatever the -m flags, each usable in a
// function of that target.
#include <immintrin.h>
#define DIMSUM_POLICY_AVX 1
#define DIMSUM_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define DIMSUM_ALWAYS_INLINE inline
#endif

namespace dimsum::bots::policy_simd {

// The kernels a CPU runs: the widest it has, unless the environment variable DIMSUM_POLICY_ISA
// caps them ("base": SSE2 on x86-64, the portable code elsewhere; "avx"; "avx2", whose layers are
// AVX's and whose input row is eight values at a time; "avx512"), read once. Every width gives the
// same bits; the cap lets one machine check that (tests/test_policy_golden.py).
enum class Isa { kBase = 0, kAvx = 1, kAvx2 = 2, kAvx512 = 3 };
Isa detect_isa();
// Inline, so that a kernel's choice is a load and a compare, not a call (every layer makes one).
inline Isa isa() {
  static const Isa chosen = detect_isa();
  return chosen;
}

#if defined(__GNUC__) && defined(DIMSUM_POLICY_AVX)
// AVX's 8 floats and AVX-512's 16 as GCC vectors: usable in functions of those targets only.
typedef float Floats8 __attribute__((vector_size(32)));
typedef float Floats16 __attribute__((vector_size(64)));
#endif

#if defined(__GNUC__)
// Four values at once with GCC's (and Clang's) vector extension: SSE2 on x86-64, NEON on aarch64.
// A plain loop over tanh_rational is not vectorized: under -ftrapping-math (the default) the
// compiler keeps the comparisons as branches. Here they are lane masks and bitwise selects.
typedef float Floats4 __attribute__((vector_size(16)));
typedef int32_t Ints4 __attribute__((vector_size(16)));
#endif

// Listing a group of four values' non-zero entries without a branch or a loop per value: a
// 4-bit mask of the non-zero lanes picks a row of this table, the lanes set in it (ascending, then
// zeros) and how many, whose four indices are stored at once (append_lanes). A branch per value
// mispredicts on one-hot data, and a branch-free store per value is four dependent steps.
struct LaneTable {
  alignas(16) int32_t lanes[16][4];  // row m: the bits set in m, ascending, then zeros
  int32_t count[16];                 // how many bits m has
};

constexpr LaneTable lane_table() {
  LaneTable t{};
  for (int m = 0; m < 16; ++m) {
    int c = 0;
    for (int k = 0; k < 4; ++k) {
      if ((m >> k & 1) != 0) t.lanes[m][c++] = k;
    }
    t.count[m] = c;
  }
  return t;
}

inline constexpr LaneTable kLaneTable = lane_table();

// Bit k set when x[k] != 0 (k < 4): a NaN counts as non-zero and -0.0 as zero, as `x[k] != 0.0f` has it.
inline unsigned nonzero_lanes(const float* x) {
#ifdef DIMSUM_POLICY_SSE2
  return static_cast<unsigned>(_mm_movemask_ps(_mm_cmpneq_ps(_mm_loadu_ps(x), _mm_setzero_ps())));
#else
  return unsigned{x[0] != 0.0f} | unsigned{x[1] != 0.0f} << 1 | unsigned{x[2] != 0.0f} << 2 |
         unsigned{x[3] != 0.0f} << 3;
#endif
}

// Bit k set when bytes[k] != 0 (k < 4): the legal actions among four of a mask.
inline unsigned nonzero_lanes(const uint8_t* bytes) {
#ifdef DIMSUM_POLICY_SSE2
  int32_t word;
  std::memcpy(&word, bytes, sizeof word);
  const __m128i zero_bytes = _mm_cmpeq_epi8(_mm_cvtsi32_si128(word), _mm_setzero_si128());
  return ~static_cast<unsigned>(_mm_movemask_epi8(zero_bytes)) & 0xfu;  // the low four bytes' bits, inverted
#else
  return unsigned{bytes[0] != 0} | unsigned{bytes[1] != 0} << 1 | unsigned{bytes[2] != 0} << 2 |
         unsigned{bytes[3] != 0} << 3;
#endif
}

// Appends base + k for each bit k set in `mask` (4 bits), ascending, to nonzero[n...]; the new n.
// Four indices are stored whatever the count (those past it are junk, overwritten by the next
// append or past the list's end), so nonzero[n + 3] must be in the buffer: it is wherever n is at
// most the index of the group's first value and the group lies in the row (n counts values before it).
inline int append_lanes(unsigned mask, int32_t base, int32_t* nonzero, int n) {
#if defined(__GNUC__)
  // one vector load, add and store (a plain loop of four was compiled as four scalar ones)
  Ints4 indices;
  __builtin_memcpy(&indices, kLaneTable.lanes[mask], sizeof indices);
  indices += base;
  __builtin_memcpy(nonzero + n, &indices, sizeof indices);
#else
  for (int k = 0; k < 4; ++k) nonzero[n + k] = base + kLaneTable.lanes[mask][k];
#endif
  return n + kLaneTable.count[mask];
}

// Appends base + k to nonzero[n...] for each k < count with x[k] != 0, ascending; the new n.
// Four values at a time by the lane table; the last one to three by a branch-free store each
// (the index is written always and kept only when x[k] is not zero). nonzero has room for
// base + count ints, n <= base (see append_lanes).
inline int append_nonzero(const float* x, int count, int32_t base, int32_t* nonzero, int n) {
  int k = 0;
  for (; k + 4 <= count; k += 4) n = append_lanes(nonzero_lanes(x + k), base + k, nonzero, n);
  for (; k < count; ++k) {
    nonzero[n] = base + k;
    n += x[k] != 0.0f;
  }
  return n;
}

}  // namespace dimsum::bots::policy_simd
