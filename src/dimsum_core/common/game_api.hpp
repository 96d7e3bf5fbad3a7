// One type-erased table of functions per game, so that the Cython binding is written once for
// every game and never names one.
//
// make_api<G>() turns a game's traits struct (the Engine contract, engine.hpp) into a GameApi
// of plain function pointers over void*. Python-facing code calls through the table (one
// indirect call, ~1 ns). The batch engine and the playout driver do not use it: they call the
// traits directly, so that the rules inline into their loops.
#pragma once

#include <cstddef>
#include <cstdint>

#include "byte_order.hpp"
#include "engine.hpp"
#include "schema.hpp"

namespace dimsum {

struct GameApi {
  const char* name;
  uint16_t game_id;
  uint16_t state_version;  // bumps whenever the State layout or its meaning changes
  uint32_t config_size;
  uint32_t state_size;

  // The declared boundary (schema.hpp). config_fields: the config's fields in the order
  // config_from_values reads them. state_fields / observation_slices: for one config; each
  // writes at most kMaxSchemaFields rows and returns how many.
  int (*config_fields)(FieldInfo* out);
  bool (*config_from_values)(const int64_t* values, int n, void* config, char* err, int errlen);
  int (*state_fields)(const void* config, FieldInfo* out);
  int (*observation_slices)(const void* config, FieldInfo* out);
  void (*config_info)(const void* config, ConfigInfo* out);

  void (*new_state)(const void* config, void* state, uint64_t seed);
  int (*current_player)(const void* state);  // -1 when terminal, kChancePlayer at a chance node
  int (*legal_actions)(const void* config, const void* state, int16_t* out);  // sorted; returns count
  bool (*is_legal)(const void* config, const void* state, int action);
  void (*apply)(const void* config, void* state, int action);  // action must be legal
  // At a chance node: the outcomes (ascending) and their integer weights; returns their number.
  int (*chance_outcomes)(const void* config, const void* state, int16_t* outcomes, uint32_t* weights);
  // The state's future randomness replaced by a generator seeded with `seed` (a search-safe copy).
  void (*reseed)(void* state, uint64_t seed);
  void (*returns)(const void* config, const void* state, double* out);
  void (*observe)(const void* config, const void* state, int player, float* out);
  uint64_t (*hash)(const void* state);
  uint64_t (*compute_hash)(const void* config, const void* state);  // from scratch, for checks
  // The flat field form: every state field in state_fields order (num_fields values).
  int (*export_fields)(const void* config, const void* state, int64_t* out);
  // One field (by its index in state_fields) into out; returns its number of values.
  int (*read_field)(const void* config, const void* state, int field, int64_t* out);
  // A state from the flat field form, each value checked against its field's bounds, then
  // validated; false with a message if anything is wrong.
  bool (*import_fields)(const void* config, const int64_t* values, int n, void* state, char* err, int errlen);
  bool (*validate)(const void* config, const void* state, char* err, int errlen);
  // The state's bytes as they cross (to_bytes, pickles): little-endian on every host
  // (common/byte_order.hpp), state_size of them at out; and a state from such bytes (unchecked:
  // validate it). A memcpy on a little-endian host.
  void (*write_bytes)(const void* state, void* out);
  void (*read_bytes)(const void* in, void* state);
  void (*resample)(const void* config, const void* state, int player, uint64_t seed, void* out);

  // Timed games only (engine.hpp, TimedGame); nullptr for the others.
  bool (*check_ticks)(const void* config, int64_t ticks, char* err, int errlen);
  int64_t (*apply_timed)(const void* config, void* state, int action, int64_t ticks);
  void (*advance)(const void* config, void* state, int64_t ticks);
};

template <Engine G>
constexpr GameApi make_api() {
  using C = typename G::Config;
  using S = typename G::State;
  static_assert(alignof(S) <= 8 && alignof(C) <= 8, "bindings store states in uint64_t buffers");
  static_assert(requires { ByteLayout<S>::template covers<S>(); },
                "a game declares its State's members for the little-endian byte form: ByteLayout<State> in "
                "<game>/byte_layout.hpp (common/byte_order.hpp)");
  static_assert(kWithinPlayerCap<G>,
                "a game's Engine::kMaxPlayers must be in [1, dimsum::kMaxPlayers] (common/engine.hpp): raise the "
                "shared cap for a game with more seats");
  GameApi api{};
  api.name = G::kName;
  api.game_id = G::kGameId;
  api.state_version = G::kStateVersion;
  api.config_size = sizeof(C);
  api.state_size = sizeof(S);
  api.config_fields = [](FieldInfo* out) { return config_field_infos<C>(G::config_fields(), out); };
  api.config_from_values = [](const int64_t* v, int n, void* c, char* err, int errlen) {
    return build_config<G>(v, n, *static_cast<C*>(c), err, errlen);
  };
  api.state_fields = [](const void* c, FieldInfo* out) {
    return state_field_infos<C, S>(G::state_fields(), *static_cast<const C*>(c), out);
  };
  api.observation_slices = [](const void* c, FieldInfo* out) {
    return observation_slice_infos<C>(G::observation(), *static_cast<const C*>(c), out);
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
    return is_legal<G>(*static_cast<const C*>(c), *static_cast<const S*>(s), a);
  };
  api.apply = [](const void* c, void* s, int a) { G::apply(*static_cast<const C*>(c), *static_cast<S*>(s), a); };
  api.chance_outcomes = [](const void* c, const void* s, int16_t* out, uint32_t* weights) {
    return G::chance_outcomes(*static_cast<const C*>(c), *static_cast<const S*>(s), out, weights);
  };
  api.reseed = [](void* s, uint64_t seed) { static_cast<S*>(s)->rng = Rng::from_seed(seed); };
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
    return export_state_fields<C, S>(G::state_fields(), *static_cast<const C*>(c), *static_cast<const S*>(s), out);
  };
  api.read_field = [](const void* c, const void* s, int field, int64_t* out) {
    const auto fields = G::state_fields();
    if (field < 0 || static_cast<size_t>(field) >= fields.size()) return 0;
    return read_state_field<C, S>(fields[static_cast<size_t>(field)], *static_cast<const C*>(c),
                                  *static_cast<const S*>(s), out);
  };
  api.import_fields = [](const void* c, const int64_t* v, int n, void* s, char* err, int errlen) {
    const C& config = *static_cast<const C*>(c);
    S& state = *static_cast<S*>(s);
    if (!import_state_fields<C, S>(G::kName, G::state_fields(), config, v, n, state, err, errlen)) return false;
    finish_import<G>(config, state);
    state.hash = G::compute_hash(config, state);
    return G::validate(config, state, err, errlen);
  };
  api.validate = [](const void* c, const void* s, char* err, int errlen) {
    return G::validate(*static_cast<const C*>(c), *static_cast<const S*>(s), err, errlen);
  };
  api.write_bytes = [](const void* s, void* out) { store_little_endian(*static_cast<const S*>(s), out); };
  api.read_bytes = [](const void* in, void* s) { load_little_endian(in, *static_cast<S*>(s)); };
  api.resample = [](const void* c, const void* s, int p, uint64_t seed, void* out) {
    resample<G>(*static_cast<const C*>(c), *static_cast<const S*>(s), p, seed, *static_cast<S*>(out));
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

// The registry of every game compiled into this build (registry.cpp).
const GameApi* find_game(const char* name);  // nullptr if unknown
int num_games();
const GameApi* game_at(int index);  // 0 <= index < num_games(), else nullptr

}  // namespace dimsum
