// Dim Sum Jam's rules: set-up, a play, fulfilling an order, the team's reward, time-outs,
// the stuck player, the endings. Rule ids (DSJ-n) refer to docs/rules/dim_sum_jam.md; each
// function mirrors the method of the same name in python/dimsum/reference/dim_sum_jam.py,
// and the RNG is consumed in the same order (docs section 9). In explicit chance mode each random
// event stops the game instead (s.chance, see "explicit chance" below); the sampled path is the
// same code with the draw made where the event happens.
#include <bit>

#include "../common/chance.hpp"
#include "../common/errors.hpp"

#include "engine.hpp"
#include "hashing.hpp"

namespace dimsum::dim_sum_jam {

namespace {

int hand_of(const Config& c, int player) { return c.play_next_hand ? (player + 1) % c.players : player; }

// The empty icon spaces of table k as whole bytes: byte i is 0xFF if space i is empty, else 0.
// The bits spread one to a byte (bit i to bit 0 of byte i: the seven shifted copies of a 7-bit
// mask do not overlap, so the multiply carries nothing), then widen to the byte. ANDed with the
// card's Config::icon_type_bytes, it gives the empty spaces' types without a loop over the
// spaces (a branch a space, mispredicted at its end, on every move).
uint64_t empty_space_bytes(const State& s, int k) {
  const uint64_t spaces = s.empty_slots[k] & 0x7Fu;
  return ((spaces * 0x0002040810204081ull) & 0x0101010101010101ull) * 0xFF;
}

// Mask of the token types with an empty icon space on table k: the empty spaces' type bits, the
// bytes ORed together.
int empty_types(const Config& c, const State& s, int k) {
  const int card = s.table_card[k];
  if (card < 0) return 0;
  uint64_t types = c.icon_type_bytes[card] & empty_space_bytes(s, k);
  types |= types >> 32;
  types |= types >> 16;
  types |= types >> 8;
  return static_cast<int>(types & 0x7F);
}

// The tables the active player may serve: [first, last).
void allowed_tables(const State& s, int& first, int& last) {
  first = s.required == 0 ? 0 : s.required - 1;
  last = s.required == 0 ? kTables : s.required;
}

// Per table, the hand's tokens that fit an empty icon and the types of its empty icons (both 0
// at a table the player may not serve).
void playable(const Config& c, const State& s, uint64_t* fits, int* types_of) {
  const uint64_t hand = s.hands[hand_of(c, s.active)];
  int first, last;
  allowed_tables(s, first, last);
  for (int k = 0; k < kTables; ++k) {
    types_of[k] = 0;
    fits[k] = 0;
    if (k < first || k >= last) continue;
    types_of[k] = empty_types(c, s, k);
    fits[k] = hand & c.type_tokens[types_of[k]];
  }
}

}  // namespace

// settle asks this after every action, and legal_actions then builds the whole playable set:
// this stops at the first allowed table where a token or a tea fits, and fills no arrays.
bool has_play(const Config& c, const State& s) {
  const uint64_t hand = s.hands[hand_of(c, s.active)];
  int first, last;
  allowed_tables(s, first, last);
  for (int k = first; k < last; ++k) {
    const int types = empty_types(c, s, k);
    if ((hand & c.type_tokens[types]) != 0 || (s.tea_reception && types)) return true;
  }
  return false;
}

namespace {

// kKeyed (here and below): keep s.hash exact (apply) or leave it stale (apply_unkeyed; the
// hashing.hpp setters then only set), the rules the same either way.

// DSJ-17: a draw from an empty bag takes the discard pile first. False if there is nothing to draw.
template <bool kKeyed>
bool bag_ready(State& s) {
  if (!s.bag) {
    if constexpr (kKeyed) s.hash ^= mask_keys(kLocDiscard, s.discard) ^ mask_keys(kLocBag, s.discard);
    s.bag = s.discard;
    s.discard = 0;
  }
  return s.bag != 0;
}

template <bool kKeyed>
void take_token(State& s, int hand, int t) {
  remove_token<kKeyed>(s, kLocBag, s.bag, t);
  add_token<kKeyed>(s, hand, s.hands[hand], t);
}

template <bool kKeyed>
bool draw_token(State& s, int hand) {
  if (!bag_ready<kKeyed>(s)) return false;
  take_token<kKeyed>(s, hand, draw_bit(s.rng, s.bag));
  return true;
}

// Explicit mode: does `hand` draw a token now (below the limit, something to draw)? Then the draw
// is a chance node.
template <bool kKeyed>
bool needs_draw(const Config& c, State& s, int hand) {
  return count_bits(s.hands[hand]) < c.hand_limit && bag_ready<kKeyed>(s);
}

template <bool kKeyed>
void refill(const Config& c, State& s, int hand) {
  while (count_bits(s.hands[hand]) < c.hand_limit && draw_token<kKeyed>(s, hand)) {
  }
}

// The draw after a play: one token, unless a time-out refill already filled the hand.
template <bool kKeyed>
void draw_one(const Config& c, State& s, int hand) {
  if (count_bits(s.hands[hand]) < c.hand_limit) draw_token<kKeyed>(s, hand);
}

}  // namespace

uint64_t unseen(const Config& c, const State& s) {
  uint64_t on_tables = 0;
  for (int k = 0; k < kTables; ++k)
    if (s.table_card[k] >= 0) on_tables |= 1ull << s.table_card[k];
  return c.all_cards & ~on_tables & ~s.out;
}

uint64_t face_pool(const Config& c, const State& s) {
  return unseen(c, s) & (s.deck_vips & 1u ? c.vip_mask : c.regular_mask);
}

namespace {

template <bool kKeyed>
void pop_deck(State& s) {
  Keys::set<kKeyed>(s.hash, kFDeckVips, s.deck_vips, static_cast<int64_t>(s.deck_vips >> 1));
  Keys::set<kKeyed>(s.hash, kFDeckLen, s.deck_len, s.deck_len - 1);
}

// Onto a table without a card, whose spaces are all empty already (fulfil empties them, and
// validate refuses anything else), so only the card and the empty-space mask change.
template <bool kKeyed>
void place_card(const Config& c, State& s, int k, int card) {
  set_card<kKeyed>(s, k, card);
  s.empty_slots[k] = static_cast<uint8_t>((1u << c.num_icons[card]) - 1);
}

// The top card of the deck onto table k: its face is uniform among unseen cards of its back.
template <bool kKeyed>
void turn_up_card(const Config& c, State& s, int k) {
  const uint64_t pool = face_pool(c, s);
  pop_deck<kKeyed>(s);
  place_card<kKeyed>(c, s, k, draw_bit(s.rng, pool));
}

}  // namespace

int vips_left(const Config& c, const State& s, int excluding_table) {
  int n = count_bits(s.deck_vips);
  for (int k = 0; k < kTables; ++k)
    if (k != excluding_table && s.table_card[k] >= 0 && (c.vip_mask >> s.table_card[k] & 1u)) ++n;
  return n;
}

namespace {

template <bool kKeyed>
void end_game(State& s, int outcome) {
  Keys::set<kKeyed>(s.hash, kFOutcome, s.outcome, outcome);
  Keys::set<kKeyed>(s.hash, kFPhase, s.phase, kOver);
  Keys::set<kKeyed>(s.hash, kFDiscarder, s.discarder, -1);
  Keys::set<kKeyed>(s.hash, kFResume, s.resume, -1);
  Keys::set<kKeyed>(s.hash, kFDrawPending, s.draw_pending, 0);
}

template <bool kKeyed>
void pass_turn(const Config& c, State& s, int required) {
  Keys::set<kKeyed>(s.hash, kFActive, s.active, ((s.active + s.direction) % c.players + c.players) % c.players);
  if (s.opening_left) {
    Keys::set<kKeyed>(s.hash, kFOpeningLeft, s.opening_left, s.opening_left - 1);
    required = 0;
  }
  Keys::set<kKeyed>(s.hash, kFRequired, s.required, required);
  Keys::set<kKeyed>(s.hash, kFCase3, s.case3, 0);
  Keys::set<kKeyed>(s.hash, kFRedraws, s.redraws, 0);
  Keys::set<kKeyed>(s.hash, kFPhase, s.phase, kPlayPhase);
}

template <bool kKeyed>
void flip_glass(const Config& c, State& s) {
  change_clock<kKeyed>(s, [&](TickClock& clock) { c.flip_full ? clock.refill() : clock.flip(); });  // DSJ-1
}

template <bool kKeyed>
void reverse_direction(State& s) { Keys::set<kKeyed>(s.hash, kFDirection, s.direction, -s.direction); }

// Put a token (or kTea) on the first empty icon space of type `type` on table k (there is one:
// the play is legal): the lowest byte of the empty spaces whose icon is of that type.
template <bool kKeyed>
void place(const Config& c, State& s, int k, int item, int type) {
  const uint64_t of_type = c.icon_type_bytes[s.table_card[k]] & empty_space_bytes(s, k) &
                           (0x0101010101010101ull << type);
  set_slot<kKeyed>(s, k, std::countr_zero(of_type) >> 3, item);
}

// After the new card is on the table: the Reverse variant's turn, then the team's reward.
template <bool kKeyed>
void after_turn_up(const Config& c, State& s) {
  if (c.reverse_variant && c.reverse_trigger == kOnFulfil) reverse_direction<kKeyed>(s);
  Keys::set<kKeyed>(s.hash, kFPhase, s.phase, kReward);
}

// DSJ-12, in this order: win check, clear the card, next card (or lose), then the reward.
template <bool kKeyed>
void fulfil(const Config& c, State& s, int k, bool draw, int next_required) {
  const int card = s.table_card[k];
  if ((c.vip_mask >> card & 1u) && vips_left(c, s, k) == 0) return end_game<kKeyed>(s, kWin);  // ending (a)
  for (int i = 0; i < c.num_icons[card]; ++i) {
    const int slot = s.slots[k][i];
    if (slot == kTea) Keys::set<kKeyed>(s.hash, kFTeaSupply, s.tea_supply, s.tea_supply + 1);
    else add_token<kKeyed>(s, kLocDiscard, s.discard, slot);
    set_slot<kKeyed>(s, k, i, kEmpty);
  }
  put_out<kKeyed>(s, card);
  set_card<kKeyed>(s, k, -1);
  s.empty_slots[k] = 0;
  if (s.deck_len == 0) return end_game<kKeyed>(s, kDeckOut);  // ending (b), DSJ-13
  Keys::set<kKeyed>(s.hash, kFDrawPending, s.draw_pending, draw);
  Keys::set<kKeyed>(s.hash, kFRequired, s.required, next_required);  // in "reward": the next player's table
  if (c.explicit_chance) return set_pending<kKeyed>(s, kFChance, s.chance, kChanceCard);  // the face is chance's
  turn_up_card<kKeyed>(c, s, k);
  after_turn_up<kKeyed>(c, s);
}

template <bool kKeyed>
void after_serving(const Config& c, State& s, int k, bool draw, int next_required) {
  if (s.empty_slots[k] == 0) return fulfil<kKeyed>(c, s, k, draw, next_required);
  if (draw) {
    const int hand = hand_of(c, s.active);
    if (!c.explicit_chance) {
      draw_one<kKeyed>(c, s, hand);
    } else if (needs_draw<kKeyed>(c, s, hand)) {
      Keys::set<kKeyed>(s.hash, kFRequired, s.required, next_required);  // kept for the pass after the draw
      return set_pending<kKeyed>(s, kFChance, s.chance, kChanceDraw);
    }
  }
  pass_turn<kKeyed>(c, s, next_required);
}

template <bool kKeyed>
void play_token(const Config& c, State& s, int t, int k) {
  const int hand = hand_of(c, s.active);
  remove_token<kKeyed>(s, hand, s.hands[hand], t);
  place<kKeyed>(c, s, k, t, t / 7);
  const int number = t % 7 + 1;
  if (c.reverse_variant && c.reverse_trigger == kOnSelfTable && number == k + 1) reverse_direction<kKeyed>(s);
  after_serving<kKeyed>(c, s, k, true, number);  // DSJ-16: the token's number
}

template <bool kKeyed>
void play_tea(const Config& c, State& s, int k, int type) {
  Keys::set<kKeyed>(s.hash, kFTeaReception, s.tea_reception, s.tea_reception - 1);
  place<kKeyed>(c, s, k, kTea, type);
  after_serving<kKeyed>(c, s, k, c.draw_after_tea, 1);  // DSJ-11: the next player serves table 1
}

template <bool kKeyed>
void reward(const Config& c, State& s, int a) {
  const bool flip_owed = s.resume == kReward;  // DSJ-22: a time-out interrupted this reward
  if (a == kFlip) {
    flip_glass<kKeyed>(c, s);
  } else if (a == kTakeTea) {
    Keys::set<kKeyed>(s.hash, kFTeaSupply, s.tea_supply, s.tea_supply - 1);
    Keys::set<kKeyed>(s.hash, kFTeaReception, s.tea_reception, s.tea_reception + 1);
  } else {
    Keys::set<kKeyed>(s.hash, kFReverseUsed, s.reverse_used, 1);
    reverse_direction<kKeyed>(s);
  }
  if (flip_owed) {  // the time-out's flip (DSJ-2), unless the reward's flip just was that flip
    Keys::set<kKeyed>(s.hash, kFResume, s.resume, -1);
    if (a != kFlip) flip_glass<kKeyed>(c, s);
  }
  if (s.draw_pending) {
    Keys::set<kKeyed>(s.hash, kFDrawPending, s.draw_pending, 0);
    if (!c.explicit_chance) draw_one<kKeyed>(c, s, hand_of(c, s.active));
    else if (needs_draw<kKeyed>(c, s, hand_of(c, s.active))) return set_pending<kKeyed>(s, kFChance, s.chance, kChanceDraw);
  }
  pass_turn<kKeyed>(c, s, s.required);
}

template <bool kKeyed>
void discard_token(const Config& c, State& s, int t) {
  const int player = s.phase == kTimeoutDiscard ? s.discarder : s.active;
  const int hand = hand_of(c, player);
  remove_token<kKeyed>(s, hand, s.hands[hand], t);
  add_token<kKeyed>(s, kLocDiscard, s.discard, t);
}

// The hand that replenishes after discarding: the stuck player's, or the time-out's discarder's.
int refill_hand(const Config& c, const State& s) {
  return hand_of(c, s.phase == kStuckDiscard ? s.active : s.discarder);
}

// What follows the replenish: the stuck player stands the glass; a time-out goes to the next
// discarder or ends.
template <bool kKeyed>
void after_refill(const Config& c, State& s) {
  if (s.phase == kStuckDiscard) return Keys::set<kKeyed>(s.hash, kFPhase, s.phase, kStand);
  const int next = (s.discarder + 1) % c.players;  // DSJ-5: clockwise from the active player
  if (next != s.active && c.timeout_all_players) return Keys::set<kKeyed>(s.hash, kFDiscarder, s.discarder, next);
  Keys::set<kKeyed>(s.hash, kFDiscarder, s.discarder, -1);
  if (s.resume == kReward && !c.timeout_flips_first) {
    // DSJ-22: the interrupted reward is chosen first, the glass still empty; `resume` stays set
    // while the time-out's flip is owed (reward<kKeyed>() makes it), so the empty glass is no new time-out
    return Keys::set<kKeyed>(s.hash, kFPhase, s.phase, kReward);
  }
  flip_glass<kKeyed>(c, s);  // DSJ-2: the top is empty, so the flip gives the full glass
  Keys::set<kKeyed>(s.hash, kFPhase, s.phase, s.resume);
  Keys::set<kKeyed>(s.hash, kFResume, s.resume, -1);
  if (s.phase == kPlayPhase && c.resume_free_play) Keys::set<kKeyed>(s.hash, kFRequired, s.required, 0);  // DSJ-6
}

template <bool kKeyed>
void done_discarding(const Config& c, State& s) {
  const int hand = refill_hand(c, s);
  if (!c.explicit_chance) refill<kKeyed>(c, s, hand);
  else if (needs_draw<kKeyed>(c, s, hand)) return set_pending<kKeyed>(s, kFChance, s.chance, kChanceRefill);
  after_refill<kKeyed>(c, s);
}

template <bool kKeyed>
void stand(State& s, bool turned) {
  change_clock<kKeyed>(s, [&](TickClock& clock) { clock.stand(turned); });  // DSJ-3
  Keys::set<kKeyed>(s.hash, kFPhase, s.phase, kPlayPhase);  // a free play: required is 0 since the stuck rule
}

// The stuck player's rule (case III, DSJ-8/DSJ-9). True if the turn passed instead.
template <bool kKeyed>
bool handle_stuck(const Config& c, State& s) {
  if (!s.case3) {
    Keys::set<kKeyed>(s.hash, kFComplaints, s.complaints, s.complaints + 1);
    if (s.complaints >= c.complaint_limit) {
      end_game<kKeyed>(s, kComplaints);
      return false;
    }
    Keys::set<kKeyed>(s.hash, kFCase3, s.case3, 1);
  } else if (s.redraws < c.max_free_redraws && (s.bag || s.discard)) {
    Keys::set<kKeyed>(s.hash, kFRedraws, s.redraws, s.redraws + 1);  // the rulebook's "rare case": no complaint
  } else {
    pass_turn<kKeyed>(c, s, 0);  // DSJ-9 guard: the next player makes a free play
    return true;
  }
  Keys::set<kKeyed>(s.hash, kFRequired, s.required, 0);
  change_clock<kKeyed>(s, [](TickClock& clock) { clock.lay_down(); });
  Keys::set<kKeyed>(s.hash, kFPhase, s.phase, kStuckDiscard);
  return false;
}

// What happens on its own after an action or after time passed: a time-out (case II) if a
// standing glass is empty in a timed phase, then the stuck rule for a player who cannot play.
template <bool kKeyed>
void settle(const Config& c, State& s) {
  if (s.chance) return;  // the pending random event first; the rules go on once it is resolved
  // (resume is set in "reward" only while DSJ-22's flip is owed: that time-out is being resolved)
  if ((s.phase == kPlayPhase || s.phase == kReward) && c.time_on && s.clock.ran_out() && s.resume < 0) {
    Keys::set<kKeyed>(s.hash, kFComplaints, s.complaints, s.complaints + 1);
    if (s.complaints >= c.complaint_limit) return end_game<kKeyed>(s, kComplaints);
    Keys::set<kKeyed>(s.hash, kFResume, s.resume, s.phase);
    Keys::set<kKeyed>(s.hash, kFPhase, s.phase, kTimeoutDiscard);
    Keys::set<kKeyed>(s.hash, kFDiscarder, s.discarder, s.active);
    return;
  }
  while (s.phase == kPlayPhase && !has_play(c, s))
    if (!handle_stuck<kKeyed>(c, s)) return;
}

// -- explicit chance (engine.hpp, "Chance") ----------------------------------------------------
// Each random event of the sampled path above is a chance node here: s.chance names it, the
// outcomes are listed by list_outcomes, and resolve_chance plays one and goes on exactly where
// the sampled draw would have: the same rules, in the same order.

// The first table without a card; there is one whenever a card is to be turned up (the last
// table is the answer when no earlier one is empty, so the index is always a table's).
int first_empty_table(const State& s) {
  for (int k = 0; k < kTables - 1; ++k)
    if (s.table_card[k] < 0) return k;
  return kTables - 1;
}

int first_short_seat(const Config& c, const State& s) {  // the seat the deal goes to next
  for (int p = 0; p < c.players; ++p)
    if (count_bits(s.hands[p]) < c.hand_limit) return p;
  return -1;
}

// The set-up (rulebook steps 4-10) as chance nodes: the tokens are in the bag from the start, the
// top section's backs wait for the shuffle (positions [0, shuffle_left) are undecided, bit 0).
void start_setup(const Config& c, State& s) {
  const int top_len = top_section(c);
  for (int i = 0; i < c.deck_vips; ++i) s.deck_vips |= 1ull << (top_len + i);
  s.deck_len = static_cast<uint8_t>(c.deck_length);
  s.bag = kAllTokens;
  s.opening_left = static_cast<int8_t>(c.opening_first_round ? c.players - 1 : 0);
  if (c.extra_vips && top_len > 1) {  // a Fisher-Yates shuffle draws for positions top_len-1 .. 1
    s.shuffle_left = static_cast<uint8_t>(top_len);
    s.chance = kChanceShuffle;
  } else {  // nothing to shuffle: the top section as laid out
    for (int i = c.deck_top_regular; i < top_len; ++i) s.deck_vips |= 1ull << i;
    s.chance = kChanceSetupCard;
  }
  s.hash = Engine::compute_hash(c, s);
}

// Position shuffle_left - 1 of the top section gets a back; the last position takes what is left.
template <bool kKeyed>
void place_back(const Config& c, State& s, bool vip) {
  const int pos = s.shuffle_left - 1;
  if (vip) Keys::set<kKeyed>(s.hash, kFDeckVips, s.deck_vips, static_cast<int64_t>(s.deck_vips | 1ull << pos));
  set_pending<kKeyed>(s, kFShuffleLeft, s.shuffle_left, pos);
  if (pos > 1) return;
  if (shuffle_vips_left(c, s)) Keys::set<kKeyed>(s.hash, kFDeckVips, s.deck_vips, static_cast<int64_t>(s.deck_vips | 1u));
  set_pending<kKeyed>(s, kFShuffleLeft, s.shuffle_left, 0);
  set_pending<kKeyed>(s, kFChance, s.chance, kChanceSetupCard);
}

template <bool kKeyed>
void deal_token(const Config& c, State& s, int t) {
  take_token<kKeyed>(s, first_short_seat(c, s), t);
  if (first_short_seat(c, s) < 0) set_pending<kKeyed>(s, kFChance, s.chance, kNoChance);  // step 11 follows
}

template <bool kKeyed>
void refill_token(const Config& c, State& s, int t) {
  const int hand = refill_hand(c, s);
  take_token<kKeyed>(s, hand, t);
  if (needs_draw<kKeyed>(c, s, hand)) return;  // the next token is another chance node
  set_pending<kKeyed>(s, kFChance, s.chance, kNoChance);
  after_refill<kKeyed>(c, s);
}

// Plays chance outcome o (one of list_outcomes') and the rules that follow it, up to the next
// decision or the next chance node; the caller then settles, as after any action.
template <bool kKeyed>
void resolve_chance(const Config& c, State& s, int o) {
  switch (s.chance) {
    case kChanceShuffle:
      return place_back<kKeyed>(c, s, o == chance_back(c, true));
    case kChanceSetupCard: {
      const int k = first_empty_table(s);
      pop_deck<kKeyed>(s);
      place_card<kKeyed>(c, s, k, o - chance_card(0));
      if (k == kTables - 1) set_pending<kKeyed>(s, kFChance, s.chance, kChanceSetupSeat);
      return;
    }
    case kChanceSetupSeat:
      Keys::set<kKeyed>(s.hash, kFActive, s.active, o - chance_seat(c, 0));
      return set_pending<kKeyed>(s, kFChance, s.chance, kChanceSetupDeal);
    case kChanceSetupDeal:
      return deal_token<kKeyed>(c, s, o - chance_token(0));
    case kChanceCard: {
      const int k = first_empty_table(s);  // the table whose card was fulfilled
      pop_deck<kKeyed>(s);
      place_card<kKeyed>(c, s, k, o - chance_card(0));
      set_pending<kKeyed>(s, kFChance, s.chance, kNoChance);
      return after_turn_up<kKeyed>(c, s);
    }
    case kChanceDraw:
      take_token<kKeyed>(s, hand_of(c, s.active), o - chance_token(0));
      set_pending<kKeyed>(s, kFChance, s.chance, kNoChance);
      return pass_turn<kKeyed>(c, s, s.required);
    default:  // kChanceRefill
      return refill_token<kKeyed>(c, s, o - chance_token(0));
  }
}

// The outcomes of the pending event, ascending, with their weights (if `weights`): remaining
// counts, so every outcome of a token or card draw weighs 1 and a shuffled back weighs the
// number of such backs not yet placed.
int list_outcomes(const Config& c, const State& s, int16_t* out, uint32_t* weights) {
  int n = 0;
  auto add = [&](int id, int weight) {
    if (weights) weights[n] = static_cast<uint32_t>(weight);
    out[n++] = static_cast<int16_t>(id);
  };
  switch (s.chance) {
    case kNoChance:
      break;
    case kChanceShuffle: {
      const int vips = shuffle_vips_left(c, s), regular = s.shuffle_left - vips;
      if (regular > 0) add(chance_back(c, false), regular);
      if (vips > 0) add(chance_back(c, true), vips);
      break;
    }
    case kChanceSetupCard:
    case kChanceCard:
      for_each_bit(face_pool(c, s), [&](int card) { add(chance_card(card), 1); });
      break;
    case kChanceSetupSeat:
      for (int p = 0; p < c.players; ++p) add(chance_seat(c, p), 1);
      break;
    default:  // a token from the bag: the deal, a draw, a replenish
      for_each_bit(s.bag, [&](int t) { add(chance_token(t), 1); });
      break;
  }
  return n;
}

}  // namespace

int top_section(const Config& c) { return c.deck_top_regular + c.extra_vips; }

int shuffle_vips_left(const Config& c, const State& s) {
  if (!s.shuffle_left) return 0;
  const int top_len = top_section(c);
  const uint64_t placed = top_len >= 64 ? ~0ull : (1ull << top_len) - 1;  // undecided positions hold 0
  return c.extra_vips - count_bits(s.deck_vips & placed);
}

int Engine::chance_outcomes(const Config& c, const State& s, int16_t* outcomes, uint32_t* weights) {
  return list_outcomes(c, s, outcomes, weights);
}

int64_t Engine::default_ticks(const Config& c, int a) {
  if (!c.time_on) return 0;
  if (a < kFlip || a == kCannotServe) return c.ticks_per_action;
  if (a <= kReverse) return c.ticks_per_team_decision;
  return 0;  // discards and standing the glass happen while the game is paused
}

bool Engine::check_ticks(const Config& c, int64_t ticks, char* err, int errlen) {
  if (ticks < 0 || ticks > kMaxTicksPerCall)
    return fail(err, errlen, "ticks must be in [0, %d], got %lld", static_cast<int>(kMaxTicksPerCall),
                static_cast<long long>(ticks));
  if (ticks && !c.time_on)
    return fail(err, errlen, "ticks=%lld: time is off in this game (ticks_per_action=0)",
                static_cast<long long>(ticks));
  return true;
}

void Engine::new_state(const Config& c, State& s, uint64_t seed) {
  s = State{};
  s.rng = Rng::from_seed(seed);
  s.clock = TickClock::full(c.glass_ticks);
  for (int k = 0; k < kTables; ++k) {
    s.table_card[k] = -1;
    for (int i = 0; i < kMaxIcons; ++i) s.slots[k][i] = kEmpty;
  }
  s.phase = kPlayPhase;
  s.direction = 1;
  s.discarder = -1;
  s.resume = -1;
  s.outcome = kRunning;
  s.tea_supply = static_cast<uint8_t>(c.tea_supply);
  if (c.explicit_chance) return start_setup(c, s);  // the same steps, each random one a chance node
  // steps 4-7: the backs, top first: the top section (extra VIPs shuffled in), the VIP, the rest
  uint8_t top[kMaxCards];
  const int top_len = c.deck_top_regular + c.extra_vips;
  for (int i = 0; i < top_len; ++i) top[i] = i >= c.deck_top_regular;
  if (c.extra_vips) s.rng.shuffle(top, static_cast<size_t>(top_len));
  for (int i = 0; i < top_len; ++i) s.deck_vips |= static_cast<uint64_t>(top[i]) << i;
  for (int i = 0; i < c.deck_vips; ++i) s.deck_vips |= 1ull << (top_len + i);
  s.deck_len = static_cast<uint8_t>(c.deck_length);
  // The deal is made unkeyed and the position keyed once at the end: one compute_hash costs less
  // than keeping the key over the deal's seven cards and twenty-odd tokens.
  for (int k = 0; k < kTables; ++k) turn_up_card<false>(c, s, k);  // step 8
  s.active = static_cast<int8_t>(uniform_seat(s.rng, c.players));  // step 9
  s.bag = kAllTokens;  // step 10
  for (int p = 0; p < c.players; ++p)
    for (int i = 0; i < c.hand_limit; ++i) draw_token<false>(s, p);
  s.opening_left = static_cast<int8_t>(c.opening_first_round ? c.players - 1 : 0);
  settle<false>(c, s);  // step 11: a full standing glass; the start player plays anywhere (DSJ-10)
  s.hash = compute_hash(c, s);
}

int Engine::legal_actions(const Config& c, const State& s, int16_t* out) {
  if (s.chance) return list_outcomes(c, s, out, nullptr);
  int n = 0;
  switch (s.phase) {
    case kPlayPhase: {
      if (s.required) {  // one table (most turns: the last token's number): its plays, ascending
        const int k = s.required - 1, types = empty_types(c, s, k);
        const uint64_t fits = s.hands[hand_of(c, s.active)] & c.type_tokens[types];
        for_each_bit(fits, [&](int t) { out[n++] = static_cast<int16_t>(kPlay + t * kTables + k); });
        if (s.tea_reception) {
          for_each_bit(static_cast<uint64_t>(types), [&](int y) { out[n++] = static_cast<int16_t>(kTeaPlay + k * kTypes + y); });
          if (!fits && types && c.decline_tea) out[n++] = kCannotServe;  // DSJ-7
        }
        break;
      }
      uint64_t fits[kTables];
      int types[kTables];
      playable(c, s, fits, types);
      uint64_t any = 0;
      for (uint64_t f : fits) any |= f;
      bool token_play = any != 0;
      for_each_bit(any, [&](int t) {
        for (int k = 0; k < kTables; ++k)
          if (fits[k] >> t & 1u) out[n++] = static_cast<int16_t>(kPlay + t * kTables + k);
      });
      if (s.tea_reception) {
        bool tea_play = false;
        for (int k = 0; k < kTables; ++k)
          for_each_bit(static_cast<uint64_t>(types[k]), [&](int y) {
            out[n++] = static_cast<int16_t>(kTeaPlay + k * kTypes + y);
            tea_play = true;
          });
        if (!token_play && tea_play && c.decline_tea) out[n++] = kCannotServe;  // DSJ-7
      }
      break;
    }
    case kReward:
      out[n++] = kFlip;
      if (s.tea_supply) out[n++] = kTakeTea;
      if (c.reverse_variant && c.reverse_trigger == kTeamOnce && !s.reverse_used) out[n++] = kReverse;
      break;
    case kTimeoutDiscard:
    case kStuckDiscard: {
      const int player = s.phase == kTimeoutDiscard ? s.discarder : s.active;
      for_each_bit(s.hands[hand_of(c, player)], [&](int t) { out[n++] = static_cast<int16_t>(kDiscard + t); });
      out[n++] = kDone;
      break;
    }
    case kStand:
      out[n++] = kStandSame;
      if (!c.stand_same_only) out[n++] = kStandTurned;
      break;
    default:
      break;
  }
  return n;
}

namespace {

// One action and what follows it on its own, the key kept exact (apply, apply_timed) or left
// stale (apply_unkeyed): the same rules either way, only the key's upkeep differs.
template <bool kKeyed>
int64_t apply_move(const Config& c, State& s, int a, int64_t ticks) {
  if (s.chance) {  // a chance node takes no time, whatever the caller says it took
    resolve_chance<kKeyed>(c, s, a);
    settle<kKeyed>(c, s);
    return 0;
  }
  const int64_t cost = ticks < 0 ? Engine::default_ticks(c, a) : ticks;
  if (cost) change_clock<kKeyed>(s, [&](TickClock& clock) { clock.run(cost); });  // the decision's time first
  if (a < kTeaPlay) {
    play_token<kKeyed>(c, s, a / kTables, a % kTables);
  } else if (a < kFlip) {
    play_tea<kKeyed>(c, s, (a - kTeaPlay) / kTypes, (a - kTeaPlay) % kTypes);
  } else if (a <= kReverse) {
    reward<kKeyed>(c, s, a);
  } else if (a < kDone) {
    discard_token<kKeyed>(c, s, a - kDiscard);
  } else if (a == kDone) {
    done_discarding<kKeyed>(c, s);
  } else if (a == kStandSame || a == kStandTurned) {
    stand<kKeyed>(s, a == kStandTurned);
  } else {  // kCannotServe: the stuck rule instead of a tea (DSJ-7)
    handle_stuck<kKeyed>(c, s);
  }
  settle<kKeyed>(c, s);
  return cost;
}

}  // namespace

int64_t Engine::apply_timed(const Config& c, State& s, int a, int64_t ticks) { return apply_move<true>(c, s, a, ticks); }

void Engine::apply_unkeyed(const Config& c, State& s, int a) { apply_move<false>(c, s, a, -1); }

void Engine::advance(const Config& c, State& s, int64_t ticks) {
  if (s.chance) return;  // no time passes at a chance node (the binding refuses the call)
  change_clock(s, [&](TickClock& clock) { clock.run(ticks); });
  settle<true>(c, s);
}

void Engine::returns(const Config& c, const State& s, double* out) {
  for (int p = 0; p < c.players; ++p) out[p] = s.outcome == kWin ? 1.0 : 0.0;
}

uint64_t Engine::compute_hash(const Config& c, const State& s) {
  uint64_t h = 0;
  for (int p = 0; p < c.players; ++p) h ^= mask_keys(p, s.hands[p]);
  h ^= mask_keys(kLocBag, s.bag) ^ mask_keys(kLocDiscard, s.discard);
  for (int k = 0; k < kTables; ++k) {
    h ^= card_key(k, s.table_card[k]);
    for (int i = 0; i < kMaxIcons; ++i) h ^= slot_key(k, i, s.slots[k][i]);
  }
  for_each_bit(s.out, [&](int card) { h ^= kOutKeys[card]; });
  h ^= clock_keys(s.clock);
  const int64_t fields[][2] = {
      {kFPhase, s.phase}, {kFActive, s.active}, {kFDirection, s.direction}, {kFDiscarder, s.discarder},
      {kFResume, s.resume}, {kFRequired, s.required}, {kFOpeningLeft, s.opening_left}, {kFOutcome, s.outcome},
      {kFCase3, s.case3}, {kFRedraws, s.redraws}, {kFDrawPending, s.draw_pending},
      {kFReverseUsed, s.reverse_used}, {kFTeaSupply, s.tea_supply}, {kFTeaReception, s.tea_reception},
      {kFComplaints, s.complaints}, {kFDeckLen, s.deck_len}, {kFDeckVips, static_cast<int64_t>(s.deck_vips)}};
  for (const auto& f : fields) h ^= Keys::key(static_cast<int>(f[0]), f[1]);
  return h ^ pending_key(kFChance, s.chance) ^ pending_key(kFShuffleLeft, s.shuffle_left);
}

}  // namespace dimsum::dim_sum_jam
