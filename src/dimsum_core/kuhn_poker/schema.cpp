// Kuhn poker's boundary, declared once: the config fields Python hands over by name
// (dimsum.games.kuhn_poker.config_values), the state fields behind to_dict / state_from_dict /
// state.field(name), and the observation slices. common/schema.hpp walks these tables.
#include "../common/schema.hpp"
#include "engine.hpp"

namespace dimsum::kuhn_poker {
namespace {

using CF = ConfigField<Config>;
using SF = StateField<Config, State>;
using OS = ObservationSlice<Config>;
using Member = MemberFields<Config, State>;

// -- config ------------------------------------------------------------------------------------
// The order is the fingerprint's (to_bytes' header): append, never reorder.
constexpr CF kConfig[] = {
    Member::config<&Config::players>("players", "number of players (KP-1)", {2, kMaxPlayers}),
    Member::chance_mode(),  // last: engine.hpp, "Chance"
};

// -- state -------------------------------------------------------------------------------------
constexpr SF kFields[] = {
    // the card itself (the State keeps card + 1, so that an empty seat is 0)
    SF{"cards", "each seat's card (0 lowest to players highest), -1 until dealt",
       [](const Config& c) { return vector(c.players); }, [](const Config& c) { return Bounds{kNoCard, c.players}; },
       [](const Config&, const State& s, int p) { return static_cast<int64_t>(card_of(s, p)); },
       [](const Config&, State& s, int p, int64_t v) { s.held[p] = static_cast<uint8_t>(v + 1); }},
    Member::state<&State::decisions>("decisions", "betting decisions made; decision i is seat i % players's",
        [](const Config& c) { return Bounds{0, c.max_decisions()}; }),
    Member::state<&State::bets>("bets", "bit i set: betting decision i was a bet (else a pass)",
        [](const Config& c) { return Bounds{0, low_bits(c.max_decisions())}; }),
    Member::state<&State::current>("current_player",
        "the seat to act, -1 once the game is over, -2 while a card is dealt (explicit chance)",
        [](const Config& c) { return Bounds{c.explicit_chance ? kChancePlayer : -1, c.players - 1}; }),
    Member::rng(),
};

// -- observation: OpenSpiel's kuhn_poker observation tensor, slice for slice --------------------
int players(const Config& c) { return c.players; }
int cards(const Config& c) { return c.num_cards; }
Bounds one_hot(const Config&) { return Bounds{0, 1}; }

constexpr OS kObservation[] = {
    {"player", "one-hot: the observing seat", players, one_hot},
    {"private_card", "one-hot: my card (0 lowest first); all 0 before it is dealt", cards, one_hot},
    {"pot_contribution", "each seat's chips in the pot (seat 0 first): the ante, and 1 more once it bet or called",
     players, [](const Config&) { return Bounds{1, 2}; }},
};

}  // namespace

std::span<const CF> Engine::config_fields() { return kConfig; }
std::span<const SF> Engine::state_fields() { return kFields; }
std::span<const OS> Engine::observation() { return kObservation; }

bool Engine::finish_config(Config& c, char*, int) {
  c.num_cards = static_cast<int8_t>(c.players + 1);
  c.num_actions = c.num_cards;  // the deal's outcomes are card ids: at least 3 > pass, bet
  c.observation_size = static_cast<int16_t>(observation_size<Config>(kObservation, c));
  return true;
}

// The longest game: the deal (explicit chance: a node a seat), then 2 * players - 1 decisions.
ConfigInfo Engine::config_info(const Config& c) {
  const int length = (c.explicit_chance ? c.players : 0) + c.max_decisions();
  return ConfigInfo{c.num_actions, c.players, c.observation_size, state_field_count<Config, State>(kFields, c),
                    length, c.num_cards};
}

}  // namespace dimsum::kuhn_poker
