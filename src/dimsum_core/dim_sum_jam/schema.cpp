// Dim Sum Jam's boundary, declared once: the config fields Python hands over by name
// (dimsum.games.dim_sum_jam.config_values), the state fields behind to_dict / state_from_dict /
// state.field(name), and the observation slices. common/schema.hpp walks these tables.
#include <algorithm>

#include "../common/bits.hpp"
#include "../common/schema.hpp"
#include "engine.hpp"

namespace dimsum::dim_sum_jam {
namespace {

using CF = ConfigField<Config>;
using SF = StateField<Config, State>;
using OS = ObservationSlice<Config>;

// -- config ------------------------------------------------------------------------------------
// The order is the fingerprint's (to_bytes' header): append, never reorder.
constexpr Bounds kFlag{0, 1};
constexpr Bounds kCards{0, kMaxCards};
constexpr Bounds kTicks{0, kMaxClockCapacity};

constexpr CF kConfig[] = {
    {"players", "number of players (DSJ-21)", 1, 1, 0, {2, kMaxPlayers},
     [](Config& c, int, const int64_t* v) { c.players = narrow<int8_t>(*v); }},
    {"hand_limit", "tokens dealt and refilled to", 1, 1, 0, {1, 7},
     [](Config& c, int, const int64_t* v) { c.hand_limit = narrow<int8_t>(*v); }},
    {"tea_supply", "exotic tea tokens in the game", 1, 1, 0, {0, 15},
     [](Config& c, int, const int64_t* v) { c.tea_supply = narrow<int8_t>(*v); }},
    {"complaint_limit", "complaints that lose", 1, 1, 0, {1, 15},
     [](Config& c, int, const int64_t* v) { c.complaint_limit = narrow<int8_t>(*v); }},
    {"extra_vips", "extra VIP cards shuffled into the deck's top section", 1, 1, 0, kCards,
     [](Config& c, int, const int64_t* v) { c.extra_vips = narrow<int8_t>(*v); }},
    {"play_next_hand", "each player plays from the next player's hand (silver-2)", 1, 1, 0, kFlag,
     [](Config& c, int, const int64_t* v) { c.play_next_hand = *v != 0; }},
    {"reverse_variant", "the Changing Turn Order variant with the Reverse token", 1, 1, 0, kFlag,
     [](Config& c, int, const int64_t* v) { c.reverse_variant = *v != 0; }},
    {"reverse_trigger", "what reverses play: 0 on_fulfil, 1 on_self_table, 2 team_once", 1, 1, 0, {0, 2},
     [](Config& c, int, const int64_t* v) { c.reverse_trigger = narrow<uint8_t>(*v); }},
    {"glass_ticks", "ticks in a full hourglass", 1, 1, 0, {1, kMaxClockCapacity},
     [](Config& c, int, const int64_t* v) { c.glass_ticks = narrow<int32_t>(*v); }},
    {"ticks_per_action", "default ticks of a play, at most glass_ticks; 0 turns time off", 1, 1, 0, kTicks,
     [](Config& c, int, const int64_t* v) { c.ticks_per_action = narrow<int32_t>(*v); }},
    {"ticks_per_team_decision", "default ticks of the flip-or-tea decision (DSJ-4)", 1, 1, 0, kTicks,
     [](Config& c, int, const int64_t* v) { c.ticks_per_team_decision = narrow<int32_t>(*v); }},
    {"flip_full", "a flip gives the full glass instead of capacity - top (DSJ-1)", 1, 1, 0, kFlag,
     [](Config& c, int, const int64_t* v) { c.flip_full = *v != 0; }},
    {"stand_same_only", "after the stuck rule the glass goes back as it lay (DSJ-3)", 1, 1, 0, kFlag,
     [](Config& c, int, const int64_t* v) { c.stand_same_only = *v != 0; }},
    {"timeout_all_players", "every player may discard after a time-out (DSJ-5)", 1, 1, 0, kFlag,
     [](Config& c, int, const int64_t* v) { c.timeout_all_players = *v != 0; }},
    {"resume_free_play", "after a time-out the active player plays anywhere (DSJ-6)", 1, 1, 0, kFlag,
     [](Config& c, int, const int64_t* v) { c.resume_free_play = *v != 0; }},
    {"decline_tea", "a player whose only plays are teas may take the stuck rule (DSJ-7)", 1, 1, 0, kFlag,
     [](Config& c, int, const int64_t* v) { c.decline_tea = *v != 0; }},
    {"max_free_redraws", "free redraws of a stuck player before the turn passes (DSJ-9)", 1, 1, 0, {0, 10},
     [](Config& c, int, const int64_t* v) { c.max_free_redraws = narrow<int8_t>(*v); }},
    {"opening_first_round", "free placement for every player's first turn (DSJ-10)", 1, 1, 0, kFlag,
     [](Config& c, int, const int64_t* v) { c.opening_first_round = *v != 0; }},
    {"draw_after_tea", "the player draws a token after playing an exotic tea (DSJ-11)", 1, 1, 0, kFlag,
     [](Config& c, int, const int64_t* v) { c.draw_after_tea = *v != 0; }},
    {"deck_top_regular", "regular cards at the top of the deck", 1, 1, 0, kCards,
     [](Config& c, int, const int64_t* v) { c.deck_top_regular = narrow<int8_t>(*v); }},
    {"deck_vips", "VIP cards below them", 1, 1, 0, kCards,
     [](Config& c, int, const int64_t* v) { c.deck_vips = narrow<int8_t>(*v); }},
    {"deck_bottom_regular", "regular cards at the bottom of the deck", 1, 1, 0, kCards,
     [](Config& c, int, const int64_t* v) { c.deck_bottom_regular = narrow<int8_t>(*v); }},
    {"max_game_length", "a hard bound on the actions of one game", 1, 1, 0, {1, 1 << 30},
     [](Config& c, int, const int64_t* v) { c.max_game_length = narrow<int32_t>(*v); }},
    // Read as given; finish_config checks each card (a flag that is neither 0 nor 1 puts the card in
    // neither mask, a count or icon out of range stays as it is, to be named there).
    {"cards", "per order card (card id = row): vip (0/1), number of icons, 7 icon types (-1 past the icons)",
     kMaxCards, 2 + kMaxIcons, 1, {-1, kMaxIcons},
     [](Config& c, int k, const int64_t* v) {
       c.num_cards = narrow<int8_t>(k + 1);
       if (v[0] == 1) c.vip_mask |= 1ull << k;
       if (v[0] == 0) c.regular_mask |= 1ull << k;
       c.num_icons[k] = narrow<uint8_t>(std::max<int64_t>(v[1], 0));
       for (int i = 0; i < kMaxIcons; ++i) c.icons[k][i] = narrow<int8_t>(v[2 + i]);
     },
     kCounted},
};

// -- state -------------------------------------------------------------------------------------
// Named as the readable dict names them (dimsum.games.dim_sum_jam.state_dict).
constexpr Extent one(const Config&) { return scalar(); }
constexpr Bounds flag(const Config&) { return kFlag; }
constexpr Bounds token_mask(const Config&) { return Bounds{0, static_cast<int64_t>(kAllTokens)}; }
constexpr Bounds word(const Config&) { return Bounds{0, 0}; }
constexpr Bounds seat(const Config& c) { return Bounds{0, c.players - 1}; }
constexpr Bounds seat_or_none(const Config& c) { return Bounds{-1, c.players - 1}; }
constexpr Bounds teas(const Config& c) { return Bounds{0, c.tea_supply}; }

constexpr SF kFields[] = {
    {"phase", "0 play, 1 reward, 2 timeout_discard, 3 stuck_discard, 4 stand, 5 over", one,
     [](const Config&) { return Bounds{kPlayPhase, kOver}; },
     [](const Config&, const State& s, int) -> int64_t { return s.phase; },
     [](const Config&, State& s, int, int64_t v) { s.phase = narrow<int8_t>(v); }},
    {"active", "the player whose turn it is", one, seat,
     [](const Config&, const State& s, int) -> int64_t { return s.active; },
     [](const Config&, State& s, int, int64_t v) { s.active = narrow<int8_t>(v); }},
    {"direction", "1 clockwise, -1 counter-clockwise (the reverse variant)", one,
     [](const Config& c) { return Bounds{c.reverse_variant ? -1 : 1, 1}; },
     [](const Config&, const State& s, int) -> int64_t { return s.direction; },
     [](const Config&, State& s, int, int64_t v) { s.direction = narrow<int8_t>(v); }},
    {"discarder", "who discards in a time-out, -1 none", one, seat_or_none,
     [](const Config&, const State& s, int) -> int64_t { return s.discarder; },
     [](const Config&, State& s, int, int64_t v) { s.discarder = narrow<int8_t>(v); }},
    {"resume", "the phase a time-out interrupted: 0 play, 1 reward, -1 none", one,
     [](const Config&) { return Bounds{-1, kReward}; },
     [](const Config&, const State& s, int) -> int64_t { return s.resume; },
     [](const Config&, State& s, int, int64_t v) { s.resume = narrow<int8_t>(v); }},
    {"required_table", "0 any table, k table k (in 'reward': the next player's)", one,
     [](const Config&) { return Bounds{0, kTables}; },
     [](const Config&, const State& s, int) -> int64_t { return s.required; },
     [](const Config&, State& s, int, int64_t v) { s.required = narrow<int8_t>(v); }},
    {"opening_free_turns", "further turns with free placement (DSJ-10)", one,
     [](const Config& c) { return Bounds{0, c.players - 1}; },
     [](const Config&, const State& s, int) -> int64_t { return s.opening_left; },
     [](const Config&, State& s, int, int64_t v) { s.opening_left = narrow<int8_t>(v); }},
    {"stuck_complained", "this turn already took its complaint for being stuck (case III)", one, flag,
     [](const Config&, const State& s, int) -> int64_t { return s.case3; },
     [](const Config&, State& s, int, int64_t v) { s.case3 = narrow<uint8_t>(v); }},
    {"free_redraws", "free redraws taken this turn (DSJ-9)", one,
     [](const Config& c) { return Bounds{0, c.max_free_redraws}; },
     [](const Config&, const State& s, int) -> int64_t { return s.redraws; },
     [](const Config&, State& s, int, int64_t v) { s.redraws = narrow<uint8_t>(v); }},
    {"draw_pending", "in 'reward': the active player still draws a token", one, flag,
     [](const Config&, const State& s, int) -> int64_t { return s.draw_pending; },
     [](const Config&, State& s, int, int64_t v) { s.draw_pending = narrow<uint8_t>(v); }},
    {"hands", "per player, a token mask (token id = type * 7 + number - 1)",
     [](const Config& c) { return vector(c.players); }, token_mask,
     [](const Config&, const State& s, int p) -> int64_t { return static_cast<int64_t>(s.hands[p]); },
     [](const Config&, State& s, int p, int64_t v) { s.hands[p] = static_cast<uint64_t>(v); }},
    {"bag", "the bag's tokens, a mask", one, token_mask,
     [](const Config&, const State& s, int) -> int64_t { return static_cast<int64_t>(s.bag); },
     [](const Config&, State& s, int, int64_t v) { s.bag = static_cast<uint64_t>(v); }},
    {"discard", "the discard pile's tokens, a mask", one, token_mask,
     [](const Config&, const State& s, int) -> int64_t { return static_cast<int64_t>(s.discard); },
     [](const Config&, State& s, int, int64_t v) { s.discard = static_cast<uint64_t>(v); }},
    {"table_cards", "the card id on each table, -1 none", [](const Config&) { return vector(kTables); },
     [](const Config& c) { return Bounds{-1, c.num_cards - 1}; },
     [](const Config&, const State& s, int k) -> int64_t { return s.table_card[k]; },
     [](const Config&, State& s, int k, int64_t v) { s.table_card[k] = narrow<int8_t>(v); }},
    {"slots", "per table and icon space: -1 empty, a token, or 49 an exotic tea; -1 past the card's icons",
     [](const Config&) { return matrix(kTables, kMaxIcons); }, [](const Config&) { return Bounds{kEmpty, kTea}; },
     [](const Config&, const State& s, int i) -> int64_t { return s.slots[i / kMaxIcons][i % kMaxIcons]; },
     [](const Config&, State& s, int i, int64_t v) { s.slots[i / kMaxIcons][i % kMaxIcons] = narrow<int8_t>(v); }},
    {"deck_size", "cards left in the order deck", one, [](const Config& c) { return Bounds{0, c.deck_length}; },
     [](const Config&, const State& s, int) -> int64_t { return s.deck_len; },
     [](const Config&, State& s, int, int64_t v) { s.deck_len = narrow<uint8_t>(v); }},
    {"deck_vips", "bit i: the i-th card of the deck from the top has a VIP back", one, word,
     [](const Config&, const State& s, int) -> int64_t { return static_cast<int64_t>(s.deck_vips); },
     [](const Config&, State& s, int, int64_t v) { s.deck_vips = static_cast<uint64_t>(v); }, kWord},
    {"cards_out", "the cards fulfilled and out of the game, a mask of card ids", one, word,
     [](const Config&, const State& s, int) -> int64_t { return static_cast<int64_t>(s.out); },
     [](const Config&, State& s, int, int64_t v) { s.out = static_cast<uint64_t>(v); }, kWord},
    {"tea_supply", "exotic teas in the supply", one, teas,
     [](const Config&, const State& s, int) -> int64_t { return s.tea_supply; },
     [](const Config&, State& s, int, int64_t v) { s.tea_supply = narrow<uint8_t>(v); }},
    {"tea_reception", "exotic teas on the reception desk", one, teas,
     [](const Config&, const State& s, int) -> int64_t { return s.tea_reception; },
     [](const Config&, State& s, int, int64_t v) { s.tea_reception = narrow<uint8_t>(v); }},
    {"complaints", "complaint tokens taken", one, [](const Config& c) { return Bounds{0, c.complaint_limit}; },
     [](const Config&, const State& s, int) -> int64_t { return s.complaints; },
     [](const Config&, State& s, int, int64_t v) { s.complaints = narrow<uint8_t>(v); }},
    {"reverse_used", "the Reverse token was flipped (variant, team_once)", one, flag,
     [](const Config&, const State& s, int) -> int64_t { return s.reverse_used; },
     [](const Config&, State& s, int, int64_t v) { s.reverse_used = narrow<uint8_t>(v); }},
    {"clock_top", "ticks still to run in the hourglass's top bulb", one,
     [](const Config& c) { return Bounds{0, c.glass_ticks}; },
     [](const Config&, const State& s, int) -> int64_t { return s.clock.top; },
     [](const Config&, State& s, int, int64_t v) { s.clock.top = narrow<int32_t>(v); }},
    {"clock_capacity", "ticks in a full hourglass (glass_ticks)", one,
     [](const Config& c) { return Bounds{c.glass_ticks, c.glass_ticks}; },
     [](const Config&, const State& s, int) -> int64_t { return s.clock.capacity; },
     [](const Config&, State& s, int, int64_t v) { s.clock.capacity = narrow<int32_t>(v); }},
    {"clock_lying", "the hourglass lies on its side (frozen)", one, flag,
     [](const Config&, const State& s, int) -> int64_t { return s.clock.lying; },
     [](const Config&, State& s, int, int64_t v) { s.clock.lying = narrow<uint8_t>(v); }},
    {"outcome", "-1 running, 0 win, 1 deck_out, 2 complaints", one,
     [](const Config&) { return Bounds{kRunning, kComplaints}; },
     [](const Config&, const State& s, int) -> int64_t { return s.outcome; },
     [](const Config&, State& s, int, int64_t v) { s.outcome = narrow<int8_t>(v); }},
    {"rng", "the generator's four state words", [](const Config&) { return vector(4); }, word,
     [](const Config&, const State& s, int k) -> int64_t { return static_cast<int64_t>(s.rng.s[k]); },
     [](const Config&, State& s, int k, int64_t v) { s.rng.s[k] = static_cast<uint64_t>(v); }, kWord},
};

// -- observation: seats relative to the observer (0 = the observer) ----------------------------
int players(const Config& c) { return c.players; }
int tokens(const Config&) { return kTokens; }
int cards(const Config& c) { return c.num_cards; }
Bounds one_hot(const Config&) { return Bounds{0, 1}; }

constexpr OS kObservation[] = {
    {"phase", "one-hot phase", [](const Config&) { return kOver + 1; }, one_hot},
    {"current_player", "one-hot, seats relative to the observer (0 = observer)", players, one_hot},
    {"active_player", "one-hot, relative seats", players, one_hot},
    {"hands", "tokens in each hand (public), relative seats", [](const Config& c) { return c.players * kTokens; },
     one_hot},
    {"bag", "tokens in the bag (public by deduction)", tokens, one_hot},
    {"discard", "tokens in the discard pile", tokens, one_hot},
    {"table_cards", "one-hot card on each table (none when empty)",
     [](const Config& c) { return kTables * c.num_cards; }, one_hot},
    {"table_empty_icons", "empty icon spaces per table and type", [](const Config&) { return kTables * kTypes; },
     [](const Config& c) { return Bounds{0, c.most_same_icons}; }},
    {"table_tokens", "tokens lying on each table's card", [](const Config&) { return kTables * kTokens; }, one_hot},
    {"table_teas", "exotic teas lying on each table's card", [](const Config&) { return kTables; },
     [](const Config& c) { return Bounds{0, std::min<int>(c.tea_supply, c.most_icons)}; }},
    {"required_table", "one-hot: 0 = any table, k = table k", [](const Config&) { return kTables + 1; }, one_hot},
    {"deck_backs", "per deck position from the top: [regular, vip] back",
     [](const Config& c) { return 2 * c.deck_length; }, one_hot},
    {"cards_out", "cards fulfilled and out of the game", cards, one_hot},
    {"counts", "tea supply, tea on reception, complaints, complaints left, deck size", [](const Config&) { return 5; },
     [](const Config& c) {
       return Bounds{0, std::max({int{c.tea_supply}, int{c.complaint_limit}, int{c.deck_length}})};
     }},
    {"clock", "top/capacity, bottom/capacity, lying down, time on", [](const Config&) { return 4; }, one_hot},
    {"turn", "direction is reversed, case III taken this turn, free redraws, draw pending, reverse token used, "
     "discarder relative seat (-1 none)", [](const Config&) { return 6; },
     [](const Config& c) { return Bounds{-1, std::max({1, int{c.max_free_redraws}, c.players - 1})}; }},
    {"outcome", "one-hot ending (all zero while the game runs)", [](const Config&) { return kComplaints + 1; },
     one_hot},
};

}  // namespace

std::span<const CF> Engine::config_fields() { return kConfig; }
std::span<const SF> Engine::state_fields() { return kFields; }
std::span<const OS> Engine::observation() { return kObservation; }

// What follows from the fields (the deck's length, the card masks, the token mask of each set of
// types, the observation size) and the checks that involve several fields.
bool Engine::finish_config(Config& c, char* err, int errlen) {
  if (c.ticks_per_action > c.glass_ticks)
    return fail(err, errlen, "dim_sum_jam config field 'ticks_per_action': %d; at most glass_ticks (%d)",
                c.ticks_per_action, c.glass_ticks);
  c.time_on = c.ticks_per_action > 0;
  const int deck_length = c.deck_top_regular + c.deck_vips + c.deck_bottom_regular + c.extra_vips;
  if (deck_length < 1 || deck_length > kMaxCards)
    return fail(err, errlen, "dim_sum_jam config field 'extra_vips': a deck of %d cards with the deck_* fields; "
                "1 to %d cards", deck_length, kMaxCards);
  c.deck_length = static_cast<int8_t>(deck_length);
  for (int k = 0; k < c.num_cards; ++k) {
    if (!((c.vip_mask | c.regular_mask) >> k & 1u))
      return fail(err, errlen, "dim_sum_jam config field 'cards'[%d]: the vip flag is neither 0 nor 1; 0 regular, "
                  "1 VIP", k);
    const int n = c.num_icons[k];
    if (n < 1 || n > kMaxIcons)
      return fail(err, errlen, "dim_sum_jam config field 'cards'[%d]: %d icons; 1 to %d icons", k, n, kMaxIcons);
    int per_type[kTypes] = {};
    for (int i = 0; i < kMaxIcons; ++i) {
      const int icon = c.icons[k][i];
      if (i < n ? (icon < 0 || icon >= kTypes) : icon != kEmpty)
        return fail(err, errlen, "dim_sum_jam config field 'cards'[%d]: icon %d is %d; a token type 0-%d for each "
                    "of the card's %d icons, -1 past them", k, i, icon, kTypes - 1, n);
      if (i < n) c.most_same_icons = static_cast<uint8_t>(std::max<int>(c.most_same_icons, ++per_type[icon]));
    }
    c.most_icons = static_cast<uint8_t>(std::max<int>(c.most_icons, n));
  }
  c.all_cards = c.vip_mask | c.regular_mask;
  if (count_bits(c.regular_mask) < c.deck_top_regular + c.deck_bottom_regular)
    return fail(err, errlen, "dim_sum_jam config field 'cards': %d regular cards; the deck needs %d",
                count_bits(c.regular_mask), c.deck_top_regular + c.deck_bottom_regular);
  if (count_bits(c.vip_mask) < c.deck_vips + c.extra_vips)
    return fail(err, errlen, "dim_sum_jam config field 'cards': %d VIP cards; the deck needs %d",
                count_bits(c.vip_mask), c.deck_vips + c.extra_vips);
  for (int types = 0; types < (1 << kTypes); ++types)
    for (int y = 0; y < kTypes; ++y)
      if (types >> y & 1) c.type_tokens[types] |= 0x7Full << (7 * y);
  c.observation_size = observation_size<Config>(kObservation, c);
  return true;
}

ConfigInfo Engine::config_info(const Config& c) {
  return ConfigInfo{kNumActions, c.players, c.observation_size, state_field_count<Config, State>(kFields, c),
                    c.max_game_length};
}

// The empty icon spaces, which the fields do not carry: the slots say them.
void Engine::finish_import(const Config& c, State& s) {
  for (int k = 0; k < kTables; ++k) {
    s.empty_slots[k] = 0;
    const int card = s.table_card[k];
    if (card < 0) continue;
    for (int i = 0; i < c.num_icons[card]; ++i)
      if (s.slots[k][i] == kEmpty) s.empty_slots[k] = static_cast<uint8_t>(s.empty_slots[k] | (1u << i));
  }
}

}  // namespace dimsum::dim_sum_jam
