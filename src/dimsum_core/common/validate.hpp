// The layout checks every game's validate makes (engine.hpp, G::validate), written once: a state
// copied as bytes must have equal bytes for equal positions, so what the rules never write (the
// reserved bytes, the seats a config does not play) must hold exactly what new_state leaves
// there, and the generator must be one that can run. Messages have the contract's form:
// "<game> state field '<name>': <what is wrong>; <what is allowed>".
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "errors.hpp"
#include "rng.hpp"

namespace dimsum {

// xoshiro256** never leaves the all-zero state: such a generator would draw zeros for ever.
inline bool check_rng_field(const char* game, const Rng& rng, char* err, int errlen) {
  if ((rng.s[0] | rng.s[1] | rng.s[2] | rng.s[3]) != 0) return true;
  return fail(err, errlen, "%s state field 'rng': all zero; an all-zero generator never leaves zero", game);
}

// The bytes a State keeps so that it has no padding are zero.
template <size_t N>
bool check_reserved_zero(const char* game, const uint8_t (&reserved)[N], char* err, int errlen) {
  for (const uint8_t b : reserved)
    if (b) return fail(err, errlen, "%s state field 'reserved': set; reserved bytes are zero", game);
  return true;
}

// A per-seat array (one entry per seat of the game's kMaxPlayers) holds `empty` (by default
// zero) at every seat past `players`, as new_state leaves it: those seats are not played.
template <class T, size_t N>
bool check_seats_past_players_empty(const char* game, const char* field, const T (&seats)[N], int players,
                                    char* err, int errlen, const T& empty = T{}) {
  static_assert(std::has_unique_object_representations_v<T>, "compared as bytes: equal values, equal bytes");
  for (size_t p = players > 0 ? static_cast<size_t>(players) : 0; p < N; ++p)
    if (std::memcmp(&seats[p], &empty, sizeof(T)) != 0)
      return fail(err, errlen, "%s state field '%s': seat %d is set; this game has %d seats, the others are empty",
                  game, field, static_cast<int>(p), players);
  return true;
}

}  // namespace dimsum
