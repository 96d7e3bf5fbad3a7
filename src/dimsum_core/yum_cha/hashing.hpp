// Yum Cha's Zobrist keys and the setters that keep State::hash up to date on every change.
// Internal to the yum_cha folder.
//
// Every setter takes `kKeyed` (engine.hpp, "Key upkeep"): true for apply, which keeps the key
// exact; false for apply_unkeyed, where the same change leaves the key alone and the compiler
// drops the key's arithmetic (pure table reads and mixes) as dead code.
#pragma once

#include <array>

#include "../common/zobrist.hpp"
#include "engine.hpp"

namespace dimsum::yum_cha {

inline constexpr uint64_t kSalt = 0x59554D4348410002ull;  // "YUMCHA" + key scheme version
// Card holders that are hashed: hands 0..5, known 6..11, centre 12. The deck is not: it is
// the full deck minus everything else, so it adds nothing to the key. Nor is the reshuffle
// booking (deck_number, redrawn: redrawn.hpp): it changes no rule, only what resample redraws.
inline constexpr int kHolderKnown = kMaxPlayers, kHolderCentre = 2 * kMaxPlayers, kHolders = 2 * kMaxPlayers + 1;

// A holder's cards are 4 words of 16 packed counts; each word is one Zobrist component whose
// key is the word mixed with a per-(holder, word) salt from a compile-time table. Against a
// table per (holder, card, count) this costs one more multiply per change, but the key of a
// whole state is 4 mixes a holder instead of a walk over every card: it is recomputed (and
// checked) on every state_from_bytes.
inline constexpr auto kWordSalts = zobrist_table<kHolders * 4>(kSalt);

constexpr uint64_t word_key(int holder, int word, uint64_t bits) {
  return bits ? splitmix64(bits ^ kWordSalts[holder * 4 + word]) : 0;
}

constexpr uint64_t holder_key(int holder, const Counts64& c) {
  return word_key(holder, 0, c.w[0]) ^ word_key(holder, 1, c.w[1]) ^ word_key(holder, 2, c.w[2]) ^
         word_key(holder, 3, c.w[3]);
}

enum Field : int {
  kFRound = 1, kFPhase, kFCurrent, kFStarter, kFTurn, kFLastTaken, kFLastDiscard, kFLastDeclarer, kFDrawer,
  kFScore = 16, kFBestRound = 24, kFLastRound = 32, kFDeclarations = 40,
};

using Keys = ScalarKeys<kSalt>;

// The scalar fields every turn changes, their keys tabled over the field's whole range: each
// Keys::key is a splitmix64 (two multiplies), and a turn of two actions sets six of them (two
// keys each). The tables hold the very same keys, so State::hash is unchanged.
template <int Field, int Lo, int Hi>
struct TabledKeys {
  static constexpr auto kTable = [] {
    std::array<uint64_t, Hi - Lo + 1> table{};
    for (int v = Lo; v <= Hi; ++v) table[static_cast<size_t>(v - Lo)] = Keys::key(Field, v);
    return table;
  }();
  static constexpr uint64_t key(int value) { return kTable[static_cast<size_t>(value - Lo)]; }

  template <bool kKeyed = true, typename T>
  static void set(uint64_t& hash, T& ref, int value) {
    if constexpr (kKeyed) hash ^= key(ref) ^ key(value);
    ref = static_cast<T>(value);
  }
};
using PhaseKeys = TabledKeys<kFPhase, kDraw, kDeckDraw>;
using CurrentKeys = TabledKeys<kFCurrent, kChancePlayer, kMaxPlayers - 1>;
using LastTakenKeys = TabledKeys<kFLastTaken, -1, kMaxTypes - 1>;
using LastDiscardKeys = TabledKeys<kFLastDiscard, -1, kMaxTypes - 1>;

// The turn counter only counts up: its table holds key(t) ^ key(t + 1) for the turns of any
// default-sized round (the rest, up to max_turns' 10000, compute both keys).
inline constexpr int kTabledTurns = 512;
inline constexpr auto kTurnStepKeys = [] {
  std::array<uint64_t, kTabledTurns> table{};
  for (int t = 0; t < kTabledTurns; ++t) table[static_cast<size_t>(t)] = Keys::key(kFTurn, t) ^ Keys::key(kFTurn, t + 1);
  return table;
}();

template <bool kKeyed = true>
inline void count_turn(State& s) {
  if constexpr (kKeyed)
    s.hash ^= s.turn < kTabledTurns ? kTurnStepKeys[s.turn] : Keys::key(kFTurn, s.turn) ^ Keys::key(kFTurn, s.turn + 1);
  ++s.turn;
}

// The pending drawer (explicit chance) is keyed only while set, so that a sampled state, where it
// is always unset, keeps the key it had before explicit chance existed.
constexpr uint64_t drawer_key(uint8_t drawer_plus_one) {
  return drawer_plus_one ? Keys::key(kFDrawer, drawer_plus_one) : 0;
}

inline void set_drawer(State& s, int drawer) {
  s.hash ^= drawer_key(s.drawer_plus_one) ^ drawer_key(static_cast<uint8_t>(drawer + 1));
  s.drawer_plus_one = static_cast<uint8_t>(drawer + 1);
}

template <bool kKeyed = true>
inline void add_card(State& s, int holder, Counts64& where, int type) {
  const int word = type >> 4;
  const uint64_t before = where.w[word];
  where.add(type);
  if constexpr (kKeyed) s.hash ^= word_key(holder, word, before) ^ word_key(holder, word, where.w[word]);
}

template <bool kKeyed = true>
inline void remove_card(State& s, int holder, Counts64& where, int type) {
  const int word = type >> 4;
  const uint64_t before = where.w[word];
  where.sub(type);
  if constexpr (kKeyed) s.hash ^= word_key(holder, word, before) ^ word_key(holder, word, where.w[word]);
}

}  // namespace dimsum::yum_cha
