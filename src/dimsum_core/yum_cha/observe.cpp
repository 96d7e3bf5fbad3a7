// Yum Cha's observation: the slices declared in schema.cpp, in order, my seat first.
#include "engine.hpp"

namespace dimsum::yum_cha {

void Engine::observe(const Config& c, const State& s, int player, float* out) {
  const int P = c.players, T = c.num_types;
  auto seat = [&](int k) { return (player + k) % P; };
  auto counts = [&](const Counts64& where) {
    for (int t = 0; t < T; ++t) *out++ = static_cast<float>(where.get(t));
  };
  counts(s.hands[player]);
  counts(s.centre);
  for (int k = 1; k < P; ++k) counts(s.known[seat(k)]);
  for (int k = 0; k < P; ++k) *out++ = s.hand_size[seat(k)];
  *out++ = s.deck_size;
  for (int k = 0; k < P; ++k) *out++ = s.scores[seat(k)];
  for (int r = 0; r < c.rounds; ++r) *out++ = (r == s.round) ? 1.0f : 0.0f;
  *out++ = s.phase == kDraw ? 1.0f : 0.0f;
  *out++ = s.phase == kDiscard ? 1.0f : 0.0f;
  for (int k = 0; k < P; ++k) *out++ = (seat(k) == s.current) ? 1.0f : 0.0f;
  for (int t = 0; t < T; ++t) *out++ = (t == s.last_taken) ? 1.0f : 0.0f;
  *out++ = s.turn;
}

}  // namespace dimsum::yum_cha
