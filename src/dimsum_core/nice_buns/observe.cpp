// Nice Buns' observation: the slices declared in schema.cpp, in order. Everything is public
// (NB-12) and seats are absolute, like the action targets.
//
// The row is zeroed in one go and then only its ones and its values are stored: most of it is
// one-hot and bit slices (4 players: 137 floats, about 40 of them non-zero at most), and a
// compare-and-store per element of every one-hot was most of observe's cost (it runs once an
// env-step in BatchEnv, and for State.observation and the policy bot). The floats are the same
// bits as the element-by-element form: a zeroed float is +0.0f, as `j == i ? 1.0f : 0.0f` gave.
#include <cstring>

#include "../common/observation_row.hpp"
#include "engine.hpp"

namespace dimsum::nice_buns {
namespace {

// A one-hot of `size` entries at out, the row already zeroed: 1.0f at out[i] when 0 <= i < size;
// an index out of range (-1 none, kChancePlayer, a chance phase) leaves the slice all zero, as the
// element-by-element compare did. One unsigned compare covers both ends.
inline void one_hot_at(float* out, int i, int size) {
  if (static_cast<unsigned>(i) < static_cast<unsigned>(size)) out[i] = 1.0f;
}

}  // namespace

void Engine::observe(const Config& c, const State& s, int player, float* out) {
  const int P = c.players;
  // observation_size floats exactly (common/engine.hpp); every entry below lands inside them
  std::memset(out, 0, sizeof(float) * static_cast<size_t>(c.observation_size));
  one_hot_at(out, player, P);
  out += P;
  one_hot_at(out, s.current, P);
  out += P;
  one_hot_at(out, s.phase, kOver + 1);
  out += kOver + 1;
  *out++ = static_cast<float>(s.turn);
  one_hot_at(out, s.roller, P);
  out += P;
  for (int d = 0; d < kDice; ++d) {  // per die: action one-hot (6), draw count, take colours (4)
    const Face& f = face_of(c, s, d);
    one_hot_at(out, f.action, 6);
    out[6] = f.count;
    write_four_bits(out + 7, f.colours, kColours);
    out += 6 + 1 + kColours;
  }
  one_hot_at(out, s.split, 4);
  out += 4;
  const bool chosen = s.chooser_takes >= 0;
  if (chosen) write_four_bits(out, static_cast<unsigned>(s.chooser_takes), kDice);
  out += kDice;
  if (chosen) one_hot_at(out, s.die, kDone + 1);
  out += kDone + 1;
  *out++ = s.draws_left;
  write_byte_counts(out, s.bag.w, kKinds);
  out += kKinds;
  write_byte_counts(out, s.tray.w, kColours);
  out += kColours;
  for (int p = 0; p < P; ++p, out += kKinds) write_byte_counts(out, s.front[p].w, kKinds);
  for (int p = 0; p < P; ++p, out += kColours) one_hot_at(out, s.fish_on[p], kColours);
  for (int p = 0; p < P; ++p, out += kColours) write_four_bits(out, s.plates[p], kColours);
  for (int i = 0; i < 2; ++i, out += P)
    if (i < s.cascade_len) one_hot_at(out, s.cascade[i], P);
  one_hot_at(out, s.winner, P);
}

}  // namespace dimsum::nice_buns
