// The heuristic player of a game: the "heuristic" bot of dimsum.bots, the "heuristic" opponent
// of a learner-seat BatchEnv and the rollout policy of IS-MCTS (rollout="heuristic").
//
// A game brings its own as the optional member G::heuristic_action (common/engine.hpp, "What has
// a default", gives its contract; each game writes it in <game>/heuristic.cpp from the rulebook,
// docs/BOTS.md gives each strategy). A game without one gets the random policy: a uniformly
// random legal action drawn from `rng`, so that every game can be played by every bot.
#pragma once

#include "../common/action_list.hpp"
#include "../common/engine.hpp"
#include "../common/rng.hpp"

namespace dimsum {

// The action G's heuristic plays at the decision node s (current_player >= 0).
template <class G>
int heuristic_move(const typename G::Config& c, const typename G::State& s, Rng& rng) {
  if constexpr (requires { G::heuristic_action(c, s, rng); }) {
    return G::heuristic_action(c, s, rng);
  } else {
    return LegalActions<G>(c, s).pick(rng);
  }
}

}  // namespace dimsum
