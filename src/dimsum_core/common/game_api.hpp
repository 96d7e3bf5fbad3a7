// One type-erased table of functions per game, so that the Python bindings, the batch engine
// and the playout driver are written once for all games.
//
// A game provides a traits struct G with static functions over its own Config and State
// (see yum_cha/engine.hpp); make_api<G>() turns it into a GameApi of plain function pointers
// over void*. Python-facing code calls through the table (one indirect call, ~1 ns); C++
// drivers that want inlining use the traits directly (batch/, playouts.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <concepts>
#include <type_traits>

namespace dimsum {

struct ConfigInfo {
  int num_actions;
  int players;
  int observation_size;
  int num_fields;       // length of export_fields' output
  int max_game_length;  // a hard bound on actions in one game
};

struct GameApi {
  const char* name;
  uint16_t game_id;
  uint16_t state_version;  // bumps whenever the State layout or its meaning changes
  uint32_t config_size;
  uint32_t state_size;

  // Config from the flat ints built by dimsum.games.<name>.config_ints (validated there first).
  bool (*config_from_ints)(const int64_t* values, int n, void* config, char* err, int errlen);
  void (*config_info)(const void* config, ConfigInfo* out);

  void (*new_state)(const void* config, void* state, uint64_t seed);
  int (*current_player)(const void* state);  // -1 when terminal
  int (*legal_actions)(const void* config, const void* state, int16_t* out);  // sorted; returns count
  bool (*is_legal)(const void* config, const void* state, int action);
  void (*apply)(const void* config, void* state, int action);  // action must be legal
  void (*returns)(const void* config, const void* state, double* out);
  void (*observe)(const void* config, const void* state, int player, float* out);
  uint64_t (*hash)(const void* state);
  uint64_t (*compute_hash)(const void* config, const void* state);  // from scratch, for checks
  int (*export_fields)(const void* config, const void* state, int64_t* out);
  // Builds a state from fields (as export_fields writes them); false with a message if invalid.
  bool (*import_fields)(const void* config, const int64_t* values, int n, void* state, char* err, int errlen);
  bool (*validate)(const void* config, const void* state, char* err, int errlen);
  void (*resample)(const void* config, const void* state, int player, uint64_t seed, void* out);

  // Timed games only (a game with a clock in its state, ARCHITECTURE section 4); nullptr for
  // the others. check_ticks: may `ticks` (>= 0) be charged in this config (false + message if
  // not). apply_timed: a legal action taking `ticks` (< 0: the action's default cost); returns
  // the ticks charged. advance: `ticks` pass with no action (the game must not be over).
  bool (*check_ticks)(const void* config, int64_t ticks, char* err, int errlen);
  int64_t (*apply_timed)(const void* config, void* state, int action, int64_t ticks);
  void (*advance)(const void* config, void* state, int64_t ticks);
};

// The functions every game's Engine defines out of line, declared once here for all games
// (inside `struct Engine { using Config = ...; using State = ...; ... }`). Each Engine adds
// current_player and apply itself (inline, so that the batch loops can inline them).
#define DIMSUM_ENGINE_FUNCTIONS                                                                      \
  static bool config_from_ints(const int64_t* v, int n, Config& c, char* err, int errlen);           \
  static ConfigInfo config_info(const Config& c);                                                    \
  static void new_state(const Config& c, State& s, uint64_t seed);                                  \
  static int legal_actions(const Config& c, const State& s, int16_t* out);                           \
  static bool is_legal(const Config& c, const State& s, int action);                                 \
  static void returns(const Config& c, const State& s, double* out);                                 \
  static void observe(const Config& c, const State& s, int player, float* out);                      \
  static uint64_t compute_hash(const Config& c, const State& s);                                     \
  static int export_fields(const Config& c, const State& s, int64_t* out);                           \
  static bool import_fields(const Config& c, const int64_t* v, int n, State& s, char* err, int errlen); \
  static bool validate(const Config& c, const State& s, char* err, int errlen);                      \
  static void resample(const Config& c, const State& s, int player, uint64_t seed, State& out);

// A timed game declares apply_timed, advance and check_ticks next to the usual functions.
template <class G>
concept TimedGame = requires(const typename G::Config& c, typename G::State& s, char* err) {
  { G::apply_timed(c, s, 0, int64_t{0}) } -> std::same_as<int64_t>;
  G::advance(c, s, int64_t{0});
  { G::check_ticks(c, int64_t{0}, err, 0) } -> std::same_as<bool>;
};

template <class G>
constexpr GameApi make_api() {
  using C = typename G::Config;
  using S = typename G::State;
  static_assert(std::is_trivially_copyable_v<C> && std::is_trivially_copyable_v<S>,
                "configs and states are copied as bytes");
  static_assert(alignof(S) <= 8 && alignof(C) <= 8, "bindings store states in uint64_t buffers");
  GameApi api{};
  api.name = G::kName;
  api.game_id = G::kGameId;
  api.state_version = G::kStateVersion;
  api.config_size = sizeof(C);
  api.state_size = sizeof(S);
  api.config_from_ints = [](const int64_t* v, int n, void* c, char* err, int errlen) {
    return G::config_from_ints(v, n, *static_cast<C*>(c), err, errlen);
  };
  api.config_info = [](const void* c, ConfigInfo* out) { *out = G::config_info(*static_cast<const C*>(c)); };
  api.new_state = [](const void* c, void* s, uint64_t seed) {
    G::new_state(*static_cast<const C*>(c), *static_cast<S*>(s), seed);
  };
  api.current_player = [](const void* s) { return G::current_player(*static_cast<const S*>(s)); };
  api.legal_actions = [](const void* c, const void* s, int16_t* out) {
    return G::legal_actions(*static_cast<const C*>(c), *static_cast<const S*>(s), out);
  };
  api.is_legal = [](const void* c, const void* s, int a) {
    return G::is_legal(*static_cast<const C*>(c), *static_cast<const S*>(s), a);
  };
  api.apply = [](const void* c, void* s, int a) { G::apply(*static_cast<const C*>(c), *static_cast<S*>(s), a); };
  api.returns = [](const void* c, const void* s, double* out) {
    G::returns(*static_cast<const C*>(c), *static_cast<const S*>(s), out);
  };
  api.observe = [](const void* c, const void* s, int p, float* out) {
    G::observe(*static_cast<const C*>(c), *static_cast<const S*>(s), p, out);
  };
  api.hash = [](const void* s) { return static_cast<const S*>(s)->hash; };
  api.compute_hash = [](const void* c, const void* s) {
    return G::compute_hash(*static_cast<const C*>(c), *static_cast<const S*>(s));
  };
  api.export_fields = [](const void* c, const void* s, int64_t* out) {
    return G::export_fields(*static_cast<const C*>(c), *static_cast<const S*>(s), out);
  };
  api.import_fields = [](const void* c, const int64_t* v, int n, void* s, char* err, int errlen) {
    return G::import_fields(*static_cast<const C*>(c), v, n, *static_cast<S*>(s), err, errlen);
  };
  api.validate = [](const void* c, const void* s, char* err, int errlen) {
    return G::validate(*static_cast<const C*>(c), *static_cast<const S*>(s), err, errlen);
  };
  api.resample = [](const void* c, const void* s, int p, uint64_t seed, void* out) {
    G::resample(*static_cast<const C*>(c), *static_cast<const S*>(s), p, seed, *static_cast<S*>(out));
  };
  if constexpr (TimedGame<G>) {
    api.check_ticks = [](const void* c, int64_t ticks, char* err, int errlen) {
      return G::check_ticks(*static_cast<const C*>(c), ticks, err, errlen);
    };
    api.apply_timed = [](const void* c, void* s, int a, int64_t ticks) {
      return G::apply_timed(*static_cast<const C*>(c), *static_cast<S*>(s), a, ticks);
    };
    api.advance = [](const void* c, void* s, int64_t ticks) {
      G::advance(*static_cast<const C*>(c), *static_cast<S*>(s), ticks);
    };
  }
  return api;
}

// The registry of every game compiled into this build (registry.cpp); nullptr if unknown.
const GameApi* find_game(const char* name);
int num_games();
const GameApi* game_at(int index);  // 0 <= index < num_games(), else nullptr

}  // namespace dimsum
