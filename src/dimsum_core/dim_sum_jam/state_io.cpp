// Dim Sum Jam's states from outside: the one check of an untrusted state (bytes, a dict, on
// either engine: the reference validates its dicts through the core). The fields themselves are
// declared in schema.cpp; resample is the default (engine.hpp says why).
#include <bit>

#include "../common/bits.hpp"
#include "../common/errors.hpp"
#include "engine.hpp"

namespace dimsum::dim_sum_jam {

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
  if ((s.rng.s[0] | s.rng.s[1] | s.rng.s[2] | s.rng.s[3]) == 0)
    return fail(err, errlen, "dim_sum_jam state field 'rng': all zero; an all-zero generator never leaves zero");
  for (uint8_t b : s.reserved_)
    if (b) return fail(err, errlen, "dim_sum_jam state field 'reserved': set; reserved bytes are zero");
  for (int p = P; p < kMaxPlayers; ++p)
    if (s.hands[p])
      return fail(err, errlen, "dim_sum_jam state field 'hands': seat %d holds tokens; this game has %d seats", p, P);

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
    uint8_t empty = 0;
    for (int i = 0; i < kMaxIcons; ++i) {
      const int slot = s.slots[k][i];
      if (slot < kEmpty || slot > kTea)
        return fail(err, errlen, "dim_sum_jam state field 'slots': table %d space %d holds %d; -1 empty, a token 0-48 "
                    "or 49 tea", k + 1, i, slot);
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
  const uint64_t left = unseen(c, s);
  const int deck_vips = count_bits(s.deck_vips), deck_regular = s.deck_len - deck_vips;
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
  if ((s.phase == kTimeoutDiscard) != (s.resume >= 0))
    return fail(err, errlen, "dim_sum_jam state field 'resume': %d in phase %d; set exactly in 'timeout_discard'",
                s.resume, s.phase);
  if (s.draw_pending && !(s.phase == kReward || (s.phase == kTimeoutDiscard && s.resume == kReward)))
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
    if (vips_left(c, s, -1) == 0)
      return fail(err, errlen, "dim_sum_jam state field 'table_cards': no VIP on a table or in the deck; a running "
                  "game needs an unfulfilled VIP");
    for (int k = 0; k < kTables; ++k) {
      if (s.table_card[k] < 0)
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
      if ((s.phase == kPlayPhase || s.phase == kReward) && s.clock.top == 0)
        return fail(err, errlen, "dim_sum_jam state field 'clock_top': 0 in phase %d; an empty standing glass in "
                    "'play' or 'reward' is an unresolved time-out", s.phase);
    }
    if (s.phase == kPlayPhase && !has_play(c, s))
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
