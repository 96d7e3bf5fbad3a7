// Where a game's observe writes: one body per game, written against a Row, instantiated twice.
//
// - DenseRow: the per-move API's observe (and BatchEnv's final observations): the row is zeroed
//   first, then every write lands. What G::observe always did.
// - SparseRow: BatchEnv's row of an env, rewritten every step. Most observations are one-hot and
//   count slices, mostly zero, so clearing the whole row each step cost more than everything
//   else (Dim Sum Jam: 1,093 floats, 4.4 KB). A SparseRow keeps, per env, a bitmap of the
//   entries its last write left non-zero: clear_sparse_row zeroes only those, and the new
//   write stores and marks only non-zero values. Cost ~ the non-zeros, not the row's size.
//
// The two give the same bits: a SparseRow skips a write only when the value's bits are all zero
// (+0.0f, what the cleared entry holds already; -0.0f is written and marked), and a game body
// writes each entry at most once with set() or accumulates with add() from zero.
// A SparseRow relies on the row holding what its last write left there: BatchEnv's rows are
// documented as the env's to write (docs/API.md, "Arrays are the env's own"), and reset()
// rewrites them whole.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

namespace dimsum {

// 64-bit words of a SparseRow's bitmap for a row of `size` floats.
constexpr int sparse_row_words(int size) { return (size + 63) / 64; }

struct DenseRow {
  float* out;
  void set(int i, float v) const { out[i] = v; }
  void add(int i, float v) const { out[i] += v; }
};

struct SparseRow {
  float* out;
  uint64_t* nonzero;  // [sparse_row_words(row size)]: entries this row holds non-zero
  void set(int i, float v) const {
    if (std::bit_cast<uint32_t>(v) == 0) return;  // +0.0f: the entry is zero already
    out[i] = v;
    nonzero[i >> 6] |= uint64_t{1} << (i & 63);
  }
  void add(int i, float v) const {
    out[i] += v;
    nonzero[i >> 6] |= uint64_t{1} << (i & 63);
  }
};

// Zeroes the entries `nonzero` marks, and the marks: the row is all +0.0f again, as far as
// SparseRow writes go.
inline void clear_sparse_row(float* out, uint64_t* nonzero, int words) {
  for (int w = 0; w < words; ++w) {
    for (uint64_t bits = nonzero[w]; bits != 0; bits &= bits - 1) out[64 * w + std::countr_zero(bits)] = 0.0f;
    nonzero[w] = 0;
  }
}

// A whole row zeroed and its marks with it (BatchEnv's reset and set_state: whatever the caller
// wrote into the row is gone).
inline void zero_sparse_row(float* out, int size, uint64_t* nonzero) {
  std::fill_n(out, size, 0.0f);
  std::fill_n(nonzero, sparse_row_words(size), uint64_t{0});
}

}  // namespace dimsum
