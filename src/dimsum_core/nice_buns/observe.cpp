// Nice Buns' observation: the slices declared in schema.cpp, in order. Everything is public
// (NB-12) and seats are absolute, like the action targets.
//
// The row is zeroed in one go and then only its ones and its values are stored: most of it is
// one-hot and bit slices (4 players: 137 floats, about 40 of them non-zero at most), and a
// compare-and-store per element of every one-hot was most of observe's cost (it runs once an
// env-step in BatchEnv, and for State.observation and the policy bot). The floats are the same
// bits as the element-by-element form: a zeroed float is +0.0f, as `j == i ? 1.0f : 0.0f` gave.
#include <array>
#include <cstring>
// DIMSUM_PORTABLE_BYTE_COUNTS: counts_at's portable loop on x86_64 too (to check here that it gives
// the same bytes: it is what aarch64 and s390x run)
#if (defined(__SSE2__) || defined(_M_X64)) && !defined(DIMSUM_PORTABLE_BYTE_COUNTS)
#define DIMSUM_SSE2_BYTE_COUNTS 1
#include <emmintrin.h>
#endif

#include "engine.hpp"

namespace dimsum::nice_buns {
namespace {

// kBitFloats[m][k]: bit k of the four-bit mask m as a float (0.0f or 1.0f). A bit slice (a face's
// take colours, a seat's plates, the chooser's dice) is one 16-byte copy of its row, not four
// shift-mask-convert-stores.
constexpr auto kBitFloats = [] {
  std::array<std::array<float, 4>, 16> table{};
  for (unsigned m = 0; m < 16; ++m)
    for (unsigned k = 0; k < 4; ++k) table[m][k] = static_cast<float>(m >> k & 1u);
  return table;
}();

// A one-hot of `size` entries at out, the row already zeroed: 1.0f at out[i] when 0 <= i < size;
// an index out of range (-1 none, kChancePlayer, a chance phase) leaves the slice all zero, as the
// element-by-element compare did. One unsigned compare covers both ends.
inline void one_hot_at(float* out, int i, int size) {
  if (static_cast<unsigned>(i) < static_cast<unsigned>(size)) out[i] = 1.0f;
}

// The low `n` bits of `mask` (n <= 4) as n floats.
inline void bits_at(float* out, unsigned mask, int n) {
  std::memcpy(out, kBitFloats[mask & 15u].data(), sizeof(float) * static_cast<size_t>(n));
}

// The counts of kinds [0, n) of a Buns word (one byte each) as n floats (n is 4 or 5): 0..255
// convert exactly, so both forms below give the same bits. With SSE2 (every x86_64) the first four
// are widened and converted together, one store (about 6 instructions, where GCC's own
// vectorisation of the loop took about 18 a word, 5P + 9 counts a row); the fifth on its own.
inline void counts_at(float* out, uint64_t w, int n) {
#if defined(DIMSUM_SSE2_BYTE_COUNTS)
  const __m128i zero = _mm_setzero_si128();
  const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(&w));
  _mm_storeu_ps(out, _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_unpacklo_epi8(bytes, zero), zero)));
  if (n > 4) out[4] = static_cast<float>(static_cast<int>(w >> 32 & 255u));
#else
  for (int k = 0; k < n; ++k) out[k] = static_cast<float>(static_cast<int>(w >> (8 * k) & 255u));
#endif
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
    bits_at(out + 7, f.colours, kColours);
    out += 6 + 1 + kColours;
  }
  one_hot_at(out, s.split, 4);
  out += 4;
  const bool chosen = s.chooser_takes >= 0;
  if (chosen) bits_at(out, static_cast<unsigned>(s.chooser_takes), kDice);
  out += kDice;
  if (chosen) one_hot_at(out, s.die, kDone + 1);
  out += kDone + 1;
  *out++ = s.draws_left;
  counts_at(out, s.bag.w, kKinds);
  out += kKinds;
  counts_at(out, s.tray.w, kColours);
  out += kColours;
  for (int p = 0; p < P; ++p, out += kKinds) counts_at(out, s.front[p].w, kKinds);
  for (int p = 0; p < P; ++p, out += kColours) one_hot_at(out, s.fish_on[p], kColours);
  for (int p = 0; p < P; ++p, out += kColours) bits_at(out, s.plates[p], kColours);
  for (int i = 0; i < 2; ++i, out += P)
    if (i < s.cascade_len) one_hot_at(out, s.cascade[i], P);
  one_hot_at(out, s.winner, P);
}

}  // namespace dimsum::nice_buns
