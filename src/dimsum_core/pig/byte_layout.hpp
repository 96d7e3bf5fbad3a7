// Pig's State as bytes: its members in declaration order, for the little-endian byte form
// (common/byte_order.hpp). A member added to the State and not named here is a build error.
#pragma once

#include "../common/byte_order.hpp"
#include "engine.hpp"

namespace dimsum {

template <>
struct ByteLayout<pig::State>
    : Members<&pig::State::rng, &pig::State::hash, &pig::State::moves, &pig::State::scores, &pig::State::turn_total,
              &pig::State::current, &pig::State::turn_player, &pig::State::last_roll, &pig::State::reserved_> {};

}  // namespace dimsum
