// Dim Sum Jam's observation: the slices declared in schema.cpp, in order, seats relative to the
// observer. One body (write_changes) for both ways a row is written: observe zeroes the row and
// writes it from nothing; observe_changes (BatchEnv) takes a row written for one state and seat
// to another's, storing only the entries whose value differs (common/observation_row.hpp,
// "Changes"). The row is 4.4 KB, 69 cache lines, and a step changes a few slices (a token on a
// table, a hand, the clock): rewriting it whole cost a memset of all 69 lines an env-step, and
// 1,024 envs' rows do not stay in cache (docs/PERFORMANCE.md, "BatchEnv rows updated in place").
#include <bit>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "../common/observation_row.hpp"
#include "engine.hpp"

namespace dimsum::dim_sum_jam {
namespace {

// What one table shows: its card (-1: none), the empty icon spaces per type, the tokens and the
// teas lying on it. An empty table shows nothing, whatever its slots hold.
struct TableShown {
  int card = -1;
  int teas = 0;
  uint64_t tokens = 0;
  uint8_t empty[kTypes] = {};
};

// Where table k's part of the row lies: its card's one-hot, its empty spaces per type, its
// tokens, its teas.
struct TableRow {
  float* card;
  float* empty;
  float* tokens;
  float* teas;
};

// A row's inputs as the slices read them: a state and the seat the row is written for.
struct Shown {
  const Config& c;
  const State& s;
  int player;

  // seat and player are both in [0, P): one compare and add, not a division
  int rel(int seat) const { return seat - player < 0 ? seat - player + c.players : seat - player; }
  int phase() const { return s.phase; }
  // no seat acts at a chance node or once the game is over
  int current() const { return s.phase != kOver && !s.chance ? rel(Engine::current_player(s)) : -1; }
  int active() const { return rel(s.active); }
  uint64_t bag() const { return s.bag; }
  uint64_t discard() const { return s.discard; }
  // Does table k show the same in `now`: the same card and slots. The slots compared as one
  // 8-byte word, the byte after them (the next table's first slot, or empty_slots[0]) with them:
  // if only that byte differs, the table is rewritten to what it already shows. No branch (`&`,
  // not `&&`): which table a step changed is not predictable.
  bool same_table(const State& now, int k) const {
    return (s.table_card[k] == now.table_card[k]) & (slot_word(s, k) == slot_word(now, k));
  }
  static uint64_t slot_word(const State& s, int k) {
    static_assert(offsetof(State, slots) + kTables * kMaxIcons + 1 <= sizeof(State));
    uint64_t word;
    std::memcpy(&word, reinterpret_cast<const unsigned char*>(&s) + offsetof(State, slots) + k * kMaxIcons, 8);
    return word;
  }
  int card(int k) const { return s.table_card[k]; }
  TableShown table(int k) const {
    TableShown t;
    const int card = s.table_card[k];
    if (card < 0) return t;
    t.card = card;
    for (int i = 0; i < c.num_icons[card]; ++i) {
      const int slot = s.slots[k][i];
      if (slot == kEmpty) ++t.empty[c.icons[card][i]];
      else if (slot == kTea) ++t.teas;
      else t.tokens |= uint64_t{1} << slot;
    }
    return t;
  }
  int required() const { return s.required; }
  // Deck positions [shuffle_left, deck_len) with a regular (vip false) or a VIP back: the
  // positions the set-up shuffle has not reached yet (explicit mode) show no back.
  uint64_t backs(bool vip) const {
    const uint64_t placed = below(s.deck_len) & ~below(s.shuffle_left);
    return placed & (vip ? s.deck_vips : ~s.deck_vips);
  }
  bool same_deck(const State& now) const {
    return s.deck_vips == now.deck_vips && s.deck_len == now.deck_len && s.shuffle_left == now.shuffle_left;
  }
  uint64_t cards_out() const { return s.out; }
  int outcome() const { return s.outcome; }  // kRunning (-1): none

  static uint64_t below(int n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }
};

// A zeroed row's inputs: nothing shown (observe writes from it).
struct NothingShown {
  static int phase() { return -1; }
  static int current() { return -1; }
  static int active() { return -1; }
  static uint64_t bag() { return 0; }
  static uint64_t discard() { return 0; }
  static bool same_table(const State& now, int k) { return now.table_card[k] < 0; }
  static int card(int) { return -1; }
  static TableShown table(int) { return {}; }
  static int required() { return -1; }
  static bool same_deck(const State&) { return false; }
  static uint64_t backs(bool) { return 0; }
  static uint64_t cards_out() { return 0; }
  static int outcome() { return -1; }
};

// The counts, clock and turn slices: 15 values, written every time (the clock moves with every
// action of a timed game, so their cache line is written anyway).
void write_values(const Config& c, const Shown& now, float* out) {
  const State& s = now.s;
  *out++ = s.tea_supply;
  *out++ = s.tea_reception;
  *out++ = s.complaints;
  *out++ = static_cast<float>(c.complaint_limit - s.complaints);
  *out++ = s.deck_len;
  // the reference divides in double precision; float32 of that quotient is what it reports
  *out++ = static_cast<float>(static_cast<double>(s.clock.top) / s.clock.capacity);
  *out++ = static_cast<float>(static_cast<double>(s.clock.bottom()) / s.clock.capacity);
  *out++ = s.clock.lying;
  *out++ = c.time_on ? 1.0f : 0.0f;
  *out++ = s.direction == -1 ? 1.0f : 0.0f;
  *out++ = s.case3;
  *out++ = s.redraws;
  *out++ = s.draw_pending;
  *out++ = s.reverse_used;
  *out++ = s.discarder >= 0 ? static_cast<float>(now.rel(s.discarder)) : -1.0f;
}
constexpr int kValues = 15;

// Table k's part of the row, from what it showed to what it shows (a card turned up or taken
// away, or a row written whole). The counts are stored whether they changed or not: their line
// is written anyway, and a test a count would be a branch nothing predicts.
void change_table(const TableShown& a, const TableShown& b, const TableRow& row) {
  change_one_hot(row.card, a.card, b.card);
  for (int t = 0; t < kTypes; ++t) row.empty[t] = b.empty[t];
  change_bits(row.tokens, a.tokens, b.tokens);
  *row.teas = static_cast<float>(b.teas);
}

// A count of the row moved by `by`: read back as the small integer it holds, so the new value
// is static_cast<float> of the new count, bit for bit, whatever the rounding mode.
void add_to_count(float* out, int by) { *out = static_cast<float>(static_cast<int>(*out) + by); }

// Table k keeps its card (in `was` and `now`): only the icon spaces that changed are visited (a
// step fills one), each moving its type's empty count and the table's tea count by one.
void change_spaces(const Config& c, const State& was, const State& now, int k, const TableRow& row) {
  const int card = now.table_card[k];
  unsigned spaces = 0;  // bit i: icon space i changed (a fixed loop, no branch a space)
  for (int i = 0; i < kMaxIcons; ++i) spaces |= static_cast<unsigned>(was.slots[k][i] != now.slots[k][i]) << i;
  spaces &= (1u << c.num_icons[card]) - 1;
  for (; spaces != 0; spaces &= spaces - 1) {
    const int i = std::countr_zero(spaces);
    const int a = was.slots[k][i], b = now.slots[k][i];
    add_to_count(row.empty + c.icons[card][i], (b == kEmpty) - (a == kEmpty));
    if ((a == kTea) != (b == kTea)) add_to_count(row.teas, (b == kTea) - (a == kTea));
    if (a != kEmpty && a != kTea) row.tokens[a] = 0.0f;
    if (b != kEmpty && b != kTea) row.tokens[b] = 1.0f;
  }
}

// `out` holds the row of `was` (NothingShown: a zeroed row); make it the row of `now`.
template <class Was>
void write_changes(const Config& c, const Was& was, const Shown& now, float* out) {
  const int P = c.players, C = c.num_cards;
  change_one_hot(out, was.phase(), now.phase());
  out += kOver + 1;
  change_one_hot(out, was.current(), now.current());
  out += P;
  change_one_hot(out, was.active(), now.active());
  out += P;
  // the hands from the observer's on: relative seat r is the seat r places after the observer
  if constexpr (std::is_same_v<Was, Shown>) {
    for (int r = 0, a = was.player, b = now.player; r < P; ++r) {
      change_bits(out + r * kTokens, was.s.hands[a], now.s.hands[b]);
      a = a + 1 == P ? 0 : a + 1;
      b = b + 1 == P ? 0 : b + 1;
    }
  } else {
    for (int r = 0, b = now.player; r < P; ++r, b = b + 1 == P ? 0 : b + 1)
      change_bits(out + r * kTokens, 0, now.s.hands[b]);
  }
  out += P * kTokens;
  change_bits(out, was.bag(), now.bag());
  out += kTokens;
  change_bits(out, was.discard(), now.discard());
  out += kTokens;
  float* cards = out;
  float* empty_icons = cards + kTables * C;
  float* tokens = empty_icons + kTables * kTypes;
  float* teas = tokens + kTables * kTokens;
  // the tables whose part changed (a step changes one or none), found without a branch each
  unsigned changed = 0;
  for (int k = 0; k < kTables; ++k) changed |= static_cast<unsigned>(!was.same_table(now.s, k)) << k;
  for (; changed != 0; changed &= changed - 1) {
    const int k = std::countr_zero(changed);
    const TableRow row{cards + k * C, empty_icons + k * kTypes, tokens + k * kTokens, teas + k};
    if constexpr (std::is_same_v<Was, Shown>) {
      if (was.card(k) == now.card(k) && now.card(k) >= 0) {
        change_spaces(c, was.s, now.s, k, row);
        continue;
      }
    }
    change_table(was.table(k), now.table(k), row);
  }
  out = teas + kTables;
  change_one_hot(out, was.required(), now.required());
  out += kTables + 1;
  // [regular, vip] per deck position: two interleaved bit-set slices (the deck changes when a
  // card is turned up, a few times a game)
  if (!was.same_deck(now.s)) {
    change_bits(out, was.backs(false), now.backs(false), 2);
    change_bits(out + 1, was.backs(true), now.backs(true), 2);
  }
  out += 2 * c.deck_length;
  change_bits(out, was.cards_out(), now.cards_out());
  out += C;
  write_values(c, now, out);
  out += kValues;
  change_one_hot(out, was.outcome(), now.outcome());
}

}  // namespace

void Engine::observe(const Config& c, const State& s, int player, float* out) {
  // All zero first: a memset (glibc's `rep stosb` at this size, 4.4 KB), the fastest way found
  // to clear a row written whole (docs/PERFORMANCE.md, issue 26 item 5).
  for (int i = 0; i < c.observation_size; ++i) out[i] = 0.0f;
  write_changes(c, NothingShown{}, Shown{c, s, player}, out);
}

void Engine::observe_changes(const Config& c, const State& was, int was_player, const State& s, int player,
                             float* out) {
  write_changes(c, Shown{c, was, was_player}, Shown{c, s, player}, out);
}

}  // namespace dimsum::dim_sum_jam
