// Nice Buns' observation: the slices declared in schema.cpp, in order. Everything is public
// (NB-12) and seats are absolute, like the action targets.
#include "engine.hpp"

namespace dimsum::nice_buns {

void Engine::observe(const Config& c, const State& s, int player, float* out) {
  const int P = c.players;
  auto one_hot = [&](int i, int size) {
    for (int j = 0; j < size; ++j) *out++ = j == i ? 1.0f : 0.0f;
  };
  one_hot(player, P);
  one_hot(s.current, P);
  one_hot(s.phase, 6);
  *out++ = static_cast<float>(s.turn);
  one_hot(s.roller, P);
  for (int d = 0; d < kDice; ++d) {
    const Face& f = face_of(c, s, d);
    one_hot(f.action, 6);
    *out++ = f.count;
    for (int k = 0; k < kColours; ++k) *out++ = static_cast<float>(f.colours >> k & 1);
  }
  one_hot(s.split, 4);
  const bool chosen = s.chooser_takes >= 0;
  for (int d = 0; d < kDice; ++d) *out++ = chosen ? static_cast<float>(s.chooser_takes >> d & 1) : 0.0f;
  one_hot(chosen ? s.die : -1, 4);
  *out++ = s.draws_left;
  for (int k = 0; k < kKinds; ++k) *out++ = static_cast<float>(s.bag.get(k));
  for (int k = 0; k < kColours; ++k) *out++ = static_cast<float>(s.tray.get(k));
  for (int p = 0; p < P; ++p)
    for (int k = 0; k < kKinds; ++k) *out++ = static_cast<float>(s.front[p].get(k));
  for (int p = 0; p < P; ++p) one_hot(s.fish_on[p], kColours);
  for (int p = 0; p < P; ++p)
    for (int k = 0; k < kColours; ++k) *out++ = static_cast<float>(s.plates[p] >> k & 1);
  for (int i = 0; i < 2; ++i) one_hot(i < s.cascade_len ? s.cascade[i] : -1, P);
  one_hot(s.winner, P);
}

}  // namespace dimsum::nice_buns
