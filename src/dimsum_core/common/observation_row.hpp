// How a game's observe writes a row. Two ways, each for the games it measured faster in:
//
// 1. One body per game written against a Row, instantiated twice (Yum Cha):
// - DenseRow: the per-move API's observe (and BatchEnv's final observations): the row is zeroed
//   first, then every write lands. What G::observe always did.
// - SparseRow: BatchEnv's row of an env, rewritten every step. Most observations are one-hot,
//   bit-set and count slices, mostly zero, and most of them the same as a step before (Yum
//   Cha: 212 floats, about 28 non-zero; its dense write was most of an env-step). Not for every
//   game: a large row (Dim Sum Jam's 4.4 KB) costs its cache lines more than its instructions,
//   and the scattered stores were slower there than a memset (docs/PERFORMANCE.md, "BatchEnv
//   rows updated in place"). A SparseRow keeps two bitmaps per
//   env: `before`, the entries the env's last write left non-zero, and `now`, those this write
//   sets. A value is stored only if non-zero; a bit-set slice (set_ones) stores only the ones
//   that were not there before; finish_sparse_row then zeroes what `before` had and `now` has
//   not. Cost ~ the non-zeros of the value slices plus what changed in the bit-set slices, not
//   the row's size.
//
// 2. Changes from what the row was written for (the change_* helpers below; Dim Sum Jam's
//   observe_changes): BatchEnv keeps the state and seat each env's row was last written from,
//   and the game compares them with the ones to show, slice by slice, in the terms its writes
//   take (a one-hot index, a bit mask, a count), storing only the entries whose value differs.
//   An unchanged slice costs a compare and no store, so a step touches the cache lines of what
//   changed (a few of a 69-line row), not the row; nothing is zeroed that was not set. (Dim Sum
//   Jam also reads a table's counts back from the row when one icon space changed, and moves
//   them by one.)
//
// DenseRow and SparseRow give the same bits, given a game body that
// - writes each entry at most once, with set() (a value), set_ones() (1.0f at a mask's bits),
//   set_counts() (a run of 4-bit counts, written whole in both rows) or put() (a value, stored
//   whatever it is);
// - uses set_counts and put on entries that are written by them at every write, never by set
//   or set_ones (SparseRow marks neither: finish_sparse_row leaves such entries alone);
// - uses set_ones only on entries that only ever hold 0 or 1.0f (a row's layout is fixed for a
//   config, so an entry marked in `before` within such a slice holds 1.0f).
// A SparseRow skips a value only when its bits are all zero (+0.0f, what a zeroed entry holds;
// -0.0f is stored and marked). It relies on the row holding what its last write left there:
// BatchEnv's rows are documented as the env's to write (docs/API.md, "Arrays are the env's
// own"), and reset() and set_state rewrite them whole. The change_* helpers rely on the same.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <array>
#include <cstring>
// DIMSUM_PORTABLE_COUNTS: write_nibble_counts' and write_byte_counts' portable loops on x86_64 too
// (to check here that they give the same bits: they are what aarch64 and s390x run)
#if (defined(__SSE2__) || defined(_M_X64)) && !defined(DIMSUM_PORTABLE_COUNTS)
#define DIMSUM_SSE2_COUNTS 1
#include <emmintrin.h>
#endif

namespace dimsum {

// 64-bit words of one SparseRow bitmap for a row of `size` floats.
constexpr int sparse_row_words(int size) { return (size + 63) / 64; }

// Entries out[0, n) = the n lowest 4-bit counts of `word` (Counts64's layout), as floats; n <= 16.
// A count slice written whole. With SSE2 (every x86_64) a full word is 16 floats in about 16
// instructions: the nibbles split into bytes, widened, converted, four stores. Visiting only the
// kinds present cost about 30 instructions a kind (a bit scan, a reload of the word, a test and a
// mark: Yum Cha's observe_sparse, 1,270 instructions an env-step for about 26 non-zero entries),
// and a scalar loop over the entries about 11 an entry, more than either. Elsewhere (and for a
// partial word) the scalar loop; the values are the same: 0..15 convert to float exactly.
inline void write_nibble_counts(float* out, uint64_t word, int n) {
#if defined(DIMSUM_SSE2_COUNTS)
  if (n == 16) {
    const __m128i w = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(&word));
    const __m128i low_nibble = _mm_set1_epi8(15);
    // count 2b is byte b's low nibble, count 2b + 1 its high one: interleaved, count k is byte k
    const __m128i bytes =
        _mm_unpacklo_epi8(_mm_and_si128(w, low_nibble), _mm_and_si128(_mm_srli_epi64(w, 4), low_nibble));
    const __m128i zero = _mm_setzero_si128();
    const __m128i first8 = _mm_unpacklo_epi8(bytes, zero), last8 = _mm_unpackhi_epi8(bytes, zero);
    _mm_storeu_ps(out, _mm_cvtepi32_ps(_mm_unpacklo_epi16(first8, zero)));
    _mm_storeu_ps(out + 4, _mm_cvtepi32_ps(_mm_unpackhi_epi16(first8, zero)));
    _mm_storeu_ps(out + 8, _mm_cvtepi32_ps(_mm_unpacklo_epi16(last8, zero)));
    _mm_storeu_ps(out + 12, _mm_cvtepi32_ps(_mm_unpackhi_epi16(last8, zero)));
    return;
  }
#endif
  for (int k = 0; k < n; ++k, word >>= 4) out[k] = static_cast<float>(static_cast<int>(word & 15));
}

// Entries out[0, n) = the n lowest 8-bit counts of `word` (a count a byte, as Nice Buns' Buns
// word), as floats; n is 4 or 5. With SSE2 the first four are widened and converted together, one
// store (about 6 instructions, where GCC's own vectorisation of the loop took about 18), the fifth
// on its own; elsewhere the loop. 0..255 convert to float exactly: the same bits either way.
inline void write_byte_counts(float* out, uint64_t word, int n) {
#if defined(DIMSUM_SSE2_COUNTS)
  const __m128i zero = _mm_setzero_si128();
  const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(&word));
  _mm_storeu_ps(out, _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_unpacklo_epi8(bytes, zero), zero)));
  if (n > 4) out[4] = static_cast<float>(static_cast<int>(word >> 32 & 255u));
#else
  for (int k = 0; k < n; ++k) out[k] = static_cast<float>(static_cast<int>(word >> (8 * k) & 255u));
#endif
}

// kFourBitFloats[m][k]: bit k of the four-bit mask m as a float (0.0f or 1.0f). A bit slice of up
// to four entries is one 16-byte copy of its row (write_four_bits), not a shift, mask, convert and
// store each; the policy network builds an action mask's input from it four actions at a time.
inline constexpr std::array<std::array<float, 4>, 16> kFourBitFloats = [] {
  std::array<std::array<float, 4>, 16> table{};
  for (unsigned m = 0; m < 16; ++m)
    for (unsigned k = 0; k < 4; ++k) table[m][k] = static_cast<float>(m >> k & 1u);
  return table;
}();

// Entries out[0, n) = the low n bits of `mask` (n <= 4) as floats, zeros stored too.
inline void write_four_bits(float* out, unsigned mask, int n) {
  std::memcpy(out, kFourBitFloats[mask & 15u].data(), sizeof(float) * static_cast<size_t>(n));
}

struct DenseRow {
  float* out;
  void set(int i, float v) const { out[i] = v; }
  // entries at .. at + n - 1: the counts of `word` (write_nibble_counts)
  void set_counts(int at, uint64_t word, int n) const { write_nibble_counts(out + at, word, n); }
  // a value stored whatever it is (SparseRow: never marked)
  void put(int i, float v) const { out[i] = v; }
  // 1.0f at entries at + b for every set bit b of `mask`
  void set_ones(int at, uint64_t mask) const {
    for (; mask != 0; mask &= mask - 1) out[at + std::countr_zero(mask)] = 1.0f;
  }
};

struct SparseRow {
  float* out;
  const uint64_t* before;  // [sparse_row_words(size)]: entries the last write left non-zero
  uint64_t* now;           // [sparse_row_words(size)], all zero at the start of the write

  static uint64_t bit(int i) { return uint64_t{1} << (i & 63); }
  void set(int i, float v) const {
    if (std::bit_cast<uint32_t>(v) == 0) return;  // +0.0f: zeroed by finish_sparse_row if needed
    out[i] = v;
    now[i >> 6] |= bit(i);
  }
  void set_ones(int at, uint64_t mask) const {
    if (mask == 0) return;
    const int w = at >> 6, shift = at & 63;
    // the 64 entries from `at` on, as the last write marked them (the mask stays inside the row)
    uint64_t had = before[w] >> shift;
    const uint64_t low = mask << shift;
    now[w] |= low;
    if (shift != 0 && (mask >> (64 - shift)) != 0) {
      had |= before[w + 1] << (64 - shift);
      now[w + 1] |= mask >> (64 - shift);
    }
    for (uint64_t fresh = mask & ~had; fresh != 0; fresh &= fresh - 1) out[at + std::countr_zero(fresh)] = 1.0f;
  }
  // Written whole, zeros included, and never marked: entries written only ever by set_counts
  // (a row's layout is fixed for a config) hold what the last write stored, so finish_sparse_row
  // has nothing to clear there.
  void set_counts(int at, uint64_t word, int n) const { write_nibble_counts(out + at, word, n); }
  // The same for one entry: a store, no test and no mark. For the scalars a row shows every
  // step (sizes, scores, flags): a store costs less than testing for zero and marking.
  void put(int i, float v) const { out[i] = v; }
};

// After a SparseRow write: zeroes the entries `before` marked and `now` did not, then `before`
// becomes `now` (and `now` all zero for the next write).
inline void finish_sparse_row(float* out, uint64_t* before, uint64_t* now, int words) {
  for (int w = 0; w < words; ++w) {
    for (uint64_t stale = before[w] & ~now[w]; stale != 0; stale &= stale - 1)
      out[64 * w + std::countr_zero(stale)] = 0.0f;
    before[w] = now[w];
    now[w] = 0;
  }
}

// A whole row zeroed and its marks with it (BatchEnv's reset and set_state: whatever the caller
// wrote into the row is gone).
inline void zero_sparse_row(float* out, int size, uint64_t* before) {
  std::fill_n(out, size, 0.0f);
  std::fill_n(before, sparse_row_words(size), uint64_t{0});
}

// -- Changes: a slice moved from what it showed (`was`) to what it shows (`now`) ----------------
// Each stores only the entries whose value differs, the values a zeroed row written from `now`
// holds (+0.0f where nothing is shown), so a row kept up to date this way is bit for bit the
// row written whole.

// A one-hot slice: 1.0f at `now` (none if < 0), 0.0f at `was` (none if < 0).
inline void change_one_hot(float* out, int was, int now) {
  if (was == now) return;
  if (was >= 0) out[was] = 0.0f;
  if (now >= 0) out[now] = 1.0f;
}

// A bit-set slice: entry b * stride is 1.0f if bit b of `now` is set, else 0.0f (stride 2: every
// other entry, one of two interleaved slices).
// Two loops, the bits gone then the bits new: a store a changed bit and no test of its value
// (a row passes from seat to seat, and its hands slice changes some 40 entries a step).
inline void change_bits(float* out, uint64_t was, uint64_t now, int stride = 1) {
  for (uint64_t gone = was & ~now; gone != 0; gone &= gone - 1) out[std::countr_zero(gone) * stride] = 0.0f;
  for (uint64_t fresh = now & ~was; fresh != 0; fresh &= fresh - 1) out[std::countr_zero(fresh) * stride] = 1.0f;
}

}  // namespace dimsum
