// Nice Buns' State as bytes: its members in declaration order, for the little-endian byte form
// (common/byte_order.hpp). A member added to the State and not named here is a build error.
#pragma once

#include "../common/byte_order.hpp"
#include "engine.hpp"

namespace dimsum {

template <>
struct ByteLayout<nice_buns::Buns> : Members<&nice_buns::Buns::w> {};

template <>
struct ByteLayout<nice_buns::State>
    : Members<&nice_buns::State::rng, &nice_buns::State::hash, &nice_buns::State::front, &nice_buns::State::bag,
              &nice_buns::State::tray, &nice_buns::State::turn, &nice_buns::State::phase, &nice_buns::State::current,
              &nice_buns::State::roller, &nice_buns::State::split, &nice_buns::State::chooser_takes,
              &nice_buns::State::die, &nice_buns::State::draws_left, &nice_buns::State::winner,
              &nice_buns::State::dice, &nice_buns::State::cascade, &nice_buns::State::cascade_len,
              &nice_buns::State::fish_on, &nice_buns::State::plates, &nice_buns::State::reserved_> {};

}  // namespace dimsum
