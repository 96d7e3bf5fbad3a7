// Kuhn poker's observation: the slices declared in schema.cpp, in order; OpenSpiel's observation
// tensor (its default observer) value for value. A seat sees its own card and the chips in the pot,
// never another seat's card.
#include "engine.hpp"

namespace dimsum::kuhn_poker {

void Engine::observe(const Config& c, const State& s, int player, float* out) {
  for (int p = 0; p < c.players; ++p) *out++ = p == player ? 1.0f : 0.0f;
  for (int k = 0; k < c.num_cards; ++k) *out++ = k == card_of(s, player) ? 1.0f : 0.0f;
  const uint32_t second = bettors(c, s);
  for (int p = 0; p < c.players; ++p) *out++ = 1.0f + static_cast<float>(second >> p & 1u);
}

}  // namespace dimsum::kuhn_poker
