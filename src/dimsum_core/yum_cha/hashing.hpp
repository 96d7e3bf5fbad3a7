// Yum Cha's Zobrist keys and the setters that keep State::hash up to date on every change.
// Internal to the yum_cha folder.
#pragma once

#include "../common/zobrist.hpp"
#include "engine.hpp"

namespace dimsum::yum_cha {

inline constexpr uint64_t kSalt = 0x59554D4348410001ull;  // "YUMCHA" + table version
// Card holders that are hashed: hands 0..5, known 6..11, centre 12. The deck is not: it is
// the full deck minus everything else, so it adds nothing to the key.
inline constexpr int kHolderKnown = kMaxPlayers, kHolderCentre = 2 * kMaxPlayers, kHolders = 2 * kMaxPlayers + 1;
inline constexpr auto kCardKeys = zobrist_table<kHolders * kMaxTypes * 16>(kSalt);

constexpr uint64_t card_key(int holder, int type, int count) {
  return count ? kCardKeys[(holder * kMaxTypes + type) * 16 + count] : 0;
}

enum Field : int {
  kFRound = 1, kFPhase, kFCurrent, kFStarter, kFTurn, kFLastTaken, kFLastDiscard, kFLastDeclarer,
  kFScore = 16, kFBestRound = 24, kFLastRound = 32, kFDeclarations = 40,
};

constexpr uint64_t field_key(int field, int64_t value) { return scalar_key(kSalt, field, value); }

// Sets a scalar field and updates the key.
template <typename T>
inline void set_field(State& s, int field, T& ref, int64_t value) {
  s.hash ^= field_key(field, ref) ^ field_key(field, value);
  ref = static_cast<T>(value);
}

inline void add_card(State& s, int holder, Counts64& where, int type) {
  const int before = where.get(type);
  s.hash ^= card_key(holder, type, before) ^ card_key(holder, type, before + 1);
  where.add(type);
}

inline void remove_card(State& s, int holder, Counts64& where, int type) {
  const int before = where.get(type);
  s.hash ^= card_key(holder, type, before) ^ card_key(holder, type, before - 1);
  where.sub(type);
}

}  // namespace dimsum::yum_cha
