// Rollout policies of IS-MCTS: play a determinization to the end of the game, uniformly at
// random or with the game's heuristic (heuristic.hpp). Chance nodes (explicit chance mode) are
// resolved as sampled mode would draw them (chance.hpp), so a rollout never
// stops early and plays the same game in both chance modes.
#pragma once

#include <cstdint>

#include "../common/action_list.hpp"
#include "../common/engine.hpp"
#include "../common/rng.hpp"
#include "chance.hpp"
#include "heuristic.hpp"

namespace dimsum::bots {

enum class Rollout : uint8_t { kRandom = 0, kHeuristic = 1 };

// Plays `s` on to the end (or max_length actions in all); returns the actions played. Every
// action is applied unkeyed (common/engine.hpp, "Key upkeep"): s.hash is stale after. Chance
// outcomes are not counted (sampled mode draws them inside the action), so the count and the
// cap are the same in both chance modes.
template <class G>
int64_t rollout(const typename G::Config& c, typename G::State& s, Rollout policy, int64_t max_length, Rng& rng) {
  int64_t steps = 0;
  for (int p; (p = G::current_player(s)) != kTerminalPlayer && steps < max_length;) {
    if (p == kChancePlayer) {
      resolve_chance_as_sampled<G, /*keyed=*/false>(c, s);
      continue;
    }
    ++steps;
    if (policy == Rollout::kHeuristic) {
      apply_unkeyed<G>(c, s, heuristic_move<G>(c, s, rng));
    } else {
      apply_unkeyed<G>(c, s, LegalActions<G>(c, s).pick(rng));
    }
  }
  return steps;
}

}  // namespace dimsum::bots
