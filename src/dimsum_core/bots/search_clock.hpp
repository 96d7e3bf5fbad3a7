// When a timed IS-MCTS tree reads the clock (ismcts.hpp): after its first simulation, then every
// clock_stride(mean seconds a simulation so far) simulations. A read costs tens of nanoseconds;
// a simulation from a fraction of a microsecond (Pig) to hundreds (a Yum Cha heuristic rollout).
// Reading every 8th always, a Yum Cha tree overran a 1 ms budget by up to 7 simulations (1.75 ms);
// reading every time, a Pig tree would spend several per cent of its budget on the clock. So the
// reads are about kSecondsBetweenClockReads of simulations apart: every simulation from 2 us a
// simulation up, every 8th at most.
#pragma once

#include <cstdint>

namespace dimsum::bots {

inline constexpr double kSecondsBetweenClockReads = 2e-6;
inline constexpr int64_t kMaxClockStride = 8;

// Simulations until the next read, in [1, kMaxClockStride]; a mean of 0 or NaN (a clock too
// coarse to tell) gives the most.
inline int64_t clock_stride(double seconds_per_simulation) {
  if (!(seconds_per_simulation > 0)) return kMaxClockStride;
  const double stride = kSecondsBetweenClockReads / seconds_per_simulation;
  if (stride >= static_cast<double>(kMaxClockStride)) return kMaxClockStride;
  return stride < 1 ? 1 : static_cast<int64_t>(stride);
}

}  // namespace dimsum::bots
