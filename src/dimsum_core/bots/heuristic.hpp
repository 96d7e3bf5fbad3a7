// The heuristic players, one per game (<game>/heuristic.cpp), written from the rulebooks
// (docs/BOTS.md gives each strategy). They are the "heuristic" bot of dimsum.bots and the
// rollout policy of IS-MCTS (rollout="heuristic").
//
// Contract of heuristic_action(c, s, rng): s is a decision node (current_player >= 0); the
// result is one of the legal actions of s. It reads only what the player to act may see: its
// own hand, the public part of the position and the rules; where it looks ahead by applying an
// action, it does so on a copy whose future randomness was replaced from `rng` (never the
// state's own generator, which is the real future). `rng` also breaks ties, so a seed fixes
// every choice.
#pragma once

#include "../common/rng.hpp"
#include "../games.hpp"

namespace dimsum {

namespace yum_cha {
int heuristic_action(const Config& c, const State& s, Rng& rng);
}
namespace nice_buns {
int heuristic_action(const Config& c, const State& s, Rng& rng);
}
namespace dim_sum_jam {
int heuristic_action(const Config& c, const State& s, Rng& rng);
}

// The heuristic of game G (found by argument-dependent lookup on G's Config and State).
template <class G>
int heuristic_move(const typename G::Config& c, const typename G::State& s, Rng& rng) {
  return heuristic_action(c, s, rng);
}

}  // namespace dimsum
