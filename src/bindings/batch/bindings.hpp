// What the topic files of dimsum._batch share: each registers its part of the module
// (module.cpp calls them), and a built Game crosses from dimsum._core as its Config's bytes.
#pragma once

#include <pybind11/pybind11.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "dimsum_core/common/thread_pool.hpp"

namespace dimsum::bindings {

namespace py = pybind11;

void register_playouts(py::module_& m);
void register_batch_env(py::module_& m);
void register_bots(py::module_& m);
void register_opponent_env(py::module_& m);  // opponent_env.cpp
void register_policy(py::module_& m);        // policy.cpp

// G's Config from the bytes of one that dimsum._core built and validated (Game.config_bytes();
// native layout, trivially copyable): copied, never parsed again. The sizes and the state
// version must match this build's, or the two extension modules were not built together.
template <class G>
typename G::Config config_from_bytes(std::string_view config, int64_t state_size, int64_t state_version) {
  using Config = typename G::Config;
  if (config.size() != sizeof(Config) || state_size != static_cast<int64_t>(sizeof(typename G::State)) ||
      state_version != G::kStateVersion) {
    throw py::value_error(std::string(G::kName) + ": the config bytes (" + std::to_string(config.size()) +
                          " bytes, state size " + std::to_string(state_size) + ", state version " +
                          std::to_string(state_version) + ") are not from this build of dimsum (" +
                          std::to_string(sizeof(Config)) + ", " + std::to_string(sizeof(typename G::State)) +
                          ", " + std::to_string(G::kStateVersion) + ")");
  }
  Config c;
  std::memcpy(&c, config.data(), sizeof(Config));
  return c;
}

// `who`'s thread pool could not start its worker threads (ThreadPool stopped and joined those
// that had started): a RuntimeError that says so and what to do about it. Thrown as a
// std::runtime_error, which pybind11 raises as RuntimeError (the GIL need not be held).
// `threads`: what the caller asked for, when its pool is not of that size (a watched run's
// pool has a worker per thread; by default, the calling thread is one of `threads`).
[[noreturn]] inline void raise_thread_start_error(const char* who, const ThreadStartError& e, int threads = -1) {
  throw std::runtime_error(std::string(who) + ": the worker threads could not be started (threads=" +
                           std::to_string(threads < 0 ? e.wanted() + 1 : threads) + " starts " +
                           std::to_string(e.wanted()) +
                           " besides the calling thread; " + e.what() +
                           "): the system's limit on threads or memory was reached. Use fewer threads "
                           "(threads=1 starts none). No thread was left running.");
}

// Long native calls (a search, many playouts) run with the GIL released and look for signals
// every kPollEvery from the calling thread, well within the 0.2 s a Ctrl-C may take.
// signalled() takes the GIL and runs Python's signal handlers (PyErr_CheckSignals): true if one
// raised (SIGINT's raises KeyboardInterrupt), its error then set until the call raises it with
// py::error_already_set once the workers have stopped. Outside the main thread it is false.
constexpr std::chrono::milliseconds kPollEvery{20};

inline bool signalled() {
  py::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}

// Thrown by raise_if_signalled() through a ThreadPool's watched run (a plain C++ type: the pool
// rethrows it on the calling thread without the GIL); caught there as py::error_already_set.
struct Interrupted {};

inline void raise_if_signalled() {
  if (signalled()) throw Interrupted{};
}

}  // namespace dimsum::bindings
