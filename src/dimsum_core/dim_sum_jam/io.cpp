// Dim Sum Jam's boundary with the outside: the config from flat ints, observations, the flat
// field form behind to_dict/state_from_dict, validation of untrusted states, resampling.
// The layouts here must match python/dimsum/games/dim_sum_jam.py and dim_sum_jam_dict.py.
#include <bit>
#include <initializer_list>

#include "../common/errors.hpp"
#include "engine.hpp"
#include "hashing.hpp"

namespace dimsum::dim_sum_jam {
namespace {

constexpr int kConfigHeader = 25;  // ints before the cards
constexpr int kCardInts = 2 + kMaxIcons;
constexpr int kScalarFields = 21;   // phase .. clock lying
constexpr int kFieldsBeforeHands = kScalarFields + 4;

}  // namespace

bool Engine::config_from_ints(const int64_t* v, int n, Config& c, char* err, int errlen) {
  c = Config{};
  if (n < kConfigHeader || v[0] != kConfigFormat) return fail(err, errlen, "dim_sum_jam config: unknown format");
  if (!in_range(v[1], 2, kMaxPlayers) || !in_range(v[2], 1, 7) || !in_range(v[3], 0, 15) || !in_range(v[4], 1, 15) ||
      !in_range(v[5], 0, kMaxCards) || !in_range(v[8], 0, 2) || !in_range(v[9], 1, kMaxClockCapacity) ||
      !in_range(v[10], 0, v[9]) || !in_range(v[11], 0, kMaxClockCapacity) || !in_range(v[17], 0, 10) ||
      !in_range(v[20], 0, kMaxCards) || !in_range(v[21], 0, kMaxCards) || !in_range(v[22], 0, kMaxCards) ||
      !in_range(v[23], 1, 1 << 30) || !in_range(v[24], 1, kMaxCards) || n != kConfigHeader + kCardInts * v[24])
    return fail(err, errlen, "dim_sum_jam config: an option is out of range");
  for (int i : {6, 7, 12, 13, 14, 15, 16, 18, 19})
    if (!in_range(v[i], 0, 1)) return fail(err, errlen, "dim_sum_jam config: flag %d is not 0 or 1", i);
  c.players = static_cast<int8_t>(v[1]);
  c.hand_limit = static_cast<int8_t>(v[2]);
  c.tea_supply = static_cast<int8_t>(v[3]);
  c.complaint_limit = static_cast<int8_t>(v[4]);
  c.extra_vips = static_cast<int8_t>(v[5]);
  c.play_next_hand = v[6];
  c.reverse_variant = v[7];
  c.reverse_trigger = static_cast<uint8_t>(v[8]);
  c.glass_ticks = static_cast<int32_t>(v[9]);
  c.ticks_per_action = static_cast<int32_t>(v[10]);
  c.ticks_per_team_decision = static_cast<int32_t>(v[11]);
  c.time_on = c.ticks_per_action > 0;
  c.flip_full = v[12];
  c.stand_same_only = v[13];
  c.timeout_all_players = v[14];
  c.resume_free_play = v[15];
  c.decline_tea = v[16];
  c.max_free_redraws = static_cast<int8_t>(v[17]);
  c.opening_first_round = v[18];
  c.draw_after_tea = v[19];
  c.deck_top_regular = static_cast<int8_t>(v[20]);
  c.deck_vips = static_cast<int8_t>(v[21]);
  c.deck_bottom_regular = static_cast<int8_t>(v[22]);
  c.max_game_length = static_cast<int32_t>(v[23]);
  c.num_cards = static_cast<int8_t>(v[24]);
  const int64_t deck_length = v[20] + v[21] + v[22] + v[5];
  if (deck_length > kMaxCards || deck_length < 1) return fail(err, errlen, "dim_sum_jam config: bad deck length");
  c.deck_length = static_cast<int8_t>(deck_length);
  const int64_t* card = v + kConfigHeader;
  for (int k = 0; k < c.num_cards; ++k, card += kCardInts) {
    if (!in_range(card[0], 0, 1) || !in_range(card[1], 1, kMaxIcons))
      return fail(err, errlen, "dim_sum_jam config: card %d is invalid", k);
    c.num_icons[k] = static_cast<uint8_t>(card[1]);
    for (int i = 0; i < kMaxIcons; ++i) {
      const bool used = i < card[1];
      if (used ? !in_range(card[2 + i], 0, kTypes - 1) : card[2 + i] != -1)
        return fail(err, errlen, "dim_sum_jam config: card %d has a bad icon", k);
      c.icons[k][i] = static_cast<uint8_t>(used ? card[2 + i] : 0);
    }
    (card[0] ? c.vip_mask : c.regular_mask) |= 1ull << k;
  }
  c.all_cards = c.vip_mask | c.regular_mask;
  if (std::popcount(c.regular_mask) < c.deck_top_regular + c.deck_bottom_regular ||
      std::popcount(c.vip_mask) < c.deck_vips + c.extra_vips)
    return fail(err, errlen, "dim_sum_jam config: too few cards for the deck");
  for (int types = 0; types < (1 << kTypes); ++types)
    for (int y = 0; y < kTypes; ++y)
      if (types >> y & 1) c.type_tokens[types] |= 0x7Full << (7 * y);
  const int P = c.players, C = c.num_cards, D = c.deck_length;
  c.observation_size = 6 + 2 * P + P * kTokens + 2 * kTokens + kTables * C + kTables * kTypes + kTables * kTokens +
                       kTables + (kTables + 1) + 2 * D + C + 5 + 4 + 6 + 3;
  return true;
}

ConfigInfo Engine::config_info(const Config& c) {
  const int fields = kFieldsBeforeHands + c.players + 2 + kTables + kTables * kMaxIcons;
  return ConfigInfo{kNumActions, c.players, c.observation_size, fields, c.max_game_length};
}

void Engine::observe(const Config& c, const State& s, int player, float* out) {
  // the layout of dimsum.games.dim_sum_jam._observation_layout, seats relative to `player`
  const int P = c.players, C = c.num_cards;
  float* const start = out;
  for (int i = 0; i < c.observation_size; ++i) out[i] = 0.0f;
  auto rel = [&](int seat) { return ((seat - player) % P + P) % P; };
  out[s.phase] = 1.0f;
  out += 6;
  if (s.phase != kOver) out[rel(current_player(s))] = 1.0f;
  out += P;
  out[rel(s.active)] = 1.0f;
  out += P;
  for (int seat = 0; seat < P; ++seat)
    for_each_bit(s.hands[seat], [&](int t) { out[rel(seat) * kTokens + t] = 1.0f; });
  out += P * kTokens;
  for_each_bit(s.bag, [&](int t) { out[t] = 1.0f; });
  out += kTokens;
  for_each_bit(s.discard, [&](int t) { out[t] = 1.0f; });
  out += kTokens;
  float* cards = out;
  float* empty_icons = cards + kTables * C;
  float* tokens = empty_icons + kTables * kTypes;
  float* teas = tokens + kTables * kTokens;
  for (int k = 0; k < kTables; ++k) {
    const int card = s.table_card[k];
    if (card < 0) continue;
    cards[k * C + card] = 1.0f;
    for (int i = 0; i < c.num_icons[card]; ++i) {
      const int slot = s.slots[k][i];
      if (slot == kEmpty) empty_icons[k * kTypes + c.icons[card][i]] += 1.0f;
      else if (slot == kTea) teas[k] += 1.0f;
      else tokens[k * kTokens + slot] = 1.0f;
    }
  }
  out = teas + kTables;
  out[s.required] = 1.0f;
  out += kTables + 1;
  for (int i = 0; i < s.deck_len; ++i) out[2 * i + (s.deck_vips >> i & 1u)] = 1.0f;
  out += 2 * c.deck_length;
  for_each_bit(s.out, [&](int card) { out[card] = 1.0f; });
  out += C;
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
  *out++ = s.discarder >= 0 ? static_cast<float>(rel(s.discarder)) : -1.0f;
  if (s.outcome >= 0) out[s.outcome] = 1.0f;
  out += 3;
  (void)start;
}

// ---------------------------------------------------------------------------------------------
// The flat field form: 21 scalars, rng, hands, bag, discard, table cards, slots.

int Engine::export_fields(const Config& c, const State& s, int64_t* out) {
  int64_t* start = out;
  for (int64_t x : {int64_t{s.phase}, int64_t{s.active}, int64_t{s.direction}, int64_t{s.discarder},
                    int64_t{s.resume}, int64_t{s.required}, int64_t{s.opening_left}, int64_t{s.case3},
                    int64_t{s.redraws}, int64_t{s.draw_pending}, int64_t{s.tea_supply}, int64_t{s.tea_reception},
                    int64_t{s.complaints}, int64_t{s.reverse_used}, int64_t{s.outcome}, int64_t{s.deck_len},
                    static_cast<int64_t>(s.deck_vips), static_cast<int64_t>(s.out), int64_t{s.clock.top},
                    int64_t{s.clock.capacity}, int64_t{s.clock.lying}})
    *out++ = x;
  for (uint64_t w : s.rng.s) *out++ = static_cast<int64_t>(w);
  for (int p = 0; p < c.players; ++p) *out++ = static_cast<int64_t>(s.hands[p]);
  *out++ = static_cast<int64_t>(s.bag);
  *out++ = static_cast<int64_t>(s.discard);
  for (int k = 0; k < kTables; ++k) *out++ = s.table_card[k];
  for (int k = 0; k < kTables; ++k)
    for (int i = 0; i < kMaxIcons; ++i) *out++ = s.slots[k][i];
  return static_cast<int>(out - start);
}

bool Engine::import_fields(const Config& c, const int64_t* v, int n, State& s, char* err, int errlen) {
  const int expected = config_info(c).num_fields;
  if (n != expected) return fail(err, errlen, "dim_sum_jam state: expected %d fields, got %d", expected, n);
  s = State{};
  // ranges first, so that nothing is truncated into the narrow fields
  const int64_t lo[kScalarFields] = {0, 0, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, INT64_MIN, INT64_MIN, 0, 1, 0};
  const int64_t hi[kScalarFields] = {kOver, kMaxPlayers, 1, kMaxPlayers, 1, kTables, kMaxPlayers, 1, 10, 1, 15, 15, 15,
                                     1, 2, kMaxCards, INT64_MAX, INT64_MAX, kMaxClockCapacity, kMaxClockCapacity, 1};
  for (int i = 0; i < kScalarFields; ++i)
    if (!in_range(v[i], lo[i], hi[i])) return fail(err, errlen, "dim_sum_jam state: field %d is out of range", i);
  s.phase = static_cast<int8_t>(v[0]);
  s.active = static_cast<int8_t>(v[1]);
  s.direction = static_cast<int8_t>(v[2]);
  s.discarder = static_cast<int8_t>(v[3]);
  s.resume = static_cast<int8_t>(v[4]);
  s.required = static_cast<int8_t>(v[5]);
  s.opening_left = static_cast<int8_t>(v[6]);
  s.case3 = static_cast<uint8_t>(v[7]);
  s.redraws = static_cast<uint8_t>(v[8]);
  s.draw_pending = static_cast<uint8_t>(v[9]);
  s.tea_supply = static_cast<uint8_t>(v[10]);
  s.tea_reception = static_cast<uint8_t>(v[11]);
  s.complaints = static_cast<uint8_t>(v[12]);
  s.reverse_used = static_cast<uint8_t>(v[13]);
  s.outcome = static_cast<int8_t>(v[14]);
  s.deck_len = static_cast<uint8_t>(v[15]);
  s.deck_vips = static_cast<uint64_t>(v[16]);
  s.out = static_cast<uint64_t>(v[17]);
  s.clock.top = static_cast<int32_t>(v[18]);
  s.clock.capacity = static_cast<int32_t>(v[19]);
  s.clock.lying = static_cast<uint8_t>(v[20]);
  const int64_t* x = v + kScalarFields;
  for (int k = 0; k < 4; ++k) s.rng.s[k] = static_cast<uint64_t>(*x++);
  for (int p = 0; p < c.players; ++p) s.hands[p] = static_cast<uint64_t>(*x++);
  s.bag = static_cast<uint64_t>(*x++);
  s.discard = static_cast<uint64_t>(*x++);
  for (int k = 0; k < kTables; ++k, ++x) {
    if (!in_range(*x, -1, c.num_cards - 1))
      return fail(err, errlen, "dim_sum_jam state: table %d's card is out of range", k);
    s.table_card[k] = static_cast<int8_t>(*x);
  }
  for (int k = 0; k < kTables; ++k)
    for (int i = 0; i < kMaxIcons; ++i, ++x) {
      if (!in_range(*x, kEmpty, kTea))
        return fail(err, errlen, "dim_sum_jam state: table %d slot %d is out of range", k, i);
      s.slots[k][i] = static_cast<int8_t>(*x);
      if (*x == kEmpty && s.table_card[k] >= 0 && i < c.num_icons[s.table_card[k]])
        s.empty_slots[k] = static_cast<uint8_t>(s.empty_slots[k] | (1u << i));
    }
  s.hash = compute_hash(c, s);
  return validate(c, s, err, errlen);
}

// Everything a state from outside (bytes, a dict) must satisfy before the rules may touch it:
// the checks of dimsum.games.dim_sum_jam_dict, in the same order where it matters.
bool Engine::validate(const Config& c, const State& s, char* err, int errlen) {
  const int P = c.players;
  auto bad = [&](const char* what) { return fail(err, errlen, "dim_sum_jam state: %s", what); };
  if (s.phase < kPlayPhase || s.phase > kOver) return bad("bad phase");
  if (s.active < 0 || s.active >= P) return bad("active is out of range");
  if (s.direction != 1 && !(s.direction == -1 && c.reverse_variant))
    return bad("direction must be 1 (or -1 in the reverse variant)");
  if (s.discarder < -1 || s.discarder >= P) return bad("discarder is out of range");
  if (s.resume < -1 || s.resume > kReward) return bad("resume is out of range");
  if (s.required < 0 || s.required > kTables) return bad("required_table is out of range");
  if (s.opening_left < 0 || s.opening_left > P - 1) return bad("opening_free_turns is out of range");
  if (s.case3 > 1 || s.draw_pending > 1 || s.reverse_used > 1) return bad("a flag is not 0 or 1");
  if (s.redraws > c.max_free_redraws) return bad("free_redraws is out of range");
  if (s.tea_supply > c.tea_supply || s.tea_reception > c.tea_supply) return bad("tea counts are out of range");
  if (s.complaints > c.complaint_limit) return bad("complaints are out of range");
  if (s.outcome < kRunning || s.outcome > kComplaints) return bad("bad outcome");
  if (s.deck_len > kMaxCards || (s.deck_len < 64 && (s.deck_vips >> s.deck_len) != 0))
    return bad("deck backs are inconsistent");
  if (!s.clock.valid() || s.clock.capacity != c.glass_ticks) return bad("the clock is invalid or of another capacity");
  if ((s.rng.s[0] | s.rng.s[1] | s.rng.s[2] | s.rng.s[3]) == 0) return bad("zero rng");
  for (uint8_t b : s.reserved_)
    if (b) return bad("reserved bytes must be zero");
  for (int p = P; p < kMaxPlayers; ++p)
    if (s.hands[p]) return bad("a seat not in this game holds tokens");
  // tokens: every one of the 49 in exactly one place
  uint64_t seen = 0;
  auto place = [&](uint64_t mask) {
    const bool ok = (mask & ~kAllTokens) == 0 && (seen & mask) == 0;
    seen |= mask;
    return ok;
  };
  for (int p = 0; p < P; ++p) {
    if (!place(s.hands[p])) return bad("a token is in two places");
    if (std::popcount(s.hands[p]) > c.hand_limit) return bad("a hand holds more than the hand limit");
  }
  if (!place(s.bag) || !place(s.discard)) return bad("a token is in two places");
  uint64_t on_tables = 0;
  int teas_on_cards = 0;
  for (int k = 0; k < kTables; ++k) {
    const int card = s.table_card[k];
    if (card < -1 || card >= c.num_cards) return bad("a table card is out of range");
    uint8_t empty = 0;
    for (int i = 0; i < kMaxIcons; ++i) {
      const int slot = s.slots[k][i];
      if (slot < kEmpty || slot > kTea) return bad("a slot is out of range");
      if (card < 0 || i >= c.num_icons[card]) {
        if (slot != kEmpty) return bad("a slot past the card's icons is not empty");
        continue;
      }
      if (slot == kEmpty) empty = static_cast<uint8_t>(empty | (1u << i));
      else if (slot == kTea) ++teas_on_cards;
      else if (slot / 7 != c.icons[card][i] || !place(1ull << slot))
        return bad("a token on a card does not match its icon or is in two places");
    }
    if (empty != s.empty_slots[k]) return bad("empty icon spaces are inconsistent");
    if (card >= 0) {
      if (on_tables >> card & 1u) return bad("a card is on two tables");
      on_tables |= 1ull << card;
    }
  }
  if (seen != kAllTokens) return bad("tokens are missing from every place");
  if ((s.out & ~c.all_cards) || (s.out & on_tables)) return bad("cards_out is inconsistent");
  const uint64_t left = unseen(c, s);
  const int deck_vips = std::popcount(s.deck_vips);
  if (s.deck_len - deck_vips > std::popcount(left & c.regular_mask) || deck_vips > std::popcount(left & c.vip_mask))
    return bad("the deck has more backs of a kind than unseen cards of that kind");
  if (s.tea_supply + s.tea_reception + teas_on_cards != c.tea_supply) return bad("teas are not conserved");
  // phase consistency (dim_sum_jam_dict._check_phase)
  const bool over = s.phase == kOver;
  if (over != (s.outcome != kRunning)) return bad("outcome must be set exactly when phase is 'over'");
  if ((s.phase == kTimeoutDiscard) != (s.discarder >= 0)) return bad("discarder is set exactly in 'timeout_discard'");
  if ((s.phase == kTimeoutDiscard) != (s.resume >= 0)) return bad("resume is set exactly in 'timeout_discard'");
  if (s.draw_pending && !(s.phase == kReward || (s.phase == kTimeoutDiscard && s.resume == kReward)))
    return bad("draw_pending is only set while the reward is undecided");
  auto full = [&](int k) { return s.table_card[k] >= 0 && s.empty_slots[k] == 0; };
  if (!over) {
    const bool lying_phase = s.phase == kStuckDiscard || s.phase == kStand;
    if (bool(s.clock.lying) != lying_phase) return bad("the glass lies down exactly in 'stuck_discard' and 'stand'");
    if (s.complaints >= c.complaint_limit) return bad("complaints must be below the limit while the game runs");
    if (lying_phase && !(s.case3 && s.required == 0))
      return bad("the stuck rule needs stuck_complained and required_table 0");
    if (vips_left(c, s, -1) == 0) return bad("a running game needs an unfulfilled VIP");
    for (int k = 0; k < kTables; ++k)
      if (s.table_card[k] < 0 || full(k)) return bad("a table has no card or a full card while the game runs");
    if (c.time_on) {
      if (s.phase == kTimeoutDiscard && s.clock.top != 0) return bad("a time-out needs an empty top");
      if ((s.phase == kPlayPhase || s.phase == kReward) && s.clock.top == 0)
        return bad("an empty standing glass is an unresolved time-out");
    }
    if (s.phase == kPlayPhase && !has_play(c, s)) return bad("phase 'play' but the active player cannot play");
    return true;
  }
  if ((s.outcome == kComplaints) != (s.complaints == c.complaint_limit))
    return bad("complaints do not fit the outcome");
  int n_full = 0, full_table = -1, n_empty = 0;
  for (int k = 0; k < kTables; ++k) {
    if (full(k)) ++n_full, full_table = k;
    if (s.table_card[k] < 0) ++n_empty;
  }
  if (s.outcome == kWin) {
    if (n_full != 1 || n_empty || !(c.vip_mask >> s.table_card[full_table] & 1u) || vips_left(c, s, full_table))
      return bad("outcome 'win' needs the last VIP fulfilled on its table and no other VIP left");
  } else if (s.outcome == kDeckOut) {
    if (n_empty != 1 || n_full || s.deck_len)
      return bad("outcome 'deck_out' needs one table without a card and an empty deck");
  } else if (n_full || n_empty) {
    return bad("a 'complaints' ending leaves every table with an unfinished card");
  }
  return true;
}

// Hands, tables, the discard pile, the bag's contents and the deck's backs are public; the
// hidden orders (bag, faces within a back) are never fixed, so resampling is reseeding.
void Engine::resample(const Config&, const State& s, int, uint64_t seed, State& out) {
  out = s;
  out.rng = Rng::from_seed(seed);
}

}  // namespace dimsum::dim_sum_jam
