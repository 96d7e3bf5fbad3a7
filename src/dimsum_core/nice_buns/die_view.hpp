// What the die at s.die can do, read once from the position (DieView), and the three things the
// rules ask of it without writing its list: how many options it has, its only option when there
// is one, and an option drawn uniformly as the list would give it. rules.cpp's die_options
// writes the list itself; these must agree with it entry for entry (tests/test_random_action.py
// and the goldens check it). Internal to the nice_buns folder.
//
// Each is for a face action known at compile time (kAction, a template argument): settle and
// random_action switch on the face once (with_face_action) and play the die with these, with no
// further test of the face, a branch that goes whichever way the dice fell and so mispredicts.
// DieView also has a constructor that reads the face (die_options, which switches on it itself).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>

#include "../common/bits.hpp"
#include "../common/rng.hpp"
#include "engine.hpp"

namespace dimsum::nice_buns {

// The kinds that may change hands (NB-6): not a fish head unless fish_movable.
constexpr unsigned movable_kinds(const Config& c) { return c.fish_movable ? 0x1Fu : 0x0Fu; }

// The number of set bits of a mask of kinds (five bits): a table, as std::popcount is a libgcc
// call on the baseline x86-64 this builds for.
inline constexpr uint8_t kKindsIn[32] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                         1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5};

// What the die at s.die can act on, read once: the holder, the movable kinds each seat holds
// (the holder's own entry 0 in `held`, so that loops over the others need no test) and how many
// (seat, kind) pairs the others hold. die_options lists from it; settle counts from it and, in a
// rollout, draws the decision from the same view (pick_die_option).
struct DieView {
  const Face& face;
  int h;
  unsigned mine;                  // movable kinds the holder has
  unsigned held[kMaxPlayers];     // movable kinds each other seat has, 0 for the holder (steal, swap)
  int others;                     // sum of kKindsIn[held[t]]

  // The view of the die at s.die, whose face's action is kAction.
  template <int kAction>
  DieView(const Config& c, const State& s, std::integral_constant<int, kAction>)
      : DieView(c, s, face_of(c, s, s.die), kAction) {}
  // The same, the face read here.
  DieView(const Config& c, const State& s) : DieView(c, s, face_of(c, s, s.die), face_of(c, s, s.die).action) {}

 private:
  // Both of the above: `action` is the face's, a constant where the caller's is (inlined, the
  // tests on it fold away).
  DIMSUM_FORCE_INLINE DieView(const Config& c, const State& s, const Face& f, int action)
      : face(f), h(holder_of(c, s, s.die)) {
    const unsigned movable = movable_kinds(c);
    mine = action == kTake ? 0u : s.front[h].present() & movable;  // a take reads the tray only
    others = 0;
    if (action == kSteal || action == kSwap) {
      for (int t = 0; t < c.players; ++t) {
        held[t] = t == h ? 0u : s.front[t].present() & movable;
        others += kKindsIn[held[t]];
      }
    }
  }
};

// f(std::integral_constant<int, action>{}) for the face action `action` (not kDraw): the one
// switch on the face.
template <class F>
inline auto with_face_action(int action, F&& f) {
  switch (action) {
    case kTake: return f(std::integral_constant<int, kTake>{});
    case kPutBack: return f(std::integral_constant<int, kPutBack>{});
    case kGive: return f(std::integral_constant<int, kGive>{});
    case kSteal: return f(std::integral_constant<int, kSteal>{});
    default: return f(std::integral_constant<int, kSwap>{});
  }
}

// The one (seat, kind) pair the other seats hold, when others == 1.
inline void only_held(const Config& c, const DieView& v, int& seat, int& kind) {
  for (int t = 0; t < c.players; ++t)
    if (v.held[t]) {
      seat = t;
      kind = std::countr_zero(v.held[t]);
      return;
    }
}

// How many entries die_options lists before 'pass' (a die of face action kAction).
template <int kAction>
inline int options_before_pass(const Config& c, const State& s, const DieView& v) {
  if constexpr (kAction == kTake) return kKindsIn[v.face.colours & s.tray.present()];
  else if constexpr (kAction == kPutBack) return kKindsIn[v.mine];
  else if constexpr (kAction == kGive) return kKindsIn[v.mine] * (c.players - 1);
  else if constexpr (kAction == kSteal) return v.others;
  else return v.others * kKindsIn[v.mine];  // kSwap
}

// The only entry die_options lists when options_before_pass is 1, found from the masks.
template <int kAction>
inline int only_option(const Config& c, const State& s, const DieView& v) {
  if constexpr (kAction == kTake) {
    return Config::kTake + std::countr_zero(v.face.colours & s.tray.present());
  } else if constexpr (kAction == kPutBack) {
    return Config::kPutBack + std::countr_zero(v.mine);
  } else if constexpr (kAction == kGive) {
    return c.give_action(std::countr_zero(v.mine), 1 - v.h);  // two players: the other seat
  } else {  // kSteal, kSwap: one (seat, kind) pair held by the others
    int t = 0, k = 0;
    only_held(c, v, t, k);
    return kAction == kSteal ? c.steal_action(k, t) : c.swap_action(std::countr_zero(v.mine), t, k);
  }
}

// r / d for a rank in a die's list by the list's group size (d <= 25 seats x kinds, r < 125): a
// multiply by the rounded-up reciprocal, exact while r < 2^16 / d, as a division costs tens of
// cycles and a rollout draws one a step.
inline constexpr auto kReciprocal = [] {
  std::array<uint32_t, 33> table{};
  for (uint32_t d = 1; d < table.size(); ++d) table[d] = (65536u + d - 1) / d;
  return table;
}();
constexpr int small_quotient(int r, int d) { return static_cast<int>((static_cast<uint32_t>(r) * kReciprocal[d]) >> 16); }
static_assert([] {
  for (int d = 1; d <= 32; ++d)
    for (int r = 0; r < 256; ++r)
      if (small_quotient(r, d) != r / d) return false;
  return true;
}(), "small_quotient is r / d for every r < 256, d <= 32");

// One of the die's options as die_options lists them (the same count and order), drawn:
// rng.bounded(the list's length), then the entry of that index found from the masks by rank, the
// list never written. `n` is options_before_pass(c, s, v), at least 1.
template <int kAction>
inline int pick_die_option(const Config& c, const State& s, const DieView& v, int n, Rng& rng) {
  const int P = c.players;
  const unsigned mine = v.mine;
  const int r = static_cast<int>(rng.bounded(static_cast<uint64_t>(n + (c.mandatory_dice ? 0 : 1))));
  if (r == n) return c.pass;  // the largest action, listed last
  if constexpr (kAction == kTake) {
    return Config::kTake + kSelectInByte[v.face.colours & s.tray.present()][r];
  } else if constexpr (kAction == kPutBack) {
    return Config::kPutBack + kSelectInByte[mine][r];
  } else if constexpr (kAction == kGive) {  // by kind, then by the other seats in order (the holder skipped)
    const int kind = small_quotient(r, P - 1), seat = r - kind * (P - 1);
    return c.give_action(kSelectInByte[mine][kind], seat + (seat >= v.h ? 1 : 0));
  } else if constexpr (kAction == kSteal) {  // by kind, then by the seats holding it
    if (P == 2) return c.steal_action(kSelectInByte[v.held[1 - v.h]][r], 1 - v.h);  // one other seat
    int rank = r;
    for (int k = 0; k < kKinds; ++k) {
      unsigned seats = 0;
      for (int t = 0; t < P; ++t) seats |= (v.held[t] >> k & 1u) << t;
      const int holding = count_bits(seats);
      if (rank < holding) return c.steal_action(k, kSelectInByte[seats][rank]);
      rank -= holding;
    }
    return -1;  // unreachable: r < others
  } else {  // kSwap: by my kind, then by seat, then by their kind
    const int group = small_quotient(r, v.others);
    const int a = kSelectInByte[mine][group];
    int rank = r - group * v.others;
    for (int t = 0; t < P; ++t) {
      const int theirs = kKindsIn[v.held[t]];
      if (rank < theirs) return c.swap_action(a, t, kSelectInByte[v.held[t]][rank]);
      rank -= theirs;
    }
    return -1;  // unreachable: rank < others
  }
}

}  // namespace dimsum::nice_buns
