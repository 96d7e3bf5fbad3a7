// Yum Cha's boundary with the outside: the config from flat ints, observations, the flat
// field form behind to_dict/state_from_dict, validation of untrusted states, resampling.
// The layouts here must match python/dimsum/games/yum_cha.py and yum_cha_dict.py.
#include <algorithm>

#include "../common/chance.hpp"
#include "../common/errors.hpp"
#include "engine.hpp"
#include "hashing.hpp"

namespace dimsum::yum_cha {

bool Engine::config_from_ints(const int64_t* v, int n, Config& c, char* err, int errlen) {
  c = Config{};
  if (n < 11 || v[0] != kConfigFormat) return fail(err, errlen, "yum_cha config: unknown format");
  if (!in_range(v[1], 2, kMaxPlayers) || !in_range(v[2], 1, kMaxRounds) || !in_range(v[3], -1, v[1] - 1) ||
      !in_range(v[6], 0, 2) || !in_range(v[7], 1, 10000) || !in_range(v[8], 0, 1) || !in_range(v[9], 0, 1) ||
      !in_range(v[10], 1, kMaxTiers) || n < 12 + v[10])
    return fail(err, errlen, "yum_cha config: an option is out of range");
  c.players = static_cast<int8_t>(v[1]);
  c.rounds = static_cast<int8_t>(v[2]);
  c.first_player = static_cast<int8_t>(v[3]);
  c.auto_declare = v[4] != 0;
  c.forbid_immediate_return = v[5] != 0;
  c.deck_out = static_cast<uint8_t>(v[6]);
  c.max_turns = static_cast<int16_t>(v[7]);
  c.tie_break = static_cast<uint8_t>(v[8]);
  c.reward = static_cast<uint8_t>(v[9]);
  c.num_tiers = static_cast<int8_t>(v[10]);
  int i = 11;
  const int tiers = static_cast<int>(v[10]);  // in [1, kMaxTiers], checked above
  for (int tier = 0; tier < tiers && tier < kMaxTiers; ++tier, ++i) {
    if (!in_range(v[i], 1, 9)) return fail(err, errlen, "yum_cha config: tier %d's points are out of range", tier);
    c.tier_points[tier] = static_cast<uint8_t>(v[i]);
  }
  const int64_t types = v[i++];
  if (!in_range(types, 1, kMaxTypes) || n != i + 4 * types) return fail(err, errlen, "yum_cha config: bad type list");
  c.num_types = static_cast<int8_t>(types);
  c.takeaway_type = -1;
  c.tea_first = static_cast<uint8_t>(types);
  int last_kind = 0, last_tier = 0;
  for (int t = 0; t < types; ++t, i += 4) {
    const int64_t kind = v[i], tier = v[i + 1], value = v[i + 2], copies = v[i + 3];
    // types come grouped: dim sum by tier, then teas, then the takeaway card
    if (!in_range(kind, last_kind, 2) || !in_range(copies, 1, 15) || !in_range(value, 0, 9) ||
        (kind == kDimSum && !in_range(tier, last_tier, c.num_tiers - 1)))
      return fail(err, errlen, "yum_cha config: card type %d is invalid or out of order", t);
    c.kind[t] = static_cast<uint8_t>(kind);
    c.value[t] = static_cast<uint8_t>(value);
    c.copies[t] = static_cast<uint8_t>(copies);
    c.full_deck.set(t, static_cast<int>(copies));
    c.total_cards = static_cast<int16_t>(c.total_cards + copies);
    if (kind == kDimSum) {
      c.tier[t] = static_cast<uint8_t>(tier);
      if (c.tier_end[tier] == 0) c.tier_first[tier] = static_cast<uint8_t>(t);
      c.tier_end[tier] = static_cast<uint8_t>(t + 1);
      last_tier = static_cast<int>(tier);
    } else if (kind == kTea) {
      if (c.num_teas == 0) c.tea_first = static_cast<uint8_t>(t);
      ++c.num_teas;
    } else {
      if (c.takeaway_type >= 0) return fail(err, errlen, "yum_cha config: two takeaway types");
      c.takeaway_type = static_cast<int8_t>(t);
    }
    last_kind = static_cast<int>(kind);
  }
  if (c.total_cards < c.players * kHandSize + 1 || c.total_cards > 255)
    return fail(err, errlen, "yum_cha config: %d cards cannot be dealt to %d players", c.total_cards, c.players);
  for (int k = 0; k < c.num_tiers; ++k) c.tiers_by_points[k] = static_cast<uint8_t>(k);
  std::stable_sort(c.tiers_by_points, c.tiers_by_points + c.num_tiers,
                   [&](uint8_t a, uint8_t b) { return c.tier_points[a] > c.tier_points[b]; });
  c.num_actions = static_cast<int16_t>(2 + 2 * c.num_types);
  const int P = c.players, T = c.num_types;
  c.observation_size = static_cast<int16_t>(2 * T + (P - 1) * T + P + 1 + P + c.rounds + 2 + P + T + 1);
  return true;
}

ConfigInfo Engine::config_info(const Config& c) {
  const int fields = 12 + 4 * c.players + 2 * c.players * c.num_types + 2 * c.num_types;
  return ConfigInfo{c.num_actions, c.players, c.observation_size, fields, c.rounds * c.max_turns * 2};
}

void Engine::observe(const Config& c, const State& s, int player, float* out) {
  // the layout of dimsum.games.yum_cha._observation_layout, my seat first
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

// ---------------------------------------------------------------------------------------------
// The flat field form: scalars, rng, per-player numbers, hands, known, centre, deck.

int Engine::export_fields(const Config& c, const State& s, int64_t* out) {
  int64_t* start = out;
  const int P = c.players, T = c.num_types;
  for (int64_t x : {int64_t{s.round}, int64_t{s.phase}, int64_t{s.current}, int64_t{s.starter},
                    int64_t{s.turn}, int64_t{s.last_taken}, int64_t{s.last_discard}, int64_t{s.last_declarer}})
    *out++ = x;
  for (uint64_t w : s.rng.s) *out++ = static_cast<int64_t>(w);
  for (int p = 0; p < P; ++p) {
    *out++ = s.scores[p];
    *out++ = s.declarations[p];
    *out++ = s.best_round[p];
    *out++ = s.last_round[p];
  }
  for (int p = 0; p < P; ++p)
    for (int t = 0; t < T; ++t) *out++ = s.hands[p].get(t);
  for (int p = 0; p < P; ++p)
    for (int t = 0; t < T; ++t) *out++ = s.known[p].get(t);
  for (int t = 0; t < T; ++t) *out++ = s.centre.get(t);
  for (int t = 0; t < T; ++t) *out++ = s.deck.get(t);
  return static_cast<int>(out - start);
}

bool Engine::import_fields(const Config& c, const int64_t* v, int n, State& s, char* err, int errlen) {
  const int P = c.players, T = c.num_types;
  if (n != config_info(c).num_fields) return fail(err, errlen, "yum_cha state: expected %d fields, got %d",
                                                   config_info(c).num_fields, n);
  s = State{};
  // counts go through a range check first: Counts64 holds at most 15 of a kind
  for (int i = 12 + 4 * P; i < n; ++i)
    if (v[i] < 0 || v[i] > 15) return fail(err, errlen, "yum_cha state: a card count is out of range");
  for (int i = 0; i < 8; ++i)
    if (v[i] < -1 || v[i] > 30000) return fail(err, errlen, "yum_cha state: field %d out of range", i);
  s.round = static_cast<int8_t>(v[0]);
  s.phase = static_cast<int8_t>(v[1]);
  s.current = static_cast<int8_t>(v[2]);
  s.starter = static_cast<int8_t>(v[3]);
  s.turn = static_cast<uint16_t>(v[4]);
  s.last_taken = static_cast<int8_t>(v[5]);
  s.last_discard = static_cast<int8_t>(v[6]);
  s.last_declarer = static_cast<int8_t>(v[7]);
  for (int k = 0; k < 4; ++k) s.rng.s[k] = static_cast<uint64_t>(v[8 + k]);
  const int64_t* x = v + 12;
  for (int p = 0; p < P; ++p, x += 4) {
    if (x[0] < 0 || x[0] > 30000 || x[1] < 0 || x[1] > kMaxRounds || x[2] < 0 || x[2] > 30000 || x[3] < 0 || x[3] > 30000)
      return fail(err, errlen, "yum_cha state: player %d's scores are out of range", p);
    s.scores[p] = static_cast<int16_t>(x[0]);
    s.declarations[p] = static_cast<uint8_t>(x[1]);
    s.best_round[p] = static_cast<int16_t>(x[2]);
    s.last_round[p] = static_cast<int16_t>(x[3]);
  }
  for (int p = 0; p < P; ++p)
    for (int t = 0; t < T; ++t) s.hands[p].set(t, static_cast<int>(*x++));
  for (int p = 0; p < P; ++p)
    for (int t = 0; t < T; ++t) s.known[p].set(t, static_cast<int>(*x++));
  for (int t = 0; t < T; ++t) s.centre.set(t, static_cast<int>(*x++));
  for (int t = 0; t < T; ++t) s.deck.set(t, static_cast<int>(*x++));
  for (int p = 0; p < P; ++p) s.hand_size[p] = static_cast<uint8_t>(s.hands[p].total());
  s.centre_size = static_cast<uint8_t>(std::min(255, s.centre.total()));
  s.deck_size = static_cast<uint8_t>(std::min(255, s.deck.total()));
  s.hash = compute_hash(c, s);
  return validate(c, s, err, errlen);
}

namespace {

// Byte lanes: the 16 four-bit counts of a word as two words of 8 byte-wide lanes, so that
// summing up to 8 holders (at most 8 x 15 = 120 a lane) never carries into the next lane.
constexpr uint64_t kLowNibbles = 0x0F0F0F0F0F0F0F0Full, kLaneTop = 0x8080808080808080ull;
constexpr uint64_t low_lanes(uint64_t w) { return w & kLowNibbles; }
constexpr uint64_t high_lanes(uint64_t w) { return (w >> 4) & kLowNibbles; }
// every lane of a >= the same lane of b (lanes below 128): no lane borrows
constexpr bool lanes_at_least(uint64_t a, uint64_t b) { return (((a | kLaneTop) - b) & kLaneTop) == kLaneTop; }

// Every card of the deck is in exactly one place, and nobody is known to hold more than they do:
// a few word operations per holder instead of a loop over card types.
bool cards_conserved(const Config& c, const State& s) {
  for (int word = 0; word < 4; ++word) {
    uint64_t lo = low_lanes(s.centre.w[word]) + low_lanes(s.deck.w[word]);
    uint64_t hi = high_lanes(s.centre.w[word]) + high_lanes(s.deck.w[word]);
    for (int p = 0; p < c.players; ++p) {
      const uint64_t hand = s.hands[p].w[word], known = s.known[p].w[word];
      lo += low_lanes(hand);
      hi += high_lanes(hand);
      if (!lanes_at_least(low_lanes(hand), low_lanes(known)) || !lanes_at_least(high_lanes(hand), high_lanes(known)))
        return false;
    }
    if (lo != low_lanes(c.full_deck.w[word]) || hi != high_lanes(c.full_deck.w[word])) return false;
  }
  return true;
}

}  // namespace

// Everything a state from outside (bytes, a dict) must satisfy before the rules may touch it.
bool Engine::validate(const Config& c, const State& s, char* err, int errlen) {
  const int P = c.players, T = c.num_types;
  const bool over = s.phase == kOver;
  if (s.phase < kDraw || s.phase > kOver) return fail(err, errlen, "yum_cha state: bad phase %d", s.phase);
  if (over ? (s.round != c.rounds || s.current != -1) : (s.round < 0 || s.round >= c.rounds || s.current < 0 || s.current >= P))
    return fail(err, errlen, "yum_cha state: round %d / current player %d do not fit phase %d", s.round, s.current, s.phase);
  if (s.starter < 0 || s.starter >= P || s.turn > c.max_turns || s.last_declarer < -1 || s.last_declarer >= P ||
      s.last_taken < -1 || s.last_taken >= T || s.last_discard < -1 || s.last_discard >= T)
    return fail(err, errlen, "yum_cha state: a turn field is out of range");
  if ((s.rng.s[0] | s.rng.s[1] | s.rng.s[2] | s.rng.s[3]) == 0) return fail(err, errlen, "yum_cha state: zero rng");
  for (uint8_t b : s.reserved_)
    if (b) return fail(err, errlen, "yum_cha state: reserved bytes must be zero");
  for (int p = P; p < kMaxPlayers; ++p)
    if (!s.hands[p].empty() || !s.known[p].empty() || s.hand_size[p] || s.scores[p] || s.declarations[p] ||
        s.best_round[p] || s.last_round[p])
      return fail(err, errlen, "yum_cha state: seat %d is not in this game", p);
  for (int word = 0; word < 4; ++word) {
    // nibbles of types >= T must be empty
    const int valid_types = std::clamp(T - 16 * word, 0, 16);
    const uint64_t valid = valid_types == 16 ? ~uint64_t{0} : (uint64_t{1} << (4 * valid_types)) - 1;
    if ((s.centre.w[word] | s.deck.w[word]) & ~valid) return fail(err, errlen, "yum_cha state: unknown card type");
  }
  if (!cards_conserved(c, s)) {
    // the fast check failed: find the card to name in the message
    for (int t = 0; t < T; ++t) {
      int total = s.centre.get(t) + s.deck.get(t);
      for (int p = 0; p < P; ++p) {
        total += s.hands[p].get(t);
        if (s.known[p].get(t) > s.hands[p].get(t))
          return fail(err, errlen, "yum_cha state: player %d is known to hold more of card %d than they do", p, t);
      }
      if (total != c.copies[t])
        return fail(err, errlen, "yum_cha state: %d copies of card %d in play, the deck has %d", total, t, c.copies[t]);
    }
    return fail(err, errlen, "yum_cha state: cards of unknown types in play");
  }
  int long_hands = 0;
  for (int p = 0; p < P; ++p) {
    if (s.hand_size[p] != s.hands[p].total() || s.declarations[p] > s.round || s.scores[p] < 0)
      return fail(err, errlen, "yum_cha state: player %d's hand or score is inconsistent", p);
    if (s.hand_size[p] == kHandSize + 1) ++long_hands;
    else if (s.hand_size[p] != kHandSize) return fail(err, errlen, "yum_cha state: player %d holds %d cards", p, s.hand_size[p]);
  }
  const int expected_long = s.phase == kDiscard ? 1 : 0;
  if (over ? long_hands > 1 : (long_hands != expected_long || (expected_long && s.hand_size[s.current] != kHandSize + 1)))
    return fail(err, errlen, "yum_cha state: hand sizes do not fit the phase");
  if (s.centre_size != s.centre.total() || s.deck_size != s.deck.total())
    return fail(err, errlen, "yum_cha state: centre or deck size is inconsistent");
  if (s.last_taken >= 0 && (s.phase != kDiscard || s.hands[s.current].get(s.last_taken) == 0))
    return fail(err, errlen, "yum_cha state: last_taken is only set while its taker holds it, before discarding");
  if (s.phase == kDraw && s.deck_size == 0 && s.centre_size == 0)
    return fail(err, errlen, "yum_cha state: nothing to draw from");
  return true;
}

// A state consistent with all `player` has seen: the cards they cannot see dealt anew.
void Engine::resample(const Config& c, const State& s, int player, uint64_t seed, State& out) {
  out = s;
  out.rng = Rng::from_seed(seed);
  Counts64 pool = s.deck;
  int pool_size = s.deck_size;
  for (int p = 0; p < c.players; ++p) {
    if (p == player) continue;
    for (int t = 0; t < c.num_types; ++t)
      for (int k = s.known[p].get(t); k < s.hands[p].get(t); ++k) pool.add(t), ++pool_size;
  }
  for (int p = 0; p < c.players; ++p) {
    if (p == player) continue;
    Counts64 hand = s.known[p];
    for (int k = s.known[p].total(); k < s.hand_size[p]; ++k) {
      const int t = draw_kind(out.rng, pool, pool_size);
      pool.sub(t);
      --pool_size;
      hand.add(t);
    }
    out.hands[p] = hand;
  }
  out.deck = pool;
  out.deck_size = static_cast<uint8_t>(pool_size);
  out.hash = compute_hash(c, out);
}

}  // namespace dimsum::yum_cha
