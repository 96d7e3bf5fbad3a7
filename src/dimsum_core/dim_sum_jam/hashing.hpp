// Dim Sum Jam's Zobrist keys and the setters that keep State::hash up to date on every change.
// The key covers every part of the position, the hourglass included; not the RNG.
// Internal to the dim_sum_jam folder.
//
// Every setter takes `kKeyed` (common/engine.hpp, "Key upkeep"): true for apply, which keeps the
// key exact; false for apply_unkeyed, where the same change leaves the key alone and the compiler
// drops the key's arithmetic (table reads and XORs) as dead code. Only the key's upkeep depends
// on it: the fields change the same way in both, so the two paths play the same games.
#pragma once

#include "../common/bits.hpp"
#include "../common/zobrist.hpp"
#include "engine.hpp"

namespace dimsum::dim_sum_jam {

inline constexpr uint64_t kSalt = 0x44534A414D000001ull;  // "DSJAM" + table version

// Token places that are masks: hands 0..4, the bag, the discard pile. Tokens on cards are
// keyed by their slot (table, icon space, value).
inline constexpr int kLocBag = kMaxPlayers, kLocDiscard = kMaxPlayers + 1, kLocations = kMaxPlayers + 2;
inline constexpr auto kTokenKeys = zobrist_table<kLocations * 64>(kSalt ^ 1);
inline constexpr auto kSlotKeys = zobrist_table<kTables * kMaxIcons * 64>(kSalt ^ 2);
inline constexpr auto kCardKeys = zobrist_table<kTables * 64>(kSalt ^ 3);
inline constexpr auto kOutKeys = zobrist_table<64>(kSalt ^ 4);

constexpr uint64_t token_key(int loc, int t) { return kTokenKeys[loc * 64 + t]; }
// value kEmpty has no key: an empty space adds nothing
constexpr uint64_t slot_key(int k, int i, int value) {
  return value < 0 ? 0 : kSlotKeys[(k * kMaxIcons + i) * 64 + value];
}
constexpr uint64_t card_key(int k, int card) { return card < 0 ? 0 : kCardKeys[k * 64 + card]; }

enum Field : int {
  kFPhase = 1, kFActive, kFDirection, kFDiscarder, kFResume, kFRequired, kFOpeningLeft, kFOutcome,
  kFCase3, kFRedraws, kFDrawPending, kFReverseUsed, kFTeaSupply, kFTeaReception, kFComplaints,
  kFDeckLen, kFDeckVips, kFClockTop, kFClockLying, kFChance, kFShuffleLeft,
};

// The one setter of a scalar field: Keys::set changes the field and its share of the key together.
// The keys are ScalarKeys<kSalt>'s (common/zobrist.hpp), read from a table for the small values
// every field but deck_vips takes, and a set that changes nothing costs nothing: a turn sets five
// or six fields, and computing two keys for each measured slower in the random step loop.
struct Keys {
  static constexpr int kFields = kFShuffleLeft + 1, kSmallValues = 128;  // values -1..126 are tabled
  static constexpr auto kSmall = [] {
    std::array<uint64_t, kFields * kSmallValues> keys{};
    for (int f = 0; f < kFields; ++f)
      for (int v = -1; v < kSmallValues - 1; ++v) keys[f * kSmallValues + v + 1] = ScalarKeys<kSalt>::key(f, v);
    return keys;
  }();

  static constexpr uint64_t key(int field, int64_t value) {
    return value >= -1 && value < kSmallValues - 1 ? kSmall[field * kSmallValues + value + 1]
                                                   : ScalarKeys<kSalt>::key(field, value);
  }

  template <bool kKeyed = true, typename T>
  static void set(uint64_t& hash, int field, T& ref, int64_t value) {
    if constexpr (kKeyed) {
      if (static_cast<int64_t>(ref) == value) return;
      hash ^= key(field, ref) ^ key(field, value);
    }
    ref = static_cast<T>(value);
  }
};

// The fields of explicit chance (chance, shuffle_left) add nothing to the key at 0, so that a
// sampled state, where they are always 0, keeps the key it had before they existed.
inline uint64_t pending_key(int field, int value) { return value ? Keys::key(field, value) : 0; }

template <bool kKeyed = true>
inline void set_pending(State& s, int field, uint8_t& ref, int value) {
  if constexpr (kKeyed) s.hash ^= pending_key(field, ref) ^ pending_key(field, value);
  ref = static_cast<uint8_t>(value);
}

inline uint64_t mask_keys(int loc, uint64_t mask) {
  uint64_t h = 0;
  for_each_bit(mask, [&](int t) { h ^= token_key(loc, t); });
  return h;
}

inline uint64_t clock_keys(const TickClock& c) {
  return Keys::key(kFClockTop, c.top) ^ Keys::key(kFClockLying, c.lying);
}

template <bool kKeyed = true>
inline void add_token(State& s, int loc, uint64_t& where, int t) {
  if constexpr (kKeyed) s.hash ^= token_key(loc, t);
  where |= 1ull << t;
}

template <bool kKeyed = true>
inline void remove_token(State& s, int loc, uint64_t& where, int t) {
  if constexpr (kKeyed) s.hash ^= token_key(loc, t);
  where &= ~(1ull << t);
}

template <bool kKeyed = true>
inline void set_slot(State& s, int k, int i, int value) {
  if constexpr (kKeyed) s.hash ^= slot_key(k, i, s.slots[k][i]) ^ slot_key(k, i, value);
  s.slots[k][i] = static_cast<int8_t>(value);
  if (value == kEmpty) s.empty_slots[k] = static_cast<uint8_t>(s.empty_slots[k] | (1u << i));
  else s.empty_slots[k] = static_cast<uint8_t>(s.empty_slots[k] & ~(1u << i));
}

template <bool kKeyed = true>
inline void set_card(State& s, int k, int card) {
  if constexpr (kKeyed) s.hash ^= card_key(k, s.table_card[k]) ^ card_key(k, card);
  s.table_card[k] = static_cast<int8_t>(card);
}

// Runs f on the clock and updates the key for whatever f changed.
template <bool kKeyed = true, typename F>
inline void change_clock(State& s, F&& f) {
  if constexpr (kKeyed) s.hash ^= clock_keys(s.clock);
  f(s.clock);
  if constexpr (kKeyed) s.hash ^= clock_keys(s.clock);
}

// A card leaves the game (fulfilled).
template <bool kKeyed = true>
inline void put_out(State& s, int card) {
  if constexpr (kKeyed) s.hash ^= kOutKeys[card];
  s.out |= 1ull << card;
}

}  // namespace dimsum::dim_sum_jam
