// Rollout policies of IS-MCTS: play a determinization to the end of the game, uniformly at
// random or with the game's heuristic (heuristic.hpp). Chance nodes (explicit chance mode) are
// resolved by their weights from the same generator, so a rollout never stops early.
#pragma once

#include <cstdint>

#include "../common/action_list.hpp"
#include "../common/engine.hpp"
#include "../common/rng.hpp"
#include "heuristic.hpp"

namespace dimsum::bots {

enum class Rollout : uint8_t { kRandom = 0, kHeuristic = 1 };

// An outcome of the chance node `s`, drawn by its integer weights.
template <class G>
int sample_chance(const typename G::Config& c, const typename G::State& s, Rng& rng) {
  int16_t outcomes[G::kMaxActions];
  uint32_t weights[G::kMaxActions];
  const int n = G::chance_outcomes(c, s, outcomes, weights);
  uint64_t total = 0;
  for (int i = 0; i < n; ++i) total += weights[i];
  uint64_t r = rng.bounded(total);
  for (int i = 0; i < n; ++i) {
    if (r < weights[i]) return outcomes[i];
    r -= weights[i];
  }
  return outcomes[n - 1];
}

// Plays `s` on to the end (or max_length actions in all); returns the actions played.
template <class G>
int64_t rollout(const typename G::Config& c, typename G::State& s, Rollout policy, int64_t max_length, Rng& rng) {
  int64_t steps = 0;
  for (int p; (p = G::current_player(s)) != kTerminalPlayer && steps < max_length; ++steps) {
    if (p == kChancePlayer) {
      G::apply(c, s, sample_chance<G>(c, s, rng));
    } else if (policy == Rollout::kHeuristic) {
      G::apply(c, s, heuristic_move<G>(c, s, rng));
    } else {
      G::apply(c, s, LegalActions<G>(c, s).pick(rng));
    }
  }
  return steps;
}

}  // namespace dimsum::bots
