// One-ply lookahead, shared by the heuristics of games whose only hidden information is the
// future randomness (Nice Buns, Dim Sum Jam): each legal action is played on copies of the
// state whose generator was replaced from the bot's own `rng` (so the real coming draws never
// reach the choice), and the action whose copies evaluate best for the player to act wins;
// ties go to a uniformly chosen one of the best. In explicit chance mode the chance nodes that
// follow an action are resolved from the copy's generator exactly as sampled mode's apply draws
// (chance.hpp), so the choice is the same in both modes.
#pragma once

#include <cstdint>

#include "../common/action_list.hpp"
#include "../common/rng.hpp"
#include "chance.hpp"

namespace dimsum {

// evaluate(state, player) -> double: how good `state` is for `player` (higher is better).
// samples(legal_count) -> int: copies to average per action (chance inside apply makes one
// copy a noisy estimate; more copies where there are few actions keeps the cost bounded).
template <class G, class Evaluate, class Samples>
int best_by_lookahead(const typename G::Config& c, const typename G::State& s, Rng& rng, Evaluate&& evaluate,
                      Samples&& samples) {
  const int player = G::current_player(s);
  const LegalActions<G> legal(c, s);
  if (legal.size == 1) return legal[0];
  const int copies = samples(legal.size);
  double best = 0;
  int best_action = legal[0], ties = 0;
  for (int i = 0; i < legal.size; ++i) {
    double total = 0;
    for (int k = 0; k < copies; ++k) {
      typename G::State next = s;
      next.rng = Rng::from_seed(rng.next_u64());  // the bot's imagined future, not the real one
      G::apply(c, next, legal[i]);
      bots::resolve_chance_as_sampled<G>(c, next);  // explicit mode: the draws sampled apply makes
      total += evaluate(next, player);
    }
    const double value = total / copies;
    if (i == 0 || value > best) {
      best = value;
      best_action = legal[i];
      ties = 1;
    } else if (value == best && rng.bounded(static_cast<uint64_t>(++ties)) == 0) {
      best_action = legal[i];  // reservoir sampling: each of the tied actions equally likely
    }
  }
  return best_action;
}

}  // namespace dimsum
