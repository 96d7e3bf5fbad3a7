// Test-only checks of the engine contract's generic code (src/dimsum_core/common/engine.hpp,
// game_api.hpp, bots/heuristic.hpp) on a toy game that no registered game can stand in for: a
// game without a heuristic, and configs that break the contract's limits. Built and driven by
// tests/test_engine_contract.py.
//
// Reads one command a line from stdin and prints one line of JSON for each:
//   build PLAYERS ACTIONS OUTCOMES
//       -> {"ok": true|false, "message": "..."}: build_config<Toy> of that config
//   heuristic SEED N
//       -> {"default": [N actions], "random": [N actions], "member": [N actions]}: heuristic_move
//          of the toy without a heuristic, LegalActions::pick from a generator of the same seed,
//          and heuristic_move of the toy that declares heuristic_action
//   layout
//       -> {"<case>": "<message, empty if accepted>", ...}: common/validate.hpp's checks on
//          crafted values (see layout() below)
// Compiled with -DTOY_MAX_PLAYERS=N, the toy declares that many seats (past the shared cap, the
// build must fail with make_api's static_assert); with -DTOY_LAYOUT_LEAVES_OUT_TURN, its byte
// layout misses a member (the build must fail with common/byte_order.hpp's static_assert).
#include <cstdint>
#include <iostream>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "dimsum_core/bots/heuristic.hpp"
#include "dimsum_core/common/game_api.hpp"
#include "dimsum_core/common/validate.hpp"

#ifndef TOY_MAX_PLAYERS
#define TOY_MAX_PLAYERS 4
#endif

namespace toy {

using dimsum::Bounds;
using dimsum::ConfigField;
using dimsum::ConfigInfo;
using dimsum::ObservationSlice;
using dimsum::Rng;
using dimsum::StateField;

// Players take turns choosing any of num_actions actions; the game ends after 2 * players of them.
struct Config {
  int8_t players, num_actions, num_outcomes;
  bool explicit_chance;
};

struct State {
  Rng rng;
  uint64_t hash;
  int8_t current, turn;
  uint8_t reserved_[6];
};

}  // namespace toy

// Its bytes cross as every game's do (common/byte_order.hpp): its members in order. Compiled with
// -DTOY_LAYOUT_LEAVES_OUT_TURN, the layout forgets a member (the build must fail).
template <>
struct dimsum::ByteLayout<toy::State>
#ifdef TOY_LAYOUT_LEAVES_OUT_TURN
    : dimsum::Members<&toy::State::rng, &toy::State::hash, &toy::State::current, &toy::State::reserved_> {};
#else
    : dimsum::Members<&toy::State::rng, &toy::State::hash, &toy::State::current, &toy::State::turn,
                      &toy::State::reserved_> {};
#endif

namespace toy {

using Member = dimsum::MemberFields<Config, State>;

constexpr ConfigField<Config> kConfigFields[] = {
    // wider than kMaxPlayers on purpose: build_config, not the field's bounds, must refuse
    Member::config<&Config::players>("players", "number of players", {1, 100}),
    Member::config<&Config::num_actions>("num_actions", "actions", {1, 100}),
    Member::config<&Config::num_outcomes>("num_outcomes", "chance outcomes", {0, 100}),
    Member::chance_mode(),
};
constexpr StateField<Config, State> kStateFields[] = {
    Member::state<&State::current>("current_player", "the seat to act, -1 over",
                                   [](const Config& c) { return Bounds{-1, c.players - 1}; }),
};
constexpr ObservationSlice<Config> kObservation[] = {
    {"turn", "the turn", [](const Config&) { return 1; }, [](const Config&) { return Bounds{0, 127}; }},
};

// The toy without a heuristic: heuristic_move falls back to a random legal action.
struct Plain {
  using Config = toy::Config;
  using State = toy::State;
  static constexpr const char* kName = "toy";
  static constexpr uint16_t kGameId = 999;
  static constexpr uint16_t kStateVersion = 1;
  static constexpr int kMaxActions = 100;
  static constexpr int kMaxPlayers = TOY_MAX_PLAYERS;

  static std::span<const ConfigField<Config>> config_fields() { return kConfigFields; }
  static bool finish_config(Config&, char*, int) { return true; }
  static std::span<const StateField<Config, State>> state_fields() { return kStateFields; }
  static std::span<const ObservationSlice<Config>> observation() { return kObservation; }
  static ConfigInfo config_info(const Config& c) { return {c.num_actions, c.players, 1, 1, 2 * c.players, c.num_outcomes}; }
  static void new_state(const Config&, State& s, uint64_t seed) {
    s = State{};
    s.rng = Rng::from_seed(seed);
  }
  static int current_player(const State& s) { return s.current; }
  static int legal_actions(const Config& c, const State& s, int16_t* out) {
    if (s.current < 0) return 0;
    for (int a = 0; a < c.num_actions; ++a) out[a] = static_cast<int16_t>(a);
    return c.num_actions;
  }
  static void apply(const Config& c, State& s, int) {
    ++s.turn;
    s.current = s.turn >= 2 * c.players ? -1 : static_cast<int8_t>(s.turn % c.players);
  }
  static void returns(const Config& c, const State&, double* out) {
    for (int p = 0; p < c.players; ++p) out[p] = 0;
  }
  static void observe(const Config&, const State& s, int, float* out) { out[0] = s.turn; }
  static int chance_outcomes(const Config&, const State&, int16_t*, uint32_t*) { return 0; }
  static uint64_t compute_hash(const Config&, const State&) { return 0; }
  static bool validate(const Config&, const State&, char*, int) { return true; }
};

// The same toy with a heuristic of its own: always the highest legal action.
struct EngineWithHeuristic : Plain {
  static int heuristic_action(const Config& c, const State&, Rng&) { return c.num_actions - 1; }
};

static_assert(dimsum::Engine<Plain> && dimsum::Engine<EngineWithHeuristic>);

// Instantiated so that a TOY_MAX_PLAYERS past the shared cap fails the build.
const dimsum::GameApi kApi = dimsum::make_api<Plain>();

}  // namespace toy

namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

std::string list(const std::vector<int>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + std::to_string(items[i]);
  return out + "]";
}

std::string build(int64_t players, int64_t actions, int64_t outcomes) {
  const int64_t values[] = {players, actions, outcomes, 0};
  toy::Config c;
  char err[512] = "";
  const bool ok = toy::kApi.config_from_values(values, 4, &c, err, sizeof err);
  return std::string("{\"ok\": ") + (ok ? "true" : "false") + ", \"message\": " + quoted(err) + "}";
}

std::string heuristic(uint64_t seed, int n) {
  const toy::Config c{3, 7, 0, false};
  toy::State s;
  toy::Plain::new_state(c, s, 1);
  dimsum::Rng by_default = dimsum::Rng::from_seed(seed), by_pick = by_default, by_member = by_default;
  std::vector<int> defaults, picks, members;
  for (int i = 0; i < n; ++i) {
    defaults.push_back(dimsum::heuristic_move<toy::Plain>(c, s, by_default));
    picks.push_back(dimsum::LegalActions<toy::Plain>(c, s).pick(by_pick));
    members.push_back(dimsum::heuristic_move<toy::EngineWithHeuristic>(c, s, by_member));
  }
  return "{\"default\": " + list(defaults) + ", \"random\": " + list(picks) + ", \"member\": " + list(members) + "}";
}

// Each shared layout check on a value it must accept and on one it must refuse.
std::string layout() {
  struct Case {
    const char* name;
    bool (*check)(char* err, int errlen);
  };
  static constexpr Case kCases[] = {
      {"rng_running", [](char* e, int n) { return dimsum::check_rng_field("toy", dimsum::Rng::from_seed(0), e, n); }},
      {"rng_zero", [](char* e, int n) { return dimsum::check_rng_field("toy", dimsum::Rng{}, e, n); }},
      {"reserved_zero",
       [](char* e, int n) {
         const uint8_t reserved[3] = {0, 0, 0};
         return dimsum::check_reserved_zero("toy", reserved, e, n);
       }},
      {"reserved_set",
       [](char* e, int n) {
         const uint8_t reserved[3] = {0, 0, 7};
         return dimsum::check_reserved_zero("toy", reserved, e, n);
       }},
      {"seats_played_set",  // 3 of 5 seats played: seats 0-2 may hold anything
       [](char* e, int n) {
         const int16_t scores[5] = {4, -2, 9, 0, 0};
         return dimsum::check_seats_past_players_empty("toy", "scores", scores, 3, e, n);
       }},
      {"seat_past_players_set",
       [](char* e, int n) {
         const int16_t scores[5] = {4, -2, 9, 0, 1};
         return dimsum::check_seats_past_players_empty("toy", "scores", scores, 3, e, n);
       }},
      {"seats_past_players_at_their_empty_value",
       [](char* e, int n) {
         const int8_t colour[5] = {2, -1, 0, -1, -1};
         return dimsum::check_seats_past_players_empty("toy", "colour", colour, 3, e, n, int8_t{-1});
       }},
      {"seat_past_players_zero_where_empty_is_minus_one",
       [](char* e, int n) {
         const int8_t colour[5] = {2, -1, 0, 0, -1};
         return dimsum::check_seats_past_players_empty("toy", "colour", colour, 3, e, n, int8_t{-1});
       }},
  };
  std::string out = "{";
  for (const Case& c : kCases) {
    char err[512] = "";
    const bool ok = c.check(err, sizeof err);
    out += std::string(out.size() > 1 ? ", " : "") + quoted(c.name) + ": " + quoted(ok ? "" : err);
  }
  return out + "}";
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string command;
    in >> command;
    if (command == "build") {
      int64_t players = 0, actions = 0, outcomes = 0;
      in >> players >> actions >> outcomes;
      std::cout << build(players, actions, outcomes) << "\n";
    } else if (command == "layout") {
      std::cout << layout() << "\n";
    } else if (command == "heuristic") {
      uint64_t seed = 0;
      int n = 0;
      in >> seed >> n;
      std::cout << heuristic(seed, n) << "\n";
    } else {
      std::cout << "{\"error\": " << quoted("unknown command: " + command) << "}\n";
    }
  }
  return 0;
}
