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

inline void set_score(State& s, int seat, int value) { Keys::set(s.hash, kFScore + seat, s.scores[seat], value); }
inline void set_turn_total(State& s, int value) { Keys::set(s.hash, kFTurnTotal, s.turn_total, value); }
inline void set_current(State& s, int value) { Keys::set(s.hash, kFCurrent, s.current, value); }
inline void set_turn_player(State& s, int value) { Keys::set(s.hash, kFTurnPlayer, s.turn_player, value); }
inline void set_last_roll(State& s, int value) { Keys::set(s.hash, kFLastRoll, s.last_roll, value); }
inline void count_move(State& s) { Keys::set(s.hash, kFMoves, s.moves, int64_t{s.moves} + 1); }

}  // namespace dimsum::pig
