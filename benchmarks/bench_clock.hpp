// The clocks the standalone C++ benchmarks (rollout_floor.cpp, batch_floor.cpp) time with: this
// thread's CPU time beside the wall clock, so that a loaded machine shows in the gap between them.
#pragma once

#include <chrono>
#include <ctime>

namespace bench {

struct Clocks {
  double cpu, wall;
};

inline Clocks now() {
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
#if defined(_WIN32)
  // no thread CPU clock in the C runtime there: std::clock, which Windows' runtime makes wall time
  return {static_cast<double>(std::clock()) / CLOCKS_PER_SEC, wall};
#else
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return {static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9, wall};
#endif
}

}  // namespace bench
