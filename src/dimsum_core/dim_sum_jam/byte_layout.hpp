// Dim Sum Jam's State as bytes: its members in declaration order, for the little-endian byte form
// (common/byte_order.hpp). A member added to the State and not named here is a build error.
#pragma once

#include "../common/byte_order.hpp"
#include "engine.hpp"

namespace dimsum {

template <>
struct ByteLayout<dim_sum_jam::State>
    : Members<&dim_sum_jam::State::rng, &dim_sum_jam::State::hash, &dim_sum_jam::State::hands,
              &dim_sum_jam::State::bag, &dim_sum_jam::State::discard, &dim_sum_jam::State::out,
              &dim_sum_jam::State::deck_vips, &dim_sum_jam::State::clock, &dim_sum_jam::State::table_card,
              &dim_sum_jam::State::slots, &dim_sum_jam::State::empty_slots, &dim_sum_jam::State::phase,
              &dim_sum_jam::State::active, &dim_sum_jam::State::direction, &dim_sum_jam::State::discarder,
              &dim_sum_jam::State::resume, &dim_sum_jam::State::required, &dim_sum_jam::State::opening_left,
              &dim_sum_jam::State::outcome, &dim_sum_jam::State::case3, &dim_sum_jam::State::redraws,
              &dim_sum_jam::State::draw_pending, &dim_sum_jam::State::reverse_used, &dim_sum_jam::State::tea_supply,
              &dim_sum_jam::State::tea_reception, &dim_sum_jam::State::complaints, &dim_sum_jam::State::deck_len,
              &dim_sum_jam::State::chance, &dim_sum_jam::State::shuffle_left, &dim_sum_jam::State::reserved_> {};

}  // namespace dimsum
