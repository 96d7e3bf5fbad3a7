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
using Member = MemberFields<Config, State>;

// -- config ------------------------------------------------------------------------------------
// The order is the fingerprint's (to_bytes' header): append, never reorder.
constexpr Bounds kFlag{0, 1};
constexpr Bounds kCards{0, kMaxCards};
constexpr Bounds kTicks{0, kMaxClockCapacity};

constexpr CF kConfig[] = {
    Member::config<&Config::players>("players", "number of players (DSJ-21)", {2, kMaxPlayers}),
    Member::config<&Config::hand_limit>("hand_limit", "tokens dealt and refilled to", {1, 7}),
    Member::config<&Config::tea_supply>("tea_supply", "exotic tea tokens in the game", {0, 15}),
    Member::config<&Config::complaint_limit>("complaint_limit", "complaints that lose", {1, 15}),
    Member::config<&Config::extra_vips>("extra_vips", "extra VIP cards shuffled into the deck's top section", kCards),
    Member::config<&Config::play_next_hand>("play_next_hand",
        "each player plays from the next player's hand (silver-2)",
        kFlag),
    Member::config<&Config::reverse_variant>("reverse_variant",
        "the Changing Turn Order variant with the Reverse token",
        kFlag),
    Member::config<&Config::reverse_trigger>("reverse_trigger",
        "what reverses play: 0 on_fulfil, 1 on_self_table, 2 team_once",
        {0, 2}),
    Member::config<&Config::glass_ticks>("glass_ticks", "ticks in a full hourglass", {1, kMaxClockCapacity}),
    Member::config<&Config::ticks_per_action>("ticks_per_action",
        "default ticks of a play, at most glass_ticks; 0 turns time off",
        kTicks),
    Member::config<&Config::ticks_per_team_decision>("ticks_per_team_decision",
        "default ticks of the flip-or-tea decision (DSJ-4)",
        kTicks),
    Member::config<&Config::flip_full>("flip_full", "a flip gives the full glass instead of capacity - top (DSJ-1)",
        kFlag),
    Member::config<&Config::stand_same_only>("stand_same_only",
        "after the stuck rule the glass goes back as it lay (DSJ-3)",
        kFlag),
    Member::config<&Config::timeout_all_players>("timeout_all_players",
        "every player may discard after a time-out (DSJ-5)",
        kFlag),
    Member::config<&Config::resume_free_play>("resume_free_play",
        "after a time-out the active player plays anywhere (DSJ-6)",
        kFlag),
    Member::config<&Config::decline_tea>("decline_tea",
        "a player whose only plays are teas may take the stuck rule (DSJ-7)",
        kFlag),
    Member::config<&Config::max_free_redraws>("max_free_redraws",
        "free redraws of a stuck player before the turn passes (DSJ-9)",
        {0, 10}),
    Member::config<&Config::opening_first_round>("opening_first_round",
        "free placement for every player's first turn (DSJ-10)",
        kFlag),
    Member::config<&Config::draw_after_tea>("draw_after_tea",
        "the player draws a token after playing an exotic tea (DSJ-11)",
        kFlag),
    Member::config<&Config::deck_top_regular>("deck_top_regular", "regular cards at the top of the deck", kCards),
    Member::config<&Config::deck_vips>("deck_vips", "VIP cards below them", kCards),
    Member::config<&Config::deck_bottom_regular>("deck_bottom_regular", "regular cards at the bottom of the deck",
        kCards),
    // Derived (max_game_length below); Python handed it over until the core computed it.
    Member::derived("max_game_length", "a hard bound on the actions of one game (config_info)"),
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
    // appended: keyed into the fingerprint only when set, so default configs keep their keys
    Member::config<&Config::timeout_flips_first>("timeout_flips_first",
        "a time-out that interrupts the reward flips the glass before the reward is chosen (DSJ-22)",
        kFlag, kKeyedWhenSet),
    Member::chance_mode(),  // last: engine.hpp, "Chance"
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
    Member::state<&State::phase>("phase", "0 play, 1 reward, 2 timeout_discard, 3 stuck_discard, 4 stand, 5 over",
        [](const Config&) { return Bounds{kPlayPhase, kOver}; }),
    Member::state<&State::active>("active", "the player whose turn it is", seat),
    Member::state<&State::direction>("direction", "1 clockwise, -1 counter-clockwise (the reverse variant)",
        [](const Config& c) { return Bounds{c.reverse_variant ? -1 : 1, 1}; }),
    Member::state<&State::discarder>("discarder", "who discards in a time-out, -1 none", seat_or_none),
    Member::state<&State::resume>("resume", "the phase a time-out interrupted: 0 play, 1 reward, -1 none",
        [](const Config&) { return Bounds{-1, kReward}; }),
    Member::state<&State::required>("required_table", "0 any table, k table k (in 'reward': the next player's)",
        [](const Config&) { return Bounds{0, kTables}; }),
    Member::state<&State::opening_left>("opening_free_turns", "further turns with free placement (DSJ-10)",
        [](const Config& c) { return Bounds{0, c.players - 1}; }),
    Member::state<&State::case3>("stuck_complained",
        "this turn already took its complaint for being stuck (case III)",
        flag),
    Member::state<&State::redraws>("free_redraws", "free redraws taken this turn (DSJ-9)",
        [](const Config& c) { return Bounds{0, c.max_free_redraws}; }),
    Member::state<&State::draw_pending>("draw_pending", "in 'reward': the active player still draws a token", flag),
    Member::per_player<&State::hands>("hands", "per player, a token mask (token id = type * 7 + number - 1)",
        token_mask),
    Member::state<&State::bag>("bag", "the bag's tokens, a mask", token_mask),
    Member::state<&State::discard>("discard", "the discard pile's tokens, a mask", token_mask),
    {"table_cards", "the card id on each table, -1 none", [](const Config&) { return vector(kTables); },
     [](const Config& c) { return Bounds{-1, c.num_cards - 1}; },
     [](const Config&, const State& s, int k) -> int64_t { return s.table_card[k]; },
     [](const Config&, State& s, int k, int64_t v) { s.table_card[k] = narrow<int8_t>(v); }},
    {"slots", "per table and icon space: -1 empty, a token, or 49 an exotic tea; -1 past the card's icons",
     [](const Config&) { return matrix(kTables, kMaxIcons); }, [](const Config&) { return Bounds{kEmpty, kTea}; },
     [](const Config&, const State& s, int i) -> int64_t { return s.slots[i / kMaxIcons][i % kMaxIcons]; },
     [](const Config&, State& s, int i, int64_t v) { s.slots[i / kMaxIcons][i % kMaxIcons] = narrow<int8_t>(v); }},
    Member::state<&State::deck_len>("deck_size", "cards left in the order deck",
        [](const Config& c) { return Bounds{0, c.deck_length}; }),
    Member::state<&State::deck_vips>("deck_vips", "bit i: the i-th card of the deck from the top has a VIP back",
        word, kWord),
    Member::state<&State::out>("cards_out", "the cards fulfilled and out of the game, a mask of card ids",
        word, kWord),
    Member::state<&State::tea_supply>("tea_supply", "exotic teas in the supply", teas),
    Member::state<&State::tea_reception>("tea_reception", "exotic teas on the reception desk", teas),
    Member::state<&State::complaints>("complaints", "complaint tokens taken",
        [](const Config& c) { return Bounds{0, c.complaint_limit}; }),
    Member::state<&State::reverse_used>("reverse_used", "the Reverse token was flipped (variant, team_once)", flag),
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
    Member::state<&State::outcome>("outcome", "-1 running, 0 win, 1 deck_out, 2 complaints",
        [](const Config&) { return Bounds{kRunning, kComplaints}; }),
    Member::rng(),
    // explicit chance only (0 in sampled mode): engine.hpp, enum Chance
    Member::state<&State::chance>("chance",
        "the pending chance event: 0 none, 1 setup_shuffle, 2 setup_card, 3 setup_seat, 4 setup_deal, 5 card, "
        "6 draw, 7 refill",
        [](const Config& c) { return Bounds{0, c.explicit_chance ? kLastChance : 0}; }),
    Member::state<&State::shuffle_left>("shuffle_left",
        "setup_shuffle: the top positions of the deck whose backs are still to be shuffled into place",
        [](const Config& c) { return Bounds{0, c.explicit_chance && c.extra_vips ? top_section(c) : 0}; }),
};

// -- observation: seats relative to the observer (0 = the observer) ----------------------------
int players(const Config& c) { return c.players; }
int tokens(const Config&) { return kTokens; }
int cards(const Config& c) { return c.num_cards; }
Bounds one_hot(const Config&) { return Bounds{0, 1}; }

constexpr OS kObservation[] = {
    {"phase", "one-hot phase", [](const Config&) { return kOver + 1; }, one_hot},
    {"current_player", "one-hot, seats relative to the observer (0 = observer); all zero at a chance node and "
     "once the game is over", players, one_hot},
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
    {"deck_backs", "per deck position from the top: [regular, vip] back (neither while the set-up shuffle has "
     "not placed it)",
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
    c.icon_type_bytes[k] = 0;
    for (int i = 0; i < kMaxIcons; ++i) {
      const int icon = c.icons[k][i];
      if (i < n ? (icon < 0 || icon >= kTypes) : icon != kEmpty)
        return fail(err, errlen, "dim_sum_jam config field 'cards'[%d]: icon %d is %d; a token type 0-%d for each "
                    "of the card's %d icons, -1 past them", k, i, icon, kTypes - 1, n);
      if (i < n) c.most_same_icons = static_cast<uint8_t>(std::max<int>(c.most_same_icons, ++per_type[icon]));
      if (i < n) c.icon_type_bytes[k] |= (1ull << icon) << (8 * i);
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

namespace {

// Every play fills an icon space, and spaces free up only when a card leaves the tables, which
// draws its replacement from the finite deck: at most 7 + deck_length cards ever reach the tables,
// so at most that many times the most icons of a card plays, and a reward per card. Every
// time-out costs a complaint, and so does every stuck sequence (the guard passes the turn after
// max_free_redraws redraws): at most complaint_limit of each. A time-out's discards are at most
// a hand and 'done' per seat; a stuck sequence's, per redraw, a hand, 'done', the lay-down and
// the stand. Explicit chance adds the chance nodes: the set-up's (a shuffled back per top position
// but the last, every deck card, the start player, the deal), a draw per play, and a token per
// replenished space after every time-out and every stuck sequence. Within the fields' bounds this
// is below 2^20.
int max_game_length(const Config& c) {
  const int cards_ever = kTables + c.deck_length;
  const int hand = c.hand_limit, limit = c.complaint_limit, players = c.players, redraws = c.max_free_redraws;
  const int plays = cards_ever * c.most_icons;
  const int rewards = cards_ever;
  const int timeouts = limit * players * (hand + 1);
  const int stuck = limit * (redraws + 1) * (hand + 3);
  const int length = plays + rewards + timeouts + stuck;
  if (!c.explicit_chance) return length;
  const int top = c.deck_top_regular + c.extra_vips;
  const int setup = (c.extra_vips ? top - 1 : 0) + c.deck_length + 1 + players * hand;
  const int refills = limit * players * hand + limit * (redraws + 1) * hand;
  return length + setup + plays + refills;
}

}  // namespace

ConfigInfo Engine::config_info(const Config& c) {
  return ConfigInfo{kNumActions, c.players, c.observation_size, state_field_count<Config, State>(kFields, c),
                    max_game_length(c), num_chance_outcomes(c)};
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
