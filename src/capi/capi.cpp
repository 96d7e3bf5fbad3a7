// The C API (python/dimsum/include/dimsum.h): extern "C" entry points over the same engine as
// dimsum.BatchEnv (dimsum::BatchEnv<G>, or its learner-seat form from opponent_env.hpp), built
// the way the Python binding builds it (src/bindings/batch/batch_env.cpp). Every entry point
// checks its arguments before it changes anything and catches every exception: no C++ exception
// reaches a C caller, and a failed call changes nothing.
#define DIMSUM_BUILDING_LIBRARY 1
#include "dimsum.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dimsum_core/batch/batch_env.hpp"
#include "dimsum_core/batch/opponent_env.hpp"
#include "dimsum_core/common/thread_pool.hpp"
#include "dimsum_core/common/game_api.hpp"
#include "dimsum_core/games.hpp"
#include "game_config.hpp"

// The masks, terminations and truncations are written by the engine as bools into the caller's
// uint8_t arrays: one byte, 0 or 1, on every platform dimsum builds for.
static_assert(sizeof(bool) == 1, "dimsum's C API writes bools into uint8_t arrays");

namespace {

constexpr int32_t kMaxEnvs = 1 << 24;  // as dimsum.BatchEnv
constexpr int32_t kMaxThreads = 1024;

thread_local std::string create_error;  // dimsum_last_error(NULL)

}  // namespace

struct dimsum_env {
  std::unique_ptr<dimsum::BatchEnvBase> engine;
  dimsum_env_info info{};
  std::vector<int> learner_seats;   // env i's learner seat, or empty (every seat acts via step)
  std::vector<int64_t> actions;     // the engine takes int64 actions
  std::vector<int64_t> sampled;
  std::vector<double> rewards;      // [num_envs][players], as the engine writes them
  std::vector<double> final_returns;
  std::vector<int32_t> own_current_players;  // when the caller gives no array for them
  dimsum_buffers out{};
  bool was_reset = false;
  std::string error;

  dimsum_status fail(dimsum_status code, std::string message) {
    error = std::move(message);
    return code;
  }
  const int32_t* current_players() const {
    return out.current_players != nullptr ? out.current_players : own_current_players.data();
  }
  // The step's rewards as floats, into the caller's array: every seat's, or the learner's alone
  // (its return on the step its game ended by the rules, else 0: as dimsum.BatchEnv reports it).
  void write_rewards() {
    const size_t n = static_cast<size_t>(info.num_envs), players = static_cast<size_t>(info.players);
    if (learner_seats.empty()) {
      for (size_t k = 0; k < n * players; ++k) out.rewards[k] = static_cast<float>(rewards[k]);
      return;
    }
    for (size_t i = 0; i < n; ++i)
      out.rewards[i] =
          out.terminations[i] ? static_cast<float>(rewards[i * players + static_cast<size_t>(learner_seats[i])]) : 0.0f;
  }
};

namespace {

// Runs f() (which returns a dimsum_status), turning any exception into a code and a message.
template <class F>
dimsum_status guarded(std::string& error, F&& f) noexcept {
  try {
    return f();
  } catch (const dimsum::ThreadStartError& e) {
    try {
      error = std::string("the worker threads could not be started (") + e.what() + "): use fewer threads";
    } catch (...) {
    }
    return DIMSUM_ERR_OUT_OF_MEMORY;
  } catch (const std::bad_alloc&) {
    try { error = "out of memory"; } catch (...) {}
    return DIMSUM_ERR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    try { error = std::string("internal error: ") + e.what(); } catch (...) {}
    return DIMSUM_ERR_INTERNAL;
  } catch (...) {
    try { error = "internal error: an unknown exception"; } catch (...) {}
    return DIMSUM_ERR_INTERNAL;
  }
}

// A buffer of at least `need` elements, or a message saying which one is not.
bool check_buffer(const void* p, size_t len, size_t need, bool optional, const char* name, std::string& why) {
  if (p == nullptr) {
    if (optional) return true;
    why = std::string("buffers->") + name + " is NULL";
    return false;
  }
  if (len < need) {
    why = std::string("buffers->") + name + "_len is " + std::to_string(len) + "; this env needs at least " +
          std::to_string(need);
    return false;
  }
  return true;
}

dimsum_status create(const char* game, const char* options_json, int32_t num_envs, int32_t learner_seat,
                     const char* opponent, int32_t threads, int32_t max_episode_steps, dimsum_env** out) {
  if (game == nullptr) return create_error = "game is NULL", DIMSUM_ERR_NULL_ARGUMENT;
  if (num_envs < 1 || num_envs > kMaxEnvs)
    return create_error = "num_envs must be in [1, " + std::to_string(kMaxEnvs) + "], got " + std::to_string(num_envs),
           DIMSUM_ERR_BAD_ARGUMENT;
  if (threads < 0 || threads > kMaxThreads)
    return create_error = "threads must be in [0, " + std::to_string(kMaxThreads) + "] (0: one per core), got " +
                          std::to_string(threads),
           DIMSUM_ERR_BAD_ARGUMENT;
  if (max_episode_steps < 0)
    return create_error = "max_episode_steps must be >= 0 (0: the game's own bound), got " +
                          std::to_string(max_episode_steps),
           DIMSUM_ERR_BAD_ARGUMENT;
  if (learner_seat < -1)
    return create_error = "learner_seat must be -1 (every seat acts through step) or a seat, got " +
                          std::to_string(learner_seat),
           DIMSUM_ERR_BAD_ARGUMENT;
  if (learner_seat == -1 && opponent != nullptr)
    return create_error = "opponent plays the seats other than learner_seat: give a learner_seat, or NULL as opponent",
           DIMSUM_ERR_BAD_ARGUMENT;
  if (threads == 0) threads = static_cast<int32_t>(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::min(threads, num_envs);

  auto env = std::make_unique<dimsum_env>();
  dimsum_status status = DIMSUM_OK;
  const bool found = dimsum::dispatch_game(game, [&]<class G>() {
    typename G::Config c;
    std::string err;
    if (!dimsum::capi::config_from_json<G>(options_json, c, err)) {
      create_error = err;
      status = DIMSUM_ERR_BAD_OPTIONS;
      return;
    }
    const int players = G::config_info(c).players;
    if (learner_seat >= players) {
      create_error = "learner_seat must be -1 or a seat in 0.." + std::to_string(players - 1) + ", got " +
                     std::to_string(learner_seat);
      status = DIMSUM_ERR_BAD_ARGUMENT;
      return;
    }
    try {
      if (learner_seat < 0) {
        env->engine = dimsum::make_batch_env<G>(c, num_envs, 0, threads, max_episode_steps);
      } else {
        env->learner_seats.assign(static_cast<size_t>(num_envs), learner_seat);
        env->engine = dimsum::make_opponent_env<G>(c, num_envs, 0, threads, max_episode_steps, env->learner_seats,
                                                   opponent == nullptr ? "random" : opponent);
      }
    } catch (const std::invalid_argument& e) {  // an unknown opponent, named with the known ones
      create_error = e.what();
      status = DIMSUM_ERR_BAD_ARGUMENT;
    }
  });
  if (!found) {
    std::string known;
    for (int i = 0; dimsum::game_at(i) != nullptr; ++i)
      known += (i ? ", " : "") + std::string(dimsum::game_at(i)->name);
    create_error = "game '" + std::string(game) + "' is not compiled into this library; games: " + known;
    return DIMSUM_ERR_UNKNOWN_GAME;
  }
  if (status != DIMSUM_OK) return status;
  const dimsum::ConfigInfo& g = env->engine->info();
  env->info.num_envs = num_envs;
  env->info.players = g.players;
  env->info.observation_size = g.observation_size;
  env->info.num_actions = g.num_actions;
  env->info.reward_size = learner_seat < 0 ? g.players : 1;
  env->info.learner_seat = learner_seat;
  env->info.max_episode_steps = env->engine->max_steps();
  env->info.threads = env->engine->threads();
  const size_t n = static_cast<size_t>(num_envs);
  env->actions.resize(n);
  env->sampled.resize(n);
  env->rewards.resize(n * static_cast<size_t>(g.players));
  env->final_returns.resize(n * static_cast<size_t>(g.players));
  env->own_current_players.resize(n);
  *out = env.release();
  return DIMSUM_OK;
}

dimsum_status reset(dimsum_env* env, uint64_t seed, const dimsum_buffers* b) {
  if (b == nullptr) return env->fail(DIMSUM_ERR_NULL_ARGUMENT, "buffers is NULL");
  const size_t n = static_cast<size_t>(env->info.num_envs);
  std::string why;
  if (!check_buffer(b->observations, b->observations_len, n * static_cast<size_t>(env->info.observation_size), false,
                    "observations", why) ||
      !check_buffer(b->action_masks, b->action_masks_len, n * static_cast<size_t>(env->info.num_actions), false,
                    "action_masks", why) ||
      !check_buffer(b->rewards, b->rewards_len, n * static_cast<size_t>(env->info.reward_size), false, "rewards",
                    why) ||
      !check_buffer(b->terminations, b->terminations_len, n, false, "terminations", why) ||
      !check_buffer(b->truncations, b->truncations_len, n, false, "truncations", why) ||
      !check_buffer(b->current_players, b->current_players_len, n, true, "current_players", why)) {
    return env->fail(b->observations == nullptr || b->action_masks == nullptr || b->rewards == nullptr ||
                             b->terminations == nullptr || b->truncations == nullptr
                         ? DIMSUM_ERR_NULL_ARGUMENT
                         : DIMSUM_ERR_BAD_ARGUMENT,
                     why);
  }
  env->out = *b;
  dimsum::BatchOutputs o;
  o.obs = b->observations;
  o.rewards = env->rewards.data();
  o.terminated = reinterpret_cast<bool*>(b->terminations);
  o.truncated = reinterpret_cast<bool*>(b->truncations);
  o.current_player = const_cast<int32_t*>(env->current_players());
  o.legal_mask = reinterpret_cast<bool*>(b->action_masks);
  o.final_returns = env->final_returns.data();
  env->engine->set_outputs(o);
  env->engine->reset(seed);
  env->was_reset = true;
  env->write_rewards();
  if (const char* why_fault = env->engine->fault()) return env->fail(DIMSUM_ERR_FAULT, why_fault);
  env->error.clear();
  return DIMSUM_OK;
}

dimsum_status step(dimsum_env* env, const int32_t* actions, size_t len) {
  if (actions == nullptr) return env->fail(DIMSUM_ERR_NULL_ARGUMENT, "actions is NULL");
  const size_t n = static_cast<size_t>(env->info.num_envs);
  if (len != n)
    return env->fail(DIMSUM_ERR_BAD_ARGUMENT, "actions_len must be num_envs (" + std::to_string(n) + "), got " +
                                                  std::to_string(len));
  if (!env->was_reset) return env->fail(DIMSUM_ERR_NOT_RESET, "step before the first reset: call dimsum_env_reset");
  if (const char* why = env->engine->fault()) return env->fail(DIMSUM_ERR_FAULT, why);
  for (size_t i = 0; i < n; ++i) env->actions[i] = actions[i];
  const int bad = env->engine->step(env->actions.data());
  if (bad >= 0) {
    const int32_t a = actions[bad];
    const std::string where = "env " + std::to_string(bad) + ": action " + std::to_string(a);
    if (a < 0 || a >= env->info.num_actions)
      return env->fail(DIMSUM_ERR_ILLEGAL_ACTION, where + " is out of range: actions are 0.." +
                                                      std::to_string(env->info.num_actions - 1) + "; no env has moved");
    return env->fail(DIMSUM_ERR_ILLEGAL_ACTION,
                     where + " is not legal for player " + std::to_string(env->current_players()[bad]) +
                         " (its action_masks row says which are); no env has moved");
  }
  env->write_rewards();
  if (const char* why = env->engine->fault()) return env->fail(DIMSUM_ERR_FAULT, why);
  return DIMSUM_OK;
}

dimsum_status sample_actions(dimsum_env* env, uint64_t seed, int32_t* actions, size_t len) {
  if (actions == nullptr) return env->fail(DIMSUM_ERR_NULL_ARGUMENT, "actions is NULL");
  const size_t n = static_cast<size_t>(env->info.num_envs);
  if (len != n)
    return env->fail(DIMSUM_ERR_BAD_ARGUMENT, "actions_len must be num_envs (" + std::to_string(n) + "), got " +
                                                  std::to_string(len));
  if (!env->was_reset) return env->fail(DIMSUM_ERR_NOT_RESET, "sample_actions before the first reset");
  env->engine->sample_actions(seed, env->sampled.data());
  for (size_t i = 0; i < n; ++i) actions[i] = static_cast<int32_t>(env->sampled[i]);  // each < num_actions
  return DIMSUM_OK;
}

}  // namespace

extern "C" {

int32_t dimsum_api_version(void) { return DIMSUM_C_API_VERSION; }

const char* dimsum_game_name(int32_t index) {
  const dimsum::GameApi* api = dimsum::game_at(index);
  return api == nullptr ? nullptr : api->name;
}

dimsum_status dimsum_env_create(const char* game, const char* options_json, int32_t num_envs, int32_t learner_seat,
                                const char* opponent, int32_t threads, int32_t max_episode_steps, dimsum_env** out) {
  if (out == nullptr) {
    try { create_error = "out is NULL"; } catch (...) {}
    return DIMSUM_ERR_NULL_ARGUMENT;
  }
  *out = nullptr;
  const dimsum_status s = guarded(create_error, [&] {
    return create(game, options_json, num_envs, learner_seat, opponent, threads, max_episode_steps, out);
  });
  if (s == DIMSUM_OK) create_error.clear();
  return s;
}

void dimsum_env_destroy(dimsum_env* env) {
  try {
    delete env;
  } catch (...) {  // joining the pool's threads does not throw; nothing may escape regardless
  }
}

dimsum_status dimsum_env_get_info(const dimsum_env* env, dimsum_env_info* out) {
  if (env == nullptr || out == nullptr) return DIMSUM_ERR_NULL_ARGUMENT;
  *out = env->info;
  return DIMSUM_OK;
}

dimsum_status dimsum_env_reset(dimsum_env* env, uint64_t seed, const dimsum_buffers* buffers) {
  if (env == nullptr) return DIMSUM_ERR_NULL_ARGUMENT;
  return guarded(env->error, [&] { return reset(env, seed, buffers); });
}

dimsum_status dimsum_env_step(dimsum_env* env, const int32_t* actions, size_t actions_len) {
  if (env == nullptr) return DIMSUM_ERR_NULL_ARGUMENT;
  return guarded(env->error, [&] { return step(env, actions, actions_len); });
}

dimsum_status dimsum_env_sample_actions(dimsum_env* env, uint64_t seed, int32_t* actions, size_t actions_len) {
  if (env == nullptr) return DIMSUM_ERR_NULL_ARGUMENT;
  return guarded(env->error, [&] { return sample_actions(env, seed, actions, actions_len); });
}

const char* dimsum_last_error(const dimsum_env* env) {
  return env == nullptr ? create_error.c_str() : env->error.c_str();
}

}  // extern "C"
