// Pig's boundary, declared once: the config fields Python hands over by name
// (dimsum.games.pig.config_values), the state fields behind to_dict / state_from_dict /
// state.field(name), and the observation slices. common/schema.hpp walks these tables.
#include "../common/schema.hpp"
#include "engine.hpp"

namespace dimsum::pig {
namespace {

using CF = ConfigField<Config>;
using SF = StateField<Config, State>;
using OS = ObservationSlice<Config>;
using Member = MemberFields<Config, State>;

// -- config ------------------------------------------------------------------------------------
// The order is the fingerprint's (to_bytes' header): append, never reorder.
constexpr CF kConfig[] = {
    Member::config<&Config::players>("players", "number of players (PIG-1)", {2, kMaxPlayers}),
    Member::config<&Config::winscore>("winscore", "the target score (PIG-5)", {1, kMaxWinScore}),
    Member::config<&Config::faces>("diceoutcomes", "the die's faces (PIG-2)", {2, kMaxFaces}),
    Member::config<&Config::horizon>("horizon", "the most decisions of a game (PIG-6)", {1, kMaxHorizon}),
    Member::config<&Config::piglet>("piglet", "1: a roll is a 1 (lose) or adds 1 (PIG-7)", {0, 1}),
    Member::chance_mode(),  // last: engine.hpp, "Chance"
};

// -- state -------------------------------------------------------------------------------------
Bounds total(const Config& c) { return Bounds{0, c.max_total()}; }

constexpr SF kFields[] = {
    Member::state<&State::moves>("moves", "decisions made so far (rolls and holds); the game ends at the horizon",
        [](const Config& c) { return Bounds{0, c.horizon}; }),
    Member::per_player<&State::scores>("scores", "each seat's banked points", total),
    Member::state<&State::turn_total>("turn_total", "points rolled this turn, not yet banked", total),
    Member::state<&State::turn_player>("turn_player", "whose turn it is",
        [](const Config& c) { return Bounds{0, c.players - 1}; }),
    Member::state<&State::current>("current_player",
        "the seat to act, -1 once the game is over, -2 while a roll is pending (explicit chance)",
        [](const Config& c) { return Bounds{c.explicit_chance ? kChancePlayer : -1, c.players - 1}; }),
    Member::state<&State::last_roll>("last_roll", "the last roll's outcome + 1 (a die: the face shown), 0 before the "
        "first roll", [](const Config& c) { return Bounds{0, c.num_outcomes}; }),
    Member::rng(),
};

// -- observation: my seat first (relative seats); Pig hides nothing -----------------------------
int players(const Config& c) { return c.players; }
int one(const Config&) { return 1; }
Bounds one_hot(const Config&) { return Bounds{0, 1}; }

constexpr OS kObservation[] = {
    {"scores", "banked points, my seat first", players, total},
    {"turn_total", "points rolled this turn, not yet banked", one, total},
    {"turn_player", "one-hot: whose turn, my seat first", players, one_hot},
    {"last_roll", "one-hot: the last roll's outcome (a die: face 1 first); all 0 before the first roll",
     [](const Config& c) { return static_cast<int>(c.num_outcomes); }, one_hot},
    {"moves_left", "decisions left before the horizon ends the game", one,
     [](const Config& c) { return Bounds{0, c.horizon}; }},
};

}  // namespace

std::span<const CF> Engine::config_fields() { return kConfig; }
std::span<const SF> Engine::state_fields() { return kFields; }
std::span<const OS> Engine::observation() { return kObservation; }

bool Engine::finish_config(Config& c, char*, int) {
  c.num_outcomes = static_cast<int16_t>(c.piglet ? 2 : c.faces);
  c.num_actions = static_cast<int16_t>(c.num_outcomes > 2 ? c.num_outcomes : 2);
  c.max_gain = static_cast<int16_t>(c.piglet ? 1 : c.faces);
  c.observation_size = static_cast<int16_t>(observation_size<Config>(kObservation, c));
  return true;
}

// PIG-6: at most `horizon` decisions; in explicit chance every roll but the last is followed by
// its chance node (a roll that reaches the horizon ends the game before the die is cast).
ConfigInfo Engine::config_info(const Config& c) {
  const int length = c.explicit_chance ? 2 * c.horizon - 1 : c.horizon;
  return ConfigInfo{c.num_actions, c.players, c.observation_size, state_field_count<Config, State>(kFields, c),
                    length, c.num_outcomes};
}

}  // namespace dimsum::pig
