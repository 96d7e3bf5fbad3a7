// The Pig heuristic (docs/rules/pig.md, PIG-8): "hold at 20", the classic simple strategy: roll until
// the turn total reaches 20, or until holding would reach the target, then hold. It never needs
// `rng` (no ties to break).
#include "engine.hpp"

namespace dimsum::pig {

inline constexpr int kHoldAt = 20;

int Engine::heuristic_action(const Config& c, const State& s, Rng&) {
  return s.turn_total >= kHoldAt || !may_roll(c, s) ? kHold : kRoll;
}

}  // namespace dimsum::pig
