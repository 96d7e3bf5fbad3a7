// Pig: config, state and the rules' entry points. docs/rules/pig.md is the spec (OpenSpiel's
// "pig", its rules and defaults); python/dimsum/reference/pig.py is the readable oracle this must
// agree with step by step (same RNG calls in the same order, so a seed gives the same game in both).
//
// Pig is dimsum's template game: the smallest complete Engine (docs/ADDING_A_GAME.md walks
// through these files). A turn: roll the die as often as you like, adding each face to the turn
// total; a 1 loses the turn total and passes the turn; holding banks it and passes. The first to
// the target score wins.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../common/engine.hpp"
#include "../common/rng.hpp"

namespace dimsum::pig {

inline constexpr int kMaxPlayers = 10;   // OpenSpiel's pig: 2 to 10 players
inline constexpr int kMaxFaces = 100;    // the die's faces (diceoutcomes), 2 to 100
inline constexpr int kMaxWinScore = 10000;
inline constexpr int kMaxHorizon = 1000000;

// The decisions. Chance outcomes (explicit chance) share the id range (common/engine.hpp: ids in
// [0, num_chance_outcomes) with num_chance_outcomes <= num_actions): outcome o is "the die shows
// o + 1" (piglet: 0 "a 1", 1 "not a 1"), so ids 2 and up are never legal at a decision.
enum Action : int { kRoll = 0, kHold = 1 };

struct Config {
  int8_t players;
  uint8_t faces;          // diceoutcomes: the die's faces
  bool piglet;            // OpenSpiel's piglet: a roll either loses (a 1) or adds 1
  int32_t winscore;       // the target score
  int32_t horizon;        // the most decisions (rolls and holds) of a game; then it ends, no winner
  // derived (finish_config)
  int16_t num_outcomes;   // a roll's chance outcomes: faces, or 2 with piglet
  int16_t num_actions;    // max(2, num_outcomes): roll, hold, and the outcomes' ids
  int16_t max_gain;       // the most one roll adds to the turn total: faces, or 1 with piglet
  int16_t observation_size;
  bool explicit_chance;   // engine.hpp, "Chance": stop before every roll of the die

  // The highest score or turn total a game can reach: a roll is allowed only below the target.
  constexpr int max_total() const { return winscore - 1 + max_gain; }
};

struct State {
  Rng rng;
  uint64_t hash;                  // Zobrist key of everything below (hashing.hpp)
  uint32_t moves;                 // decisions made (OpenSpiel's total_moves): the game ends at horizon
  int16_t scores[kMaxPlayers];    // banked points; seats >= players are 0
  int16_t turn_total;             // points rolled this turn, not yet banked
  int8_t current;                 // the seat to act, kChancePlayer while a roll is pending, -1 once over
  int8_t turn_player;             // whose turn it is (the seat after the winner once won, as OpenSpiel)
  uint8_t last_roll;              // the last roll's outcome + 1 (a die: its face); 0 before the first roll
  uint8_t reserved_[3];           // always zero: no padding, so equal states have equal bytes
};
static_assert(std::has_unique_object_representations_v<State>, "State must have no padding bytes");
static_assert(sizeof(State) == 72, "State's layout is kStateVersion 1's: saved bytes must stay valid");

// The engine contract (common/engine.hpp says what each member must guarantee). is_legal and
// resample are the defaults: the legal list is two actions at most, and Pig hides nothing but
// the future rolls, so a resampled state is the same position reseeded.
struct Engine {
  using Config = pig::Config;
  using State = pig::State;
  static constexpr const char* kName = "pig";
  static constexpr uint16_t kGameId = 4;
  static constexpr uint16_t kStateVersion = 1;
  static constexpr int kMaxActions = kMaxFaces;  // a chance node lists every face
  static constexpr int kMaxPlayers = pig::kMaxPlayers;

  // schema.cpp: the declared boundary
  static std::span<const ConfigField<Config>> config_fields();
  static bool finish_config(Config& c, char* err, int errlen);
  static std::span<const StateField<Config, State>> state_fields();
  static std::span<const ObservationSlice<Config>> observation();
  static ConfigInfo config_info(const Config& c);
  // rules.cpp
  static void new_state(const Config& c, State& s, uint64_t seed);
  static int current_player(const State& s) { return s.current; }
  static int legal_actions(const Config& c, const State& s, int16_t* out);
  static void apply(const Config& c, State& s, int action);
  static void apply_unkeyed(const Config& c, State& s, int action);  // common/engine.hpp, "Key upkeep"
  // random_decisions_loop<Engine> compiled here, the rules inlined into it (common/engine.hpp)
  static int64_t random_decisions(const Config& c, State& s, int64_t max_decisions, Rng& rng);
  static void returns(const Config& c, const State& s, double* out);
  static uint64_t compute_hash(const Config& c, const State& s);
  static int chance_outcomes(const Config& c, const State& s, int16_t* outcomes, uint32_t* weights);
  // observe.cpp
  static void observe(const Config& c, const State& s, int player, float* out);
  // state_io.cpp: states from outside
  static bool validate(const Config& c, const State& s, char* err, int errlen);
  // heuristic.cpp: "hold at 20" (PIG-8)
  static int heuristic_action(const Config& c, const State& s, Rng& rng);
};
static_assert(dimsum::Engine<Engine>);

// Shared by rules.cpp, state_io.cpp and heuristic.cpp.
constexpr int next_seat(const Config& c, int seat) { return seat + 1 < c.players ? seat + 1 : 0; }
// The seat that reached the target, or -1: the game's winner (PIG-5).
inline int winner(const Config& c, const State& s) {
  for (int p = 0; p < c.players; ++p)
    if (s.scores[p] >= c.winscore) return p;
  return -1;
}
// PIG-3: rolling is allowed only while banking would not reach the target.
inline bool may_roll(const Config& c, const State& s) { return s.scores[s.turn_player] + s.turn_total < c.winscore; }

}  // namespace dimsum::pig
