// Yum Cha's boundary, declared once: the config fields Python hands over by name
// (dimsum.games.yum_cha.config_values), the state fields behind to_dict / state_from_dict /
// state.field(name), and the observation slices. common/schema.hpp walks these tables.
#include <algorithm>

#include "../common/schema.hpp"
#include "engine.hpp"
#include "redrawn.hpp"

namespace dimsum::yum_cha {
namespace {

using CF = ConfigField<Config>;
using SF = StateField<Config, State>;
using OS = ObservationSlice<Config>;
using Member = MemberFields<Config, State>;

// -- config ------------------------------------------------------------------------------------
// The order is the fingerprint's (to_bytes' header): append, never reorder.
constexpr CF kConfig[] = {
    Member::config<&Config::players>("players", "number of players (YC-16)", {2, kMaxPlayers}),
    Member::config<&Config::rounds>("rounds", "rounds in a game", {1, kMaxRounds}),
    Member::config<&Config::first_player>("first_player", "seat that starts round 1, -1: drawn at random (YC-11)",
        {-1, kMaxPlayers - 1}),
    Member::config<&Config::auto_declare>("auto_declare", "declare as soon as a drawn card completes the hand (YC-5)",
        {0, 1}),
    Member::config<&Config::forbid_immediate_return>("forbid_immediate_return",
        "a card taken from the centre may not be discarded at once (YC-3)",
        {0, 1}),
    Member::config<&Config::deck_out>("deck_out", "0 washout, 1 reshuffle the centre, 2 centre only (YC-9)", {0, 2}),
    Member::config<&Config::max_turns>("max_turns", "turns after which a round is a washout (YC-10)", {1, 10000}),
    Member::config<&Config::tie_break>("tie_break", "0 share, 1 declarations then best round (YC-13)", {0, 1}),
    Member::config<&Config::reward>("reward", "returns(): 0 win share, 1 score", {0, 1}),
    {"tier_points", "set points of each tier, in tier order", kMaxTiers, 1, 1, {1, 9},
     [](Config& c, int tier, const int64_t* v) {
       c.tier_points[tier] = narrow<uint8_t>(*v);
       c.num_tiers = narrow<int8_t>(tier + 1);
     },
     kCounted},
    {"card_types", "per card type: kind (0 dim sum, 1 tea, 2 takeaway), tier, value, copies", kMaxTypes, 4, 1,
     {0, 15},
     [](Config& c, int t, const int64_t* v) {
       c.kind[t] = narrow<uint8_t>(v[0]);
       c.tier[t] = narrow<uint8_t>(v[1]);
       c.value[t] = narrow<uint8_t>(v[2]);
       c.copies[t] = narrow<uint8_t>(v[3]);
       c.num_types = narrow<int8_t>(t + 1);
     },
     kCounted},
    Member::chance_mode(),  // last: engine.hpp, "Chance"
};

// -- state -------------------------------------------------------------------------------------
constexpr Bounds kBigCount{0, 32767};
constexpr Bounds kCardCount{0, 15};

constexpr SF kFields[] = {
    Member::state<&State::round>("round", "the round being played (= rounds once the game is over)",
        [](const Config& c) { return Bounds{0, c.rounds}; }),
    Member::state<&State::phase>("phase",
        "0 draw, 1 discard (or declare), 2 over; explicit chance only, a chance node: 3 round 1's starter "
        "to draw, 4 the next card of the deal, 5 the card of a draw from the deck",
        [](const Config& c) { return Bounds{kDraw, c.explicit_chance ? kDeckDraw : kOver}; }),
    Member::state<&State::current>("current_player",
        "the seat to act, -1 once the game is over, -2 at a chance node (explicit chance)",
        [](const Config& c) { return Bounds{c.explicit_chance ? kChancePlayer : -1, c.players - 1}; }),
    Member::state<&State::starter>("starter", "the seat that started this round",
        [](const Config& c) { return Bounds{0, c.players - 1}; }),
    Member::state<&State::turn>("turn", "turns played in this round",
        [](const Config& c) { return Bounds{0, c.max_turns}; }),
    {"hands", "per player, a count per card type", [](const Config& c) { return matrix(c.players, c.num_types); },
     [](const Config&) { return kCardCount; },
     [](const Config& c, const State& s, int i) -> int64_t { return s.hands[i / c.num_types].get(i % c.num_types); },
     [](const Config& c, State& s, int i, int64_t v) { s.hands[i / c.num_types].set(i % c.num_types, narrow<int>(v)); }},
    {"known", "per player, the cards the others saw them take from the centre and still held (YC-14)",
     [](const Config& c) { return matrix(c.players, c.num_types); }, [](const Config&) { return kCardCount; },
     [](const Config& c, const State& s, int i) -> int64_t { return s.known[i / c.num_types].get(i % c.num_types); },
     [](const Config& c, State& s, int i, int64_t v) { s.known[i / c.num_types].set(i % c.num_types, narrow<int>(v)); }},
    {"centre", "the face-up centre, a count per card type", [](const Config& c) { return vector(c.num_types); },
     [](const Config&) { return kCardCount; }, [](const Config&, const State& s, int t) -> int64_t { return s.centre.get(t); },
     [](const Config&, State& s, int t, int64_t v) { s.centre.set(t, narrow<int>(v)); }},
    {"deck", "the deck, a count per card type", [](const Config& c) { return vector(c.num_types); },
     [](const Config&) { return kCardCount; }, [](const Config&, const State& s, int t) -> int64_t { return s.deck.get(t); },
     [](const Config&, State& s, int t, int64_t v) { s.deck.set(t, narrow<int>(v)); }},
    Member::state<&State::last_taken>("last_taken",
        "the card type the current player took from the centre this turn, -1 none",
        [](const Config& c) { return Bounds{-1, c.num_types - 1}; }),
    Member::state<&State::last_discard>("last_discard", "the card type last discarded to the centre, -1 none",
        [](const Config& c) { return Bounds{-1, c.num_types - 1}; }),
    Member::per_player<&State::scores>("scores", "point totals", [](const Config&) { return kBigCount; }),
    Member::per_player<&State::declarations>("declarations", "rounds each player won by declaring Yum Cha",
        [](const Config& c) { return Bounds{0, c.rounds}; }),
    Member::per_player<&State::best_round>("best_round", "each player's best round score (YC-13)",
        [](const Config&) { return kBigCount; }),
    Member::per_player<&State::last_round>("last_round", "each player's score in the last round",
        [](const Config&) { return kBigCount; }),
    Member::state<&State::last_declarer>("last_declarer", "the seat that declared last, -1 none",
        [](const Config& c) { return Bounds{-1, c.players - 1}; }),
    {"drawer", "the seat whose draw from the deck chance is resolving (phase 5, explicit chance), else -1",
     [](const Config&) { return scalar(); },
     [](const Config& c) { return Bounds{-1, c.explicit_chance ? c.players - 1 : -1}; },
     [](const Config&, const State& s, int) -> int64_t { return s.drawer(); },
     [](const Config&, State& s, int, int64_t v) { s.drawer_plus_one = static_cast<uint8_t>(v + 1); }},
    {"deck_number", "deck_out reshuffle_centre: the deck drawn from, 0 the dealt one, k >= 1 a reshuffled one "
     "(renumbered at each reshuffle: redrawn.hpp)", [](const Config&) { return scalar(); },
     [](const Config& c) { return Bounds{0, c.deck_out == kReshuffleCentre ? kMaxDecks - 1 : 0}; },
     [](const Config&, const State& s, int) -> int64_t { return s.deck_number; },
     [](const Config&, State& s, int, int64_t v) { s.deck_number = static_cast<uint8_t>(v); }},
    {"redrawn", "per player, the cards they drew from a reshuffled deck and hold unknown to the others: "
     "64 x deck + card type each, descending, then 0 (redrawn.hpp)",
     [](const Config& c) { return matrix(c.players, kRedrawnSlots); },
     [](const Config& c) { return Bounds{0, c.deck_out == kReshuffleCentre ? 64 * kMaxDecks - 1 : 0}; },
     [](const Config&, const State& s, int i) -> int64_t { return s.redrawn[i / kRedrawnSlots][i % kRedrawnSlots]; },
     [](const Config&, State& s, int i, int64_t v) {
       s.redrawn[i / kRedrawnSlots][i % kRedrawnSlots] = static_cast<uint16_t>(v);
     }},
    Member::rng(),
};

// -- observation: my seat first (relative seats) ------------------------------------------------
int types(const Config& c) { return c.num_types; }
int players(const Config& c) { return c.players; }
Bounds counts(const Config&) { return kCardCount; }
Bounds one_hot(const Config&) { return Bounds{0, 1}; }

constexpr OS kObservation[] = {
    {"hand", "my cards, a count per card type", types, counts},
    {"centre", "the face-up centre, a count per card type", types, counts},
    {"known", "for each other player (next seat first): cards they took from the centre and still hold",
     [](const Config& c) { return (c.players - 1) * c.num_types; }, counts},
    {"hand_sizes", "cards in each hand, my seat first", players, [](const Config&) { return Bounds{0, kHandSize + 1}; }},
    {"deck_size", "cards left in the deck", [](const Config&) { return 1; },
     [](const Config& c) { return Bounds{0, c.total_cards}; }},
    {"scores", "point totals, my seat first", players, [](const Config&) { return kBigCount; }},
    {"round", "one-hot: the round being played", [](const Config& c) { return static_cast<int>(c.rounds); }, one_hot},
    {"phase", "one-hot: the current player must draw / must discard or declare (both 0 at a chance node)",
     [](const Config&) { return 2; }, one_hot},
    {"current_player", "one-hot: whose turn, my seat first (all 0 at a chance node and once over)", players,
     one_hot},
    {"last_taken", "one-hot: the card the current player took from the centre this turn", types, one_hot},
    {"turn", "turns played in this round", [](const Config&) { return 1; },
     [](const Config& c) { return Bounds{0, c.max_turns}; }},
};

}  // namespace

std::span<const CF> Engine::config_fields() { return kConfig; }
std::span<const SF> Engine::state_fields() { return kFields; }
std::span<const OS> Engine::observation() { return kObservation; }

// What follows from the fields: the deck's totals and tier ranges, the action space, and the
// checks that involve several fields (the types come grouped: dim sum by tier, then teas, then
// at most one takeaway type).
bool Engine::finish_config(Config& c, char* err, int errlen) {
  if (!check_seat_field(kName, "first_player", c.first_player, c.players, err, errlen)) return false;
  c.takeaway_type = -1;
  c.tea_first = static_cast<uint8_t>(c.num_types);
  int last_kind = 0, last_tier = 0;
  for (int t = 0; t < c.num_types; ++t) {
    const int kind = c.kind[t], tier = c.tier[t];
    if (kind < last_kind || kind > kTakeaway || c.copies[t] < 1 || c.value[t] > 9 ||
        (kind == kDimSum && (tier < last_tier || tier >= c.num_tiers)))
      return fail(err, errlen,
                  "yum_cha config field 'card_types'[%d]: kind %d tier %d value %d copies %d; types come grouped "
                  "(dim sum by tier, teas, takeaway), with 1-15 copies and values 0-9",
                  t, kind, tier, c.value[t], c.copies[t]);
    c.full_deck.set(t, c.copies[t]);
    c.total_cards = static_cast<int16_t>(c.total_cards + c.copies[t]);
    if (kind == kDimSum) {
      if (c.tier_end[tier] == 0) c.tier_first[tier] = static_cast<uint8_t>(t);
      c.tier_end[tier] = static_cast<uint8_t>(t + 1);
      last_tier = tier;
    } else {
      c.tier[t] = 0;
      if (kind == kTea) {
        if (c.num_teas == 0) c.tea_first = static_cast<uint8_t>(t);
        ++c.num_teas;
      } else {
        if (c.takeaway_type >= 0)
          return fail(err, errlen, "yum_cha config field 'card_types'[%d]: a second takeaway type; one is allowed", t);
        c.takeaway_type = static_cast<int8_t>(t);
      }
    }
    last_kind = kind;
  }
  if (c.total_cards < c.players * kHandSize + 1 || c.total_cards > 255)
    return fail(err, errlen, "yum_cha config field 'card_types': %d cards for %d players; %d to 255 are allowed",
                c.total_cards, c.players, c.players * kHandSize + 1);
  for (int k = 0; k < c.num_tiers; ++k) c.tiers_by_points[k] = static_cast<uint8_t>(k);
  std::stable_sort(c.tiers_by_points, c.tiers_by_points + c.num_tiers,
                   [&](uint8_t a, uint8_t b) { return c.tier_points[a] > c.tier_points[b]; });
  c.num_actions = static_cast<int16_t>(2 + 2 * c.num_types);
  c.observation_size = static_cast<int16_t>(observation_size<Config>(kObservation, c));
  return true;
}

namespace {

// A game is at most `rounds` rounds of at most max_turns turns of two actions. Explicit chance adds
// per round the deal's chance nodes (ten a player) and one a turn (a draw from the deck), and the
// round-1 starter.
int max_game_length(const Config& c) {
  const int sampled = c.rounds * c.max_turns * 2;
  if (!c.explicit_chance) return sampled;
  return sampled + c.rounds * (c.players * kHandSize + c.max_turns) + 1;
}

}  // namespace

ConfigInfo Engine::config_info(const Config& c) {
  return ConfigInfo{c.num_actions, c.players, c.observation_size, state_field_count<Config, State>(kFields, c),
                    max_game_length(c), num_chance_outcomes(c)};
}

// The sizes the fields do not carry.
void Engine::finish_import(const Config& c, State& s) {
  for (int p = 0; p < c.players; ++p) s.hand_size[p] = static_cast<uint8_t>(s.hands[p].total());
  s.centre_size = static_cast<uint8_t>(std::min(255, s.centre.total()));
  s.deck_size = static_cast<uint8_t>(std::min(255, s.deck.total()));
}

}  // namespace dimsum::yum_cha
