// Chance nodes (explicit chance mode) as the bots resolve them: drawn from the state's own
// generator exactly as sampled mode draws the same event inside apply, so that the heuristics'
// lookahead (lookahead.hpp), IS-MCTS (ismcts.hpp) and its rollouts (rollout.hpp) play the same in
// both chance modes (docs/BOTS.md, "Chance modes").
#pragma once

#include <cstdint>

#include "../common/engine.hpp"
#include "../common/rng.hpp"

namespace dimsum::bots {

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

// Plays the chance nodes at s (explicit chance mode) until a decision or the end, each outcome
// drawn by sample_chance from s's own generator, which advances as it draws. Every game lists a
// chance node's outcomes in the order and with the weights (remaining counts) of its sampled draw
// (common/chance.hpp: one bounded integer below the total, then a walk in index order), so this
// consumes the same generator values and reaches the same decision state as sampled mode's apply
// from the same generator: a bot that resolves chance here plays the same in both modes
// (tests/test_bots_chance_modes.py). The one exception, Dim Sum Jam's extra-VIP shuffle, happens
// before the first decision, where no bot acts. A no-op at a decision or terminal state.
// keyed = false: the outcomes are applied unkeyed (common/engine.hpp, "Key upkeep"), for a
// search's simulations, which never read the key.
template <class G, bool keyed = true>
void resolve_chance_as_sampled(const typename G::Config& c, typename G::State& s) {
  while (G::current_player(s) == kChancePlayer) {
    if constexpr (keyed) {
      G::apply(c, s, sample_chance<G>(c, s, s.rng));
    } else {
      apply_unkeyed<G>(c, s, sample_chance<G>(c, s, s.rng));
    }
  }
}

}  // namespace dimsum::bots
