// Kuhn poker's Zobrist key: every field of the position keyed by its value (common/zobrist.hpp,
// ScalarKeys), XORed together; the RNG is not part of it. Internal to the kuhn_poker folder.
//
// A step changes at most three small fields (the betting bits, the count, the seat to act; or a
// seat's card and the seat to act), so apply keeps the key with set() on each, as Pig does.
#pragma once

#include "../common/zobrist.hpp"
#include "engine.hpp"

namespace dimsum::kuhn_poker {

inline constexpr uint64_t kSalt = 0x4B55484E50303501ull;  // "KUHNP05" + key scheme version

enum Field : int { kFBets = 1, kFDecisions, kFCurrent, kFCard = 16 };

using Keys = ScalarKeys<kSalt>;

// Each setter takes `kKeyed` (common/engine.hpp, "Key upkeep"): true for apply, which keeps the
// key exact; false for apply_unkeyed, where the field changes alone.
template <bool kKeyed, typename T>
inline void set_field(State& s, int field, T& ref, int64_t value) {
  if constexpr (kKeyed) {
    Keys::set(s.hash, field, ref, value);
  } else {
    ref = static_cast<T>(value);
  }
}
template <bool kKeyed>
inline void set_card(State& s, int seat, int card) { set_field<kKeyed>(s, kFCard + seat, s.held[seat], card + 1); }
template <bool kKeyed>
inline void set_bets(State& s, uint32_t bets) { set_field<kKeyed>(s, kFBets, s.bets, bets); }
template <bool kKeyed>
inline void set_current(State& s, int value) { set_field<kKeyed>(s, kFCurrent, s.current, value); }
template <bool kKeyed>
inline void count_decision(State& s) { set_field<kKeyed>(s, kFDecisions, s.decisions, int64_t{s.decisions} + 1); }

}  // namespace dimsum::kuhn_poker
