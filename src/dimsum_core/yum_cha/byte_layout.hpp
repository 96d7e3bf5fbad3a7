// Yum Cha's State as bytes: its members in declaration order, for the little-endian byte form
// (common/byte_order.hpp). A member added to the State and not named here is a build error.
#pragma once

#include "../common/byte_order.hpp"
#include "engine.hpp"

namespace dimsum {

template <>
struct ByteLayout<yum_cha::State>
    : Members<&yum_cha::State::rng, &yum_cha::State::hash, &yum_cha::State::hands, &yum_cha::State::known,
              &yum_cha::State::centre, &yum_cha::State::deck, &yum_cha::State::scores, &yum_cha::State::best_round,
              &yum_cha::State::last_round, &yum_cha::State::declarations, &yum_cha::State::hand_size,
              &yum_cha::State::turn, &yum_cha::State::deck_size, &yum_cha::State::centre_size, &yum_cha::State::round,
              &yum_cha::State::phase, &yum_cha::State::current, &yum_cha::State::starter, &yum_cha::State::last_taken,
              &yum_cha::State::last_discard, &yum_cha::State::last_declarer, &yum_cha::State::drawer_plus_one,
              &yum_cha::State::deck_number, &yum_cha::State::reserved_, &yum_cha::State::redrawn,
              &yum_cha::State::reserved_tail_> {};

}  // namespace dimsum
