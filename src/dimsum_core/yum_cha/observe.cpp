// Yum Cha's observation: the slices declared in schema.cpp, in order, my seat first. One body
// (write_observation) for both rows of common/observation_row.hpp: observe zeroes the row and
// writes it whole, observe_sparse (BatchEnv) updates it in place. A count slice is written
// whole from the Counts64 words, two counts a byte (set_counts): visiting only the kinds present
// cost about 30 instructions a kind present, more than writing the 5 x num_types entries.
#include <algorithm>

#include "../common/observation_row.hpp"
#include "engine.hpp"

namespace dimsum::yum_cha {
namespace {

template <class Row>
void write_observation(const Config& c, const State& s, int player, const Row& row) {
  const int P = c.players, T = c.num_types;
  // player and k are both in [0, P): one compare and subtract, not a division
  auto seat = [&](int k) { return player + k < P ? player + k : player + k - P; };
  int at = 0;  // where the current slice starts
  // a count slice whole, sixteen kinds a word (kinds from T on are not in the slice)
  auto counts = [&](const Counts64& where) {
    for (int w = 0; 16 * w < T; ++w) row.set_counts(at + 16 * w, where.w[w], std::min(16, T - 16 * w));
    at += T;
  };
  auto next = [&](float v) { row.put(at++, v); };  // every scalar entry is written every time
  counts(s.hands[player]);
  counts(s.centre);
  for (int k = 1; k < P; ++k) counts(s.known[seat(k)]);
  for (int k = 0; k < P; ++k) next(s.hand_size[seat(k)]);
  next(s.deck_size);
  for (int k = 0; k < P; ++k) next(s.scores[seat(k)]);
  if (s.round >= 0 && s.round < c.rounds) row.set(at + s.round, 1.0f);
  at += c.rounds;
  next(s.phase == kDraw ? 1.0f : 0.0f);
  next(s.phase == kDiscard ? 1.0f : 0.0f);
  for (int k = 0; k < P; ++k) next(seat(k) == s.current ? 1.0f : 0.0f);
  if (s.last_taken >= 0 && s.last_taken < T) row.set(at + s.last_taken, 1.0f);
  at += T;
  next(s.turn);
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

}  // namespace dimsum::yum_cha
