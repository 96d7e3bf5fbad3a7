// Dim Sum Jam's observation: the slices declared in schema.cpp, in order, seats relative to the
// observer. One body (write_observation) for both rows of common/observation_row.hpp: observe
// zeroes the row and writes it whole, observe_sparse (BatchEnv) updates it in place.
#include "../common/observation_row.hpp"
#include "engine.hpp"

namespace dimsum::dim_sum_jam {
namespace {

template <class Row>
void write_observation(const Config& c, const State& s, int player, const Row& row) {
  const int P = c.players, C = c.num_cards;
  // seat and player are both in [0, P): one compare and add, not two divisions a call
  auto rel = [&](int seat) { return seat - player < 0 ? seat - player + P : seat - player; };
  int at = 0;  // where the current slice starts
  row.set(at + s.phase, 1.0f);
  at += kOver + 1;
  if (s.phase != kOver && !s.chance) row.set(at + rel(Engine::current_player(s)), 1.0f);  // no seat acts at a chance node
  at += P;
  row.set(at + rel(s.active), 1.0f);
  at += P;
  // the bit sets as masks: a SparseRow writes only the ones that were not there a step before
  for (int seat = 0; seat < P; ++seat) row.set_ones(at + rel(seat) * kTokens, s.hands[seat]);
  at += P * kTokens;
  row.set_ones(at, s.bag);
  at += kTokens;
  row.set_ones(at, s.discard);
  at += kTokens;
  const int cards = at;
  const int empty_icons = cards + kTables * C;
  const int tokens = empty_icons + kTables * kTypes;
  const int teas = tokens + kTables * kTokens;
  for (int k = 0; k < kTables; ++k) {
    const int card = s.table_card[k];
    if (card < 0) continue;
    row.set(cards + k * C + card, 1.0f);
    // counted here, each written once (sums of ones from zero: the same floats as += on the row)
    int empty[kTypes] = {}, tea = 0;
    for (int i = 0; i < c.num_icons[card]; ++i) {
      const int slot = s.slots[k][i];
      if (slot == kEmpty) ++empty[c.icons[card][i]];
      else if (slot == kTea) ++tea;
      else row.set(tokens + k * kTokens + slot, 1.0f);
    }
    for (int t = 0; t < kTypes; ++t) row.set(empty_icons + k * kTypes + t, static_cast<float>(empty[t]));
    row.set(teas + k, static_cast<float>(tea));
  }
  at = teas + kTables;
  row.set(at + s.required, 1.0f);
  at += kTables + 1;
  // positions the set-up shuffle has not reached yet (explicit mode) show no back
  // (two entries a position, regular and VIP: 32 positions a mask)
  for (int first = s.shuffle_left; first < s.deck_len; first += 32) {
    uint64_t backs = 0;
    for (int i = first; i < s.deck_len && i < first + 32; ++i) backs |= uint64_t{1} << (2 * (i - first) + (s.deck_vips >> i & 1u));
    row.set_ones(at + 2 * first, backs);
  }
  at += 2 * c.deck_length;
  row.set_ones(at, s.out);
  at += C;
  auto next = [&](float v) { row.set(at++, v); };
  next(s.tea_supply);
  next(s.tea_reception);
  next(s.complaints);
  next(static_cast<float>(c.complaint_limit - s.complaints));
  next(s.deck_len);
  // the reference divides in double precision; float32 of that quotient is what it reports
  next(static_cast<float>(static_cast<double>(s.clock.top) / s.clock.capacity));
  next(static_cast<float>(static_cast<double>(s.clock.bottom()) / s.clock.capacity));
  next(s.clock.lying);
  next(c.time_on ? 1.0f : 0.0f);
  next(s.direction == -1 ? 1.0f : 0.0f);
  next(s.case3);
  next(s.redraws);
  next(s.draw_pending);
  next(s.reverse_used);
  next(s.discarder >= 0 ? static_cast<float>(rel(s.discarder)) : -1.0f);
  if (s.outcome >= 0) row.set(at + s.outcome, 1.0f);
}

}  // namespace

void Engine::observe(const Config& c, const State& s, int player, float* out) {
  // All zero first: a memset (glibc's `rep stosb` at this size, 4.4 KB). Callgrind counts it as
  // one instruction a byte (4,388 of an observe's ~5,600), but in time it is the fastest way found
  // to clear the row: 16-byte stores took 25% longer across 1,024 envs' rows (docs/PERFORMANCE.md,
  // issue 26 item 5). BatchEnv's rows skip it: observe_sparse.
  for (int i = 0; i < c.observation_size; ++i) out[i] = 0.0f;
  write_observation(c, s, player, DenseRow{out});
}

void Engine::observe_sparse(const Config& c, const State& s, int player, float* out, const uint64_t* before,
                            uint64_t* now) {
  write_observation(c, s, player, SparseRow{out, before, now});
}

}  // namespace dimsum::dim_sum_jam
