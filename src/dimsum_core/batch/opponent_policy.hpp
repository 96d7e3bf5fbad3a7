// The policies that play the other seats of a learner-seat BatchEnv (opponent_env.hpp), by name.
//
// A policy is a plain function `int act(const Config&, const State&, Rng&)`: the action of the
// player to act in `s` (a legal one), drawing any randomness it needs from `rng` only (the env's
// own per-game stream, so a seed replays every game). It must read only what that player may
// see: the learner-seat env hands it the full state, exactly as the per-move API does a bot.
//
// To plug in another policy, write it with that signature and add one line to
// opponent_policies<G>() below; the env, the binding and the Python side find it by name and
// need no change. "heuristic" is the heuristic bot of dimsum.bots (bots/heuristic.hpp), which
// reads only what its player may see.
#pragma once

#include <array>
#include <string_view>

#include "../common/action_list.hpp"
#include "../bots/heuristic.hpp"
#include "../common/rng.hpp"

namespace dimsum {

template <class G>
using OpponentAct = int (*)(const typename G::Config&, const typename G::State&, Rng&);

template <class G>
struct OpponentPolicy {
  std::string_view name;
  OpponentAct<G> act;
};

// Uniformly random among the legal actions: LegalActions<G>::pick, one bounded draw.
template <class G>
int random_opponent(const typename G::Config& c, const typename G::State& s, Rng& rng) {
  return LegalActions<G>(c, s).pick(rng);
}

// Every policy a learner-seat env can be given, by name.
template <class G>
constexpr auto opponent_policies() {
  return std::array{
      OpponentPolicy<G>{"random", &random_opponent<G>},
      OpponentPolicy<G>{"heuristic", &heuristic_move<G>},
  };
}

// The policy named `name`, or null.
template <class G>
OpponentAct<G> find_opponent_policy(std::string_view name) {
  for (const auto& p : opponent_policies<G>()) {
    if (p.name == name) return p.act;
  }
  return nullptr;
}

}  // namespace dimsum
