// Every random event of every game goes through one of these small functions, so that an
// explicit-chance mode (chance nodes with exact probabilities) can be added later without
// touching the rules. Each is the twin of a method of python/dimsum/reference/rng.py.
#pragma once

#include <cstdint>

#include "bits.hpp"
#include "rng.hpp"

namespace dimsum {

// One item drawn uniformly from a multiset of up to 64 kinds (a deck, a bag); returns its
// kind. `total` is the number of items (> 0). Twin of Rng.draw_index(counts): one bounded
// integer below the total, then a walk through the kinds in index order.
inline int draw_kind(Rng& rng, const Counts64& counts, int total) {
  uint64_t r = rng.bounded(static_cast<uint64_t>(total));
  for (int word = 0; word < 4; ++word) {
    const uint64_t w = counts.w[word];
    const uint64_t in_word = static_cast<uint64_t>(Counts64::sum_word(w));
    if (r >= in_word) {
      r -= in_word;
      continue;
    }
    for (int k = 0;; ++k) {
      const uint64_t c = (w >> (4 * k)) & 15u;
      if (r < c) return word * 16 + k;
      r -= c;
    }
  }
  return -1;  // unreachable when total is right
}

// A die with `faces` faces: the face index, uniform. Twin of Rng.bounded(faces).
inline int roll_die(Rng& rng, int faces) { return static_cast<int>(rng.bounded(static_cast<uint64_t>(faces))); }

}  // namespace dimsum
