// Rollout policies of IS-MCTS: play a determinization to the end of the game, uniformly at
// random, with the game's heuristic (heuristic.hpp), or with a policy network (policy_net.hpp):
// every seat's move drawn from softmax(logits) over its legal actions, from that seat's own
// observation of the determinization, with the search's generator (so a seed fixes it). Drawn,
// not greedy: a greedy rollout would replay one line per determinization, its mistakes
// systematic; drawing keeps the rollouts' spread as the random and heuristic ones have. Chance nodes (explicit chance mode) are
// resolved as sampled mode would draw them (chance.hpp), so a rollout never
// stops early and plays the same game in both chance modes.
#pragma once

#include <cstdint>

#include "../common/action_list.hpp"
#include "../common/engine.hpp"
#include "../common/rng.hpp"
#include "chance.hpp"
#include "heuristic.hpp"
#include "policy_net.hpp"

namespace dimsum::bots {

enum class Rollout : uint8_t { kRandom = 0, kHeuristic = 1, kPolicy = 2 };

// Plays `s` on to the end (or max_length actions in all); returns the actions played. Every
// action is applied unkeyed (common/engine.hpp, "Key upkeep"): s.hash is stale after. Chance
// outcomes are not counted (sampled mode draws them inside the action), so the count and the
// cap are the same in both chance modes. `net`: the network of kPolicy (unused otherwise).
template <class G>
int64_t rollout(const typename G::Config& c, typename G::State& s, Rollout policy, int64_t max_length, Rng& rng,
                const PolicyNet* net = nullptr) {
  int64_t steps = 0;
  if (policy == Rollout::kRandom) {  // the decisions in the game's own loop, the chance nodes here
    for (;;) {
      steps += random_decisions<G>(c, s, max_length - steps, rng);
      if (steps >= max_length || G::current_player(s) != kChancePlayer) return steps;
      resolve_chance_as_sampled<G, /*keyed=*/false>(c, s);
    }
  }
  for (int p; (p = G::current_player(s)) != kTerminalPlayer && steps < max_length;) {
    if (p == kChancePlayer) {
      resolve_chance_as_sampled<G, /*keyed=*/false>(c, s);
      continue;
    }
    ++steps;
    if (policy == Rollout::kHeuristic) {
      apply_unkeyed<G>(c, s, heuristic_move<G>(c, s, rng));
    } else {
      apply_unkeyed<G>(c, s, policy_move<G>(*net, c, s, /*greedy=*/false, /*temperature=*/1.0, rng));
    }
  }
  return steps;
}

}  // namespace dimsum::bots
