// Kuhn poker's State as bytes: its members in declaration order, for the little-endian byte form
// (common/byte_order.hpp). A member added to the State and not named here is a build error.
#pragma once

#include "../common/byte_order.hpp"
#include "engine.hpp"

namespace dimsum {

template <>
struct ByteLayout<kuhn_poker::State>
    : Members<&kuhn_poker::State::rng, &kuhn_poker::State::hash, &kuhn_poker::State::bets,
              &kuhn_poker::State::held, &kuhn_poker::State::decisions, &kuhn_poker::State::current> {};

}  // namespace dimsum
