// Pig's observation: the slices declared in schema.cpp, in order, my seat first. Pig hides
// nothing, so every seat's observation is the same position seen from its own seat.
#include "engine.hpp"

namespace dimsum::pig {

void Engine::observe(const Config& c, const State& s, int player, float* out) {
  const int P = c.players;
  auto seat = [&](int k) { return player + k < P ? player + k : player + k - P; };
  for (int k = 0; k < P; ++k) *out++ = s.scores[seat(k)];
  *out++ = s.turn_total;
  for (int k = 0; k < P; ++k) *out++ = seat(k) == s.turn_player ? 1.0f : 0.0f;
  for (int o = 0; o < c.num_outcomes; ++o) *out++ = o + 1 == s.last_roll ? 1.0f : 0.0f;
  *out++ = static_cast<float>(c.horizon - static_cast<int64_t>(s.moves));
}

}  // namespace dimsum::pig
