// Nice Buns' observation: the slices declared in schema.cpp, in order. Everything is public
// (NB-12) and seats are absolute, like the action targets. One body (write_observation) for
// both rows of common/observation_row.hpp: observe zeroes the row and writes it whole,
// observe_sparse (BatchEnv) updates it in place.
#include "../common/observation_row.hpp"
#include "engine.hpp"

namespace dimsum::nice_buns {
namespace {

template <class Row>
void write_observation(const Config& c, const State& s, int player, const Row& row) {
  const int P = c.players;
  int at = 0;  // where the current slice starts
  auto one_hot = [&](int i, int size) {  // i outside [0, size): all zero
    if (i >= 0 && i < size) row.set(at + i, 1.0f);
    at += size;
  };
  auto next = [&](float v) { row.set(at++, v); };
  one_hot(player, P);
  one_hot(s.current, P);
  one_hot(s.phase, 6);
  next(static_cast<float>(s.turn));
  one_hot(s.roller, P);
  for (int d = 0; d < kDice; ++d) {
    const Face& f = face_of(c, s, d);
    one_hot(f.action, 6);
    next(f.count);
    for (int k = 0; k < kColours; ++k) next(static_cast<float>(f.colours >> k & 1));
  }
  one_hot(s.split, 4);
  const bool chosen = s.chooser_takes >= 0;
  for (int d = 0; d < kDice; ++d) next(chosen ? static_cast<float>(s.chooser_takes >> d & 1) : 0.0f);
  one_hot(chosen ? s.die : -1, 4);
  next(s.draws_left);
  for (int k = 0; k < kKinds; ++k) next(static_cast<float>(s.bag.get(k)));
  for (int k = 0; k < kColours; ++k) next(static_cast<float>(s.tray.get(k)));
  for (int p = 0; p < P; ++p)
    for (int k = 0; k < kKinds; ++k) next(static_cast<float>(s.front[p].get(k)));
  for (int p = 0; p < P; ++p) one_hot(s.fish_on[p], kColours);
  for (int p = 0; p < P; ++p)
    for (int k = 0; k < kColours; ++k) next(static_cast<float>(s.plates[p] >> k & 1));
  for (int i = 0; i < 2; ++i) one_hot(i < s.cascade_len ? s.cascade[i] : -1, P);
  one_hot(s.winner, P);
}

}  // namespace

void Engine::observe(const Config& c, const State& s, int player, float* out) {
  for (int i = 0; i < c.observation_size; ++i) out[i] = 0.0f;
  write_observation(c, s, player, DenseRow{out});
}

void Engine::observe_sparse(const Config& c, const State& s, int player, float* out, const uint64_t* before,
                            uint64_t* now) {
  write_observation(c, s, player, SparseRow{out, before, now});
}

}  // namespace dimsum::nice_buns
