// What IS-MCTS takes from a policy network (policy_net.hpp) when it is guided by one
// (ismcts.hpp, guide = kPolicy): the prior of each legal action at a tree node, the network's
// softmax over the legal actions of the mover, computed from the mover's own observation of
// the determinization (what that seat may see there, nothing else). The search computes it
// once per node (search_tree.hpp, set_priors), not once per visit: a network evaluation costs
// far more than a UCB walk.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "../common/action_list.hpp"
#include "../common/engine.hpp"
#include "policy_net.hpp"

namespace dimsum::bots {

// probs[i] = softmax(logits)[legal[i]] over the legal actions of the player to act in s (a
// decision node), from that player's observation; probs has legal.size entries, each finite and
// in [0, 1] whatever the network (uniform when its logits are not finite).
template <class G>
void policy_priors(const PolicyNet& net, const typename G::Config& c, const typename G::State& s,
                   const LegalActions<G>& legal, std::vector<float>& probs) {
  PolicyScratch& scratch = thread_scratch();  // no allocation per node once grown
  scratch.observation.resize(static_cast<size_t>(net.observation_size));
  G::observe(c, s, G::current_player(s), scratch.observation.data());
  scratch.input.resize(static_cast<size_t>(net.input_size()));
  scratch.input_nonzero.resize(static_cast<size_t>(net.input_size()));
  int count = net.make_input(scratch.observation.data(), legal.items, legal.size, scratch.input.data(),
                             scratch.input_nonzero.data());
  scratch.logits.resize(static_cast<size_t>(net.num_actions));
  const RowActions only{legal.items, &legal.size, 0};  // the legal actions' logits are all we read
  const RowNonzero nonzero{scratch.input_nonzero.data(), &count, 0};
  net.forward_rows(scratch.input.data(), 1, scratch.logits.data(), scratch, &only, &nonzero);
  // softmax with the largest logit subtracted (no overflow), summed in ascending action order
  float top = scratch.logits[static_cast<size_t>(legal[0])];
  for (int a : legal) top = std::max(top, scratch.logits[static_cast<size_t>(a)]);
  std::vector<double>& weight = scratch.weight;
  weight.resize(static_cast<size_t>(legal.size));
  double total = 0;
  for (int i = 0; i < legal.size; ++i) {
    weight[static_cast<size_t>(i)] = std::exp(static_cast<double>(scratch.logits[static_cast<size_t>(legal[i])]) - top);
    total += weight[static_cast<size_t>(i)];
  }
  probs.resize(static_cast<size_t>(legal.size));
  // A network whose logits overflowed (+-inf: exp(inf - inf) is NaN) or are NaN gives no
  // distribution: uniform over the legal actions instead. The loader refuses such networks
  // (policy_file.check_forward); this keeps one that slipped through out of the tree. Finite
  // logits always give a finite total >= 1 (the top's weight is exp(0)), so a sane network's
  // priors are untouched.
  if (!(std::isfinite(total) && total > 0)) {
    std::fill(probs.begin(), probs.end(), 1.0f / static_cast<float>(legal.size));
    return;
  }
  for (int i = 0; i < legal.size; ++i) probs[static_cast<size_t>(i)] = static_cast<float>(weight[static_cast<size_t>(i)] / total);
}

}  // namespace dimsum::bots
