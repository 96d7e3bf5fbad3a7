// The draws of random events in sampled mode (engine.hpp, "Chance"): an item from a multiset (a
// deck, a bag), a member of a bit set, a die, a seat. Each is the twin of a method of
// python/dimsum/reference/rng.py, so that the core and the reference engines draw the same
// values from the same generator. In explicit mode the rules stop before such an event instead
// (a chance node) and list its outcomes with their weights (G::chance_outcomes), in the order
// and with the weights (remaining counts) of the draw here, so that drawing the node by weight
// from the same generator (bots/chance.hpp) picks what sampled mode picks: the bots then play
// the same in both modes (tests/test_bots_chance_modes.py checks every game; the one event
// drawn otherwise, Dim Sum Jam's Rng::shuffle of extra VIPs, happens before any decision). A
// game's resample may still use these to redraw what its player cannot see.
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

// One item drawn uniformly from the first `kinds` kinds of any packed multiset with get(kind)
// (Nice Buns' bag). Twin of Rng.draw_index(counts[:kinds]): one bounded integer r below the total,
// and the kind whose run of items holds r. That kind is the number of prefix sums (the first k
// kinds' counts, k = 1..kinds) that are <= r, counted without a branch: the walk's exit, which
// depends on the random r, mispredicted about once a draw (docs/PERFORMANCE.md, issue 26).
template <class Counts>
int draw_kind(Rng& rng, const Counts& counts, int kinds, int total) {
  const uint64_t r = rng.bounded(static_cast<uint64_t>(total));
  uint64_t prefix = 0;
  int kind = 0;
  for (int k = 0; k + 1 < kinds; ++k) {  // the last prefix is the total, always > r
    prefix += static_cast<uint64_t>(counts.get(k));
    kind += prefix <= r;
  }
  return kind;
}

// A uniform member of a non-empty bit set (a token, an unseen card): bounded(popcount), then
// the k-th set bit. Twin of the reference's _kth_bit(mask, rng.bounded(mask.bit_count())).
inline int draw_bit(Rng& rng, uint64_t mask) {
  return kth_bit(mask, static_cast<int>(rng.bounded(static_cast<uint64_t>(count_bits(mask)))));
}

// A die with `faces` faces, or a seat of `players` drawn at random: the index, uniform. Twin of
// Rng.bounded(n).
inline int roll_die(Rng& rng, int faces) { return static_cast<int>(rng.bounded(static_cast<uint64_t>(faces))); }
inline int uniform_seat(Rng& rng, int players) { return roll_die(rng, players); }

}  // namespace dimsum
