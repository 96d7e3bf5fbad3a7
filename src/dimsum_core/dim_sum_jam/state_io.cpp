// Dim Sum Jam's states from outside: the one check of an untrusted state (bytes, a dict, on
// either engine: the reference validates its dicts through the core). The fields themselves are
// declared in schema.cpp; resample is the default (engine.hpp says why).
#include <array>
#include <bit>

#include "../common/bits.hpp"
#include "../common/byte_order.hpp"
#include "../common/errors.hpp"
#include "../common/validate.hpp"
#include "engine.hpp"

namespace dimsum::dim_sum_jam {

namespace {

bool in_setup(const State& s) { return s.chance >= kChanceShuffle && s.chance <= kChanceSetupDeal; }

// What an icon space's value is, for the one-pass check of a table (validate): a token's type
// (0-6, to compare with the icon's), or one of these. Indexed by the value's byte.
inline constexpr uint8_t kSpaceEmpty = kTypes, kSpaceTea = kTypes + 1, kSpaceBad = kTypes + 2;
inline constexpr auto kSpaceClass = [] {
  std::array<uint8_t, 256> classes{};
  for (int b = 0; b < 256; ++b) {
    const int value = static_cast<int8_t>(b);
    classes[static_cast<size_t>(b)] = value == kEmpty ? kSpaceEmpty
                                      : value == kTea ? kSpaceTea
                                      : value >= 0 && value < kTokens ? static_cast<uint8_t>(value / kTypes)
                                                                      : kSpaceBad;
  }
  return classes;
}();

// Table k's icon spaces when all is well, in one pass with few branches: every space past the
// card's icons empty (one compare of the row as a word), every space on them empty, a tea or a
// token of its icon's type, no token twice on the card. Its tokens, empty spaces and teas go to
// the out-parameters. False if anything is wrong: validate then walks the spaces one by one for
// the message (the same walk, and so the same message, as without this pass).
bool spaces_look_right(const Config& c, const State& s, int k, int card, uint64_t& tokens, uint8_t& empty,
                       int& teas) {
  const int n = card < 0 ? 0 : c.num_icons[card];
  // byte i: space i (the value's two's complement), on every host (common/byte_order.hpp)
  const uint64_t row = load_little_endian_bytes(s.slots[k], kMaxIcons);
  constexpr uint64_t kAllEmpty = 0x00FFFFFFFFFFFFFFull;  // kMaxIcons bytes of kEmpty
  bool fine = (row >> (8 * n)) == (kAllEmpty >> (8 * n));
  tokens = 0;
  empty = 0;
  teas = 0;
  for (int i = 0; i < n; ++i) {
    const int value = s.slots[k][i];
    const uint8_t what = kSpaceClass[static_cast<uint8_t>(value)];
    if (what == static_cast<uint8_t>(c.icons[card][i])) {
      const uint64_t bit = uint64_t{1} << value;
      fine = fine && !(tokens & bit);
      tokens |= bit;
    } else {
      empty = static_cast<uint8_t>(empty | (what == kSpaceEmpty) << i);
      teas += what == kSpaceTea;
      fine = fine && (what == kSpaceEmpty || what == kSpaceTea);
    }
  }
  return fine;
}

// The set-up shuffle's partial deck: positions [0, shuffle_left) undecided (bit 0), the placed
// backs of the top section no more than it holds of each kind, the VIP section and the bottom
// as laid out.
bool check_shuffle(const Config& c, const State& s, char* err, int errlen) {
  const int top_len = top_section(c), left = s.shuffle_left;
  if (left < 2 || left > top_len || !c.extra_vips)
    return fail(err, errlen, "dim_sum_jam state field 'shuffle_left': %d; 2 to %d (the top section) while the "
                "set-up shuffles extra VIPs", left, top_len);
  const uint64_t placed = s.deck_vips & ((1ull << top_len) - 1), vips = count_bits(placed);
  const int regular = top_len - left - static_cast<int>(vips);
  if ((s.deck_vips & ((1ull << left) - 1)) || static_cast<int>(vips) > c.extra_vips || regular > c.deck_top_regular)
    return fail(err, errlen, "dim_sum_jam state field 'deck_vips': the shuffled part of the top section does not fit "
                "%d regular and %d VIP backs; undecided positions 0 and at most that many of each", c.deck_top_regular,
                c.extra_vips);
  uint64_t rest = 0;
  for (int i = 0; i < c.deck_vips; ++i) rest |= 1ull << (top_len + i);
  if ((s.deck_vips & ~((1ull << top_len) - 1)) != rest || s.deck_len != c.deck_length)
    return fail(err, errlen, "dim_sum_jam state field 'deck_vips': the deck below the top section is not as laid out "
                "while the set-up shuffles; the full deck, its VIP section below the top");
  return true;
}

// The set-up's chance nodes come in the rulebook's order (steps 4-10): nothing has happened yet
// but the shuffle, the table cards from table 1, the start player, the deal from seat 0.
bool check_setup(const Config& c, const State& s, char* err, int errlen) {
  if (s.phase != kPlayPhase || s.discard || s.out || s.complaints || s.tea_reception || s.draw_pending ||
      s.required || s.case3 || s.redraws || s.direction != 1 || s.reverse_used || s.tea_supply != c.tea_supply ||
      s.clock.top != s.clock.capacity)
    return fail(err, errlen, "dim_sum_jam state field 'chance': set-up event %d in a game already under way; the "
                "set-up's events come before the first play", s.chance);
  int cards = 0;  // tables 1..cards hold a card, the others none
  while (cards < kTables && s.table_card[cards] >= 0) ++cards;
  bool tables_ok = s.deck_len == c.deck_length - cards &&
                   (s.chance == kChanceShuffle ? cards == 0 : s.chance == kChanceSetupCard ? cards < kTables
                                                                                              : cards == kTables);
  for (int k = cards; k < kTables; ++k) tables_ok = tables_ok && s.table_card[k] < 0;
  if (!tables_ok)
    return fail(err, errlen, "dim_sum_jam state field 'table_cards': %d cards on tables 1-%d and %d in the deck in "
                "set-up event %d; tables 1-7 fill in order from the deck, before the start player is chosen",
                cards, cards, s.deck_len, s.chance);
  if (s.active && s.chance != kChanceSetupDeal)
    return fail(err, errlen, "dim_sum_jam state field 'active': %d before the start player is chosen; 0", s.active);
  uint64_t dealt = 0;  // seats below `seat` hold a full hand, seat `seat` part of one, the rest nothing
  for (int p = 0; p < c.players; ++p) dealt |= s.hands[p];
  const int n = count_bits(dealt), seat = n / c.hand_limit;
  bool hands_ok = (s.bag | dealt) == kAllTokens && (n == 0 || (s.chance == kChanceSetupDeal && seat < c.players));
  for (int p = 0; p < c.players; ++p)
    hands_ok = hands_ok && count_bits(s.hands[p]) == (p < seat ? c.hand_limit : p == seat ? n % c.hand_limit : 0);
  if (!hands_ok)
    return fail(err, errlen, "dim_sum_jam state field 'hands': %d tokens dealt in set-up event %d; the deal gives "
                "%d tokens from the bag to each seat in turn from seat 0, after the start player is chosen", n,
                s.chance, c.hand_limit);
  return true;
}

// A pending chance event (explicit mode) fits the position: it is one the rules stop at here.
bool check_chance(const Config& c, const State& s, char* err, int errlen) {
  if (s.chance > kLastChance)
    return fail(err, errlen, "dim_sum_jam state field 'chance': %d; 0 none to %d", s.chance, kLastChance);
  if (s.chance && !c.explicit_chance)
    return fail(err, errlen, "dim_sum_jam state field 'chance': %d in a sampled game; 0 (only a game made with "
                "chance='explicit' stops at chance nodes)", s.chance);
  if ((s.shuffle_left != 0) != (s.chance == kChanceShuffle))
    return fail(err, errlen, "dim_sum_jam state field 'shuffle_left': %d with chance %d; set exactly while the "
                "set-up shuffles", s.shuffle_left, s.chance);
  if (s.chance == kChanceShuffle && !check_shuffle(c, s, err, errlen)) return false;
  if (in_setup(s)) return check_setup(c, s, err, errlen);
  if (s.chance == kChanceCard) {
    int empty = 0;
    for (int k = 0; k < kTables; ++k) empty += s.table_card[k] < 0;
    if (s.phase != kPlayPhase || empty != 1 || !s.deck_len)
      return fail(err, errlen, "dim_sum_jam state field 'chance': a card to turn up in phase %d with %d empty tables "
                  "and %d cards in the deck; in 'play', one table emptied by a fulfilment, a card in the deck",
                  s.phase, empty, s.deck_len);
  }
  if (s.chance == kChanceDraw || s.chance == kChanceRefill) {
    const bool draw = s.chance == kChanceDraw;
    const bool phase_ok = draw ? (s.phase == kPlayPhase || s.phase == kReward)
                               : (s.phase == kStuckDiscard || s.phase == kTimeoutDiscard);
    const int player = draw || s.phase == kStuckDiscard ? s.active : s.discarder;
    const int hand = c.play_next_hand ? (player + 1) % c.players : player;
    if (!phase_ok || !s.bag || count_bits(s.hands[hand]) >= c.hand_limit || (draw && s.draw_pending))
      return fail(err, errlen, "dim_sum_jam state field 'chance': a %s in phase %d; a token for a hand below the "
                  "limit from a bag that has one, after a play or reward (draw) or discarding (refill)",
                  draw ? "draw" : "refill", s.phase);
  }
  return true;
}

}  // namespace

// Everything a state from outside must satisfy before the rules may touch it. Messages name the
// field: "dim_sum_jam state field '<name>': <what is wrong>; <what is allowed>".
bool Engine::validate(const Config& c, const State& s, char* err, int errlen) {
  const int P = c.players;
  // one value at a time (the per-field bounds, for bytes that never went through them)
  if (s.phase < kPlayPhase || s.phase > kOver)
    return fail(err, errlen, "dim_sum_jam state field 'phase': %d; 0 play, 1 reward, 2 timeout_discard, 3 "
                "stuck_discard, 4 stand or 5 over", s.phase);
  if (s.active < 0 || s.active >= P)
    return fail(err, errlen, "dim_sum_jam state field 'active': %d; a seat in [0, %d]", s.active, P - 1);
  if (s.direction != 1 && !(s.direction == -1 && c.reverse_variant))
    return fail(err, errlen, "dim_sum_jam state field 'direction': %d; 1, or -1 in the reverse variant", s.direction);
  if (s.discarder < -1 || s.discarder >= P)
    return fail(err, errlen, "dim_sum_jam state field 'discarder': %d; a seat in [0, %d] or -1", s.discarder, P - 1);
  if (s.resume < -1 || s.resume > kReward)
    return fail(err, errlen, "dim_sum_jam state field 'resume': %d; 0 play, 1 reward or -1", s.resume);
  if (s.required < 0 || s.required > kTables)
    return fail(err, errlen, "dim_sum_jam state field 'required_table': %d; 0 (any table) to %d", s.required, kTables);
  if (s.opening_left < 0 || s.opening_left > P - 1)
    return fail(err, errlen, "dim_sum_jam state field 'opening_free_turns': %d; 0 to %d", s.opening_left, P - 1);
  if (s.case3 > 1) return fail(err, errlen, "dim_sum_jam state field 'stuck_complained': %d; 0 or 1", s.case3);
  if (s.draw_pending > 1)
    return fail(err, errlen, "dim_sum_jam state field 'draw_pending': %d; 0 or 1", s.draw_pending);
  if (s.reverse_used > 1)
    return fail(err, errlen, "dim_sum_jam state field 'reverse_used': %d; 0 or 1", s.reverse_used);
  if (s.redraws > c.max_free_redraws)
    return fail(err, errlen, "dim_sum_jam state field 'free_redraws': %d; 0 to %d (max_free_redraws)", s.redraws,
                c.max_free_redraws);
  if (s.tea_supply > c.tea_supply)
    return fail(err, errlen, "dim_sum_jam state field 'tea_supply': %d; 0 to %d", s.tea_supply, c.tea_supply);
  if (s.tea_reception > c.tea_supply)
    return fail(err, errlen, "dim_sum_jam state field 'tea_reception': %d; 0 to %d", s.tea_reception, c.tea_supply);
  if (s.complaints > c.complaint_limit)
    return fail(err, errlen, "dim_sum_jam state field 'complaints': %d; 0 to %d (complaint_limit)", s.complaints,
                c.complaint_limit);
  if (s.outcome < kRunning || s.outcome > kComplaints)
    return fail(err, errlen, "dim_sum_jam state field 'outcome': %d; -1 running, 0 win, 1 deck_out or 2 complaints",
                s.outcome);
  if (s.deck_len > c.deck_length)
    return fail(err, errlen, "dim_sum_jam state field 'deck_size': %d cards; this configuration's deck has %d",
                s.deck_len, c.deck_length);
  if (s.deck_len < 64 && (s.deck_vips >> s.deck_len) != 0)
    return fail(err, errlen, "dim_sum_jam state field 'deck_vips': a VIP back below the deck's %d cards; backs of the "
                "cards in the deck only", s.deck_len);
  if (s.clock.capacity != c.glass_ticks)
    return fail(err, errlen, "dim_sum_jam state field 'clock_capacity': %d; the glass of this game holds %d ticks",
                s.clock.capacity, c.glass_ticks);
  if (!s.clock.valid())
    return fail(err, errlen, "dim_sum_jam state field 'clock_top': %d (lying %d); 0 to %d ticks, lying 0 or 1",
                s.clock.top, s.clock.lying, s.clock.capacity);
  const char* game = Engine::kName;
  if (!check_rng_field(game, s.rng, err, errlen) || !check_reserved_zero(game, s.reserved_, err, errlen))
    return false;
  if (!check_chance(c, s, err, errlen)) return false;
  const bool chance = s.chance != kNoChance;
  if (!check_seats_past_players_empty(game, "hands", s.hands, P, err, errlen)) return false;

  // tokens: every one of the 49 in exactly one place
  uint64_t seen = 0, twice = 0;
  auto place = [&](uint64_t mask) {
    twice = (mask & ~kAllTokens) | (seen & mask);
    seen |= mask;
    return twice == 0;
  };
  auto token_twice = [&](const char* field) {
    const int t = std::countr_zero(twice);
    return fail(err, errlen, "dim_sum_jam state field '%s': token %d (type %d, number %d) is also in another place; "
                "each of the %d tokens is in one place", field, t, t / 7, t % 7 + 1, kTokens);
  };
  for (int p = 0; p < P; ++p) {
    if (!place(s.hands[p])) return token_twice("hands");
    if (count_bits(s.hands[p]) > c.hand_limit)
      return fail(err, errlen, "dim_sum_jam state field 'hands': player %d holds %d tokens; at most the hand limit %d",
                  p, count_bits(s.hands[p]), c.hand_limit);
  }
  if (!place(s.bag)) return token_twice("bag");
  if (!place(s.discard)) return token_twice("discard");
  uint64_t on_tables = 0;
  int teas_on_cards = 0;
  for (int k = 0; k < kTables; ++k) {
    const int card = s.table_card[k];
    if (card < -1 || card >= c.num_cards)
      return fail(err, errlen, "dim_sum_jam state field 'table_cards': table %d holds card %d; a card id in [0, %d] "
                  "or -1", k + 1, card, c.num_cards - 1);
    uint64_t tokens = 0;
    uint8_t empty = 0;
    int teas = 0;
    if (spaces_look_right(c, s, k, card, tokens, empty, teas) && (tokens & seen) == 0) {
      seen |= tokens;
      teas_on_cards += teas;
    } else {
      empty = 0;
      for (int i = 0; i < kMaxIcons; ++i) {
        const int slot = s.slots[k][i];
        if (slot < kEmpty || slot > kTea)
          return fail(err, errlen, "dim_sum_jam state field 'slots': table %d space %d holds %d; -1 empty, a token "
                      "0-48 or 49 tea", k + 1, i, slot);
        if (card < 0 || i >= c.num_icons[card]) {
          if (slot != kEmpty)
            return fail(err, errlen, "dim_sum_jam state field 'slots': table %d space %d holds %d past the card's "
                        "icons; -1 there", k + 1, i, slot);
          continue;
        }
        if (slot == kEmpty) {
          empty = static_cast<uint8_t>(empty | (1u << i));
        } else if (slot == kTea) {
          ++teas_on_cards;
        } else if (slot / 7 != c.icons[card][i]) {
          return fail(err, errlen, "dim_sum_jam state field 'slots': table %d space %d holds a token of type %d; a "
                      "token of its icon's type %d", k + 1, i, slot / 7, c.icons[card][i]);
        } else if (!place(1ull << slot)) {
          return token_twice("slots");
        }
      }
    }
    if (empty != s.empty_slots[k])
      return fail(err, errlen, "dim_sum_jam state field 'slots': table %d's empty spaces are stale; they are the "
                  "empty slots", k + 1);
    if (card >= 0) {
      if (on_tables >> card & 1u)
        return fail(err, errlen, "dim_sum_jam state field 'table_cards': card %d is on two tables; a card is on one "
                    "table at most", card);
      on_tables |= 1ull << card;
    }
  }
  if (seen != kAllTokens)
    return fail(err, errlen, "dim_sum_jam state field 'bag': %d tokens missing from every place; each of the %d "
                "tokens is in a hand, the bag, the discard pile or on a card", kTokens - count_bits(seen), kTokens);

  // cards: the deck's backs are unseen cards of that kind
  if (s.out & ~c.all_cards)
    return fail(err, errlen, "dim_sum_jam state field 'cards_out': card %d is not a card of this game; card ids 0-%d",
                std::countr_zero(s.out & ~c.all_cards), c.num_cards - 1);
  if (s.out & on_tables)
    return fail(err, errlen, "dim_sum_jam state field 'cards_out': card %d is also on a table; a card is out or on a "
                "table", std::countr_zero(s.out & on_tables));
  // the deck's cards are not on a table or out: the three together are at most the whole deck
  // (observe writes one deck slot per card of the configured deck)
  if (s.deck_len + count_bits(on_tables) + count_bits(s.out) > c.deck_length)
    return fail(err, errlen, "dim_sum_jam state field 'deck_size': %d cards, with %d on tables and %d out; the three "
                "add up to at most this configuration's deck of %d", s.deck_len, count_bits(on_tables),
                count_bits(s.out), c.deck_length);
  const uint64_t left = unseen(c, s);
  // the backs the set-up shuffle has still to place count with their kind
  const int deck_vips = count_bits(s.deck_vips) + shuffle_vips_left(c, s), deck_regular = s.deck_len - deck_vips;
  if (deck_regular > count_bits(left & c.regular_mask))
    return fail(err, errlen, "dim_sum_jam state field 'deck_vips': the deck has %d regular backs but %d regular cards "
                "are unseen; at most one back per unseen card", deck_regular, count_bits(left & c.regular_mask));
  if (deck_vips > count_bits(left & c.vip_mask))
    return fail(err, errlen, "dim_sum_jam state field 'deck_vips': the deck has %d VIP backs but %d VIP cards are "
                "unseen; at most one back per unseen card", deck_vips, count_bits(left & c.vip_mask));
  if (s.tea_supply + s.tea_reception + teas_on_cards != c.tea_supply)
    return fail(err, errlen, "dim_sum_jam state field 'tea_supply': teas: supply %d + reception %d + on cards %d; the "
                "game's teas, %d", s.tea_supply, s.tea_reception, teas_on_cards, c.tea_supply);

  // the phase: the fields it uses are set, the others at rest
  const bool over = s.phase == kOver;
  if (over != (s.outcome != kRunning))
    return fail(err, errlen, "dim_sum_jam state field 'outcome': %d in phase %d; set exactly when the phase is 'over'",
                s.outcome, s.phase);
  if ((s.phase == kTimeoutDiscard) != (s.discarder >= 0))
    return fail(err, errlen, "dim_sum_jam state field 'discarder': %d in phase %d; set exactly in 'timeout_discard'",
                s.discarder, s.phase);
  // DSJ-22: after a time-out that interrupted the reward, "reward" keeps resume until its flip
  const bool flip_owed = s.phase == kReward && s.resume == kReward && !c.timeout_flips_first && c.time_on &&
                         s.clock.top == 0;
  if ((s.phase == kTimeoutDiscard) != (s.resume >= 0) && !flip_owed)
    return fail(err, errlen, "dim_sum_jam state field 'resume': %d in phase %d; set exactly in 'timeout_discard' "
                "(and in 'reward' with an empty glass after the time-out that interrupted it, DSJ-22)",
                s.resume, s.phase);
  if (s.draw_pending && !(s.phase == kReward || (s.phase == kTimeoutDiscard && s.resume == kReward) ||
                          s.chance == kChanceCard))
    return fail(err, errlen, "dim_sum_jam state field 'draw_pending': set in phase %d; only while the reward is "
                "undecided", s.phase);
  auto full = [&](int k) { return s.table_card[k] >= 0 && s.empty_slots[k] == 0; };
  if (!over) {
    const bool lying_phase = s.phase == kStuckDiscard || s.phase == kStand;
    if (bool(s.clock.lying) != lying_phase)
      return fail(err, errlen, "dim_sum_jam state field 'clock_lying': %d in phase %d; the glass lies down exactly in "
                  "'stuck_discard' and 'stand'", s.clock.lying, s.phase);
    if (s.complaints >= c.complaint_limit)
      return fail(err, errlen, "dim_sum_jam state field 'complaints': %d while the game runs; below the limit %d",
                  s.complaints, c.complaint_limit);
    if (lying_phase && !(s.case3 && s.required == 0))
      return fail(err, errlen, "dim_sum_jam state field 'stuck_complained': %d with required_table %d in phase %d; "
                  "the stuck rule needs stuck_complained 1 and required_table 0", s.case3, s.required, s.phase);
    if (vips_left(c, s, -1) + shuffle_vips_left(c, s) == 0)
      return fail(err, errlen, "dim_sum_jam state field 'table_cards': no VIP on a table or in the deck; a running "
                  "game needs an unfulfilled VIP");
    for (int k = 0; k < kTables; ++k) {
      if (s.table_card[k] < 0 && !chance)  // a chance node may wait for a table's card (check_chance)
        return fail(err, errlen, "dim_sum_jam state field 'table_cards': table %d has no card while the game runs; a "
                    "card on every table", k + 1);
      if (full(k))
        return fail(err, errlen, "dim_sum_jam state field 'slots': table %d's card is full while the game runs; it "
                    "would have been fulfilled", k + 1);
    }
    if (c.time_on) {
      if (s.phase == kTimeoutDiscard && s.clock.top != 0)
        return fail(err, errlen, "dim_sum_jam state field 'clock_top': %d in 'timeout_discard'; a time-out needs an "
                    "empty top", s.clock.top);
      // a chance node after the play that emptied the glass: the time-out follows its outcome
      if ((s.phase == kPlayPhase || s.phase == kReward) && s.clock.top == 0 && !chance && !flip_owed)
        return fail(err, errlen, "dim_sum_jam state field 'clock_top': 0 in phase %d; an empty standing glass in "
                    "'play' or 'reward' is an unresolved time-out", s.phase);
    }
    if (s.phase == kPlayPhase && !chance && !has_play(c, s))
      return fail(err, errlen, "dim_sum_jam state field 'phase': 'play' but the active player cannot play; that is "
                  "phase 'stuck_discard'");
    return true;
  }
  if ((s.outcome == kComplaints) != (s.complaints == c.complaint_limit))
    return fail(err, errlen, "dim_sum_jam state field 'complaints': %d with outcome %d; at the limit %d exactly when "
                "the outcome is 'complaints'", s.complaints, s.outcome, c.complaint_limit);
  int n_full = 0, full_table = -1, n_empty = 0;
  for (int k = 0; k < kTables; ++k) {
    if (full(k)) ++n_full, full_table = k;
    if (s.table_card[k] < 0) ++n_empty;
  }
  if (s.outcome == kWin) {
    if (n_full != 1 || n_empty || !(c.vip_mask >> s.table_card[full_table] & 1u) || vips_left(c, s, full_table))
      return fail(err, errlen, "dim_sum_jam state field 'outcome': 'win' with %d full and %d empty tables; the last "
                  "VIP fulfilled on its table and no other VIP left", n_full, n_empty);
  } else if (s.outcome == kDeckOut) {
    if (n_empty != 1 || n_full || s.deck_len)
      return fail(err, errlen, "dim_sum_jam state field 'outcome': 'deck_out' with %d full and %d empty tables, %d "
                  "cards in the deck; one table without a card, no full card and an empty deck", n_full, n_empty,
                  s.deck_len);
  } else if (n_full || n_empty) {
    return fail(err, errlen, "dim_sum_jam state field 'outcome': 'complaints' with %d full and %d empty tables; every "
                "table with an unfinished card", n_full, n_empty);
  }
  return true;
}

}  // namespace dimsum::dim_sum_jam
