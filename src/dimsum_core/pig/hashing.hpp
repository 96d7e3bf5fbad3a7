// Pig's Zobrist key: every field of the position keyed by its value (common/zobrist.hpp,
// ScalarKeys), XORed together; the RNG is not part of it. Internal to the pig folder.
//
// A step changes at most five small fields, so apply keeps the key with set() on each (a key out,
// a key in) rather than a table: the values range too widely (scores up to the target) for one.
#pragma once

#include "../common/zobrist.hpp"
#include "engine.hpp"

namespace dimsum::pig {

inline constexpr uint64_t kSalt = 0x5049474741344501ull;  // "PIGGA4E" + key scheme version

enum Field : int { kFMoves = 1, kFTurnTotal, kFCurrent, kFTurnPlayer, kFLastRoll, kFScore = 16 };

using Keys = ScalarKeys<kSalt>;

// Each setter takes `kKeyed` (common/engine.hpp, "Key upkeep"): true for apply, which keeps the
// key exact; false for apply_unkeyed, where the field changes alone and the compiler drops the two
// splitmix64 of the key's update as dead code (four setters a roll: most of a sampled step).
template <bool kKeyed, typename T>
inline void set_field(State& s, int field, T& ref, int64_t value) {
  if constexpr (kKeyed) {
    Keys::set(s.hash, field, ref, value);
  } else {
    ref = static_cast<T>(value);
  }
}
template <bool kKeyed>
inline void set_score(State& s, int seat, int value) { set_field<kKeyed>(s, kFScore + seat, s.scores[seat], value); }
template <bool kKeyed>
inline void set_turn_total(State& s, int value) { set_field<kKeyed>(s, kFTurnTotal, s.turn_total, value); }
template <bool kKeyed>
inline void set_current(State& s, int value) { set_field<kKeyed>(s, kFCurrent, s.current, value); }
template <bool kKeyed>
inline void set_turn_player(State& s, int value) { set_field<kKeyed>(s, kFTurnPlayer, s.turn_player, value); }
template <bool kKeyed>
inline void set_last_roll(State& s, int value) { set_field<kKeyed>(s, kFLastRoll, s.last_roll, value); }
template <bool kKeyed>
inline void count_move(State& s) { set_field<kKeyed>(s, kFMoves, s.moves, int64_t{s.moves} + 1); }

}  // namespace dimsum::pig
