// The deterministic tick clock: Dim Sum Jam's hourglass as plain integers. The twin of
// python/dimsum/reference/tick_clock.py (same operations, same results, same refusals).
//
// `top` ticks still to run out of `capacity`, and whether the glass lies on its side (frozen).
// Nothing reads a wall clock: time passes only when the owner calls run(ticks). Where the
// Python class raises ValueError (flipping a lying glass, ...) these return false and leave
// the glass unchanged. Twelve bytes, no padding, trivially copyable: it lives inside states.
#pragma once

#include <cstdint>
#include <type_traits>

#include "byte_order.hpp"

namespace dimsum {

inline constexpr int32_t kMaxClockCapacity = 1'000'000;  // reference.tick_clock.MAX_CAPACITY

struct TickClock {
  int32_t capacity;
  int32_t top;
  uint8_t lying;
  uint8_t reserved_[3];  // always zero: equal clocks have equal bytes

  static constexpr TickClock full(int32_t capacity) { return TickClock{capacity, capacity, 0, {0, 0, 0}}; }

  constexpr int32_t bottom() const { return capacity - top; }
  // A standing glass with an empty top bulb: the moment of a time-out.
  constexpr bool ran_out() const { return top == 0 && !lying; }

  // Lets `ticks` (>= 0) pass; returns the ticks the sand actually ran (0 if lying or empty).
  constexpr int64_t run(int64_t ticks) {
    if (lying || ticks <= 0) return 0;
    const int32_t used = ticks < top ? static_cast<int32_t>(ticks) : top;
    top -= used;
    return used;
  }
  // The physical flip (DSJ-1): the bottom becomes the top.
  constexpr bool flip() {
    if (lying) return false;
    top = capacity - top;
    return true;
  }
  // A flip that always gives the full glass (the non-physical alternative of DSJ-1).
  constexpr bool refill() {
    if (lying) return false;
    top = capacity;
    return true;
  }
  constexpr bool lay_down() {
    if (lying) return false;
    lying = 1;
    return true;
  }
  // DSJ-3: turned=false puts the same bulb back on top, turned=true the other one.
  constexpr bool stand(bool turned) {
    if (!lying) return false;
    lying = 0;
    if (turned) top = capacity - top;
    return true;
  }
  // The invariants a clock read from outside must meet.
  constexpr bool valid() const {
    return capacity >= 1 && capacity <= kMaxClockCapacity && top >= 0 && top <= capacity && lying <= 1 &&
           reserved_[0] == 0 && reserved_[1] == 0 && reserved_[2] == 0;
  }

  friend constexpr bool operator==(const TickClock& a, const TickClock& b) {
    return a.capacity == b.capacity && a.top == b.top && a.lying == b.lying;
  }
};
static_assert(std::is_trivially_copyable_v<TickClock> && sizeof(TickClock) == 12);
static_assert(std::has_unique_object_representations_v<TickClock>, "TickClock must have no padding bytes");
template <>
struct ByteLayout<TickClock>
    : Members<&TickClock::capacity, &TickClock::top, &TickClock::lying, &TickClock::reserved_> {};

}  // namespace dimsum
