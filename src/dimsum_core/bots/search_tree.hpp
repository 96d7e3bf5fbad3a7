// The tree of single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012,
// "SO-ISMCTS"), independent of the game: nodes are action sequences from the root, held in one
// arena (a vector grown as nodes come, indices not pointers). Each node counts its visits, its
// total reward for the player who chose the action leading to it (`mover`) and its
// availability: how many times it was legal when its parent was visited, which replaces the
// parent's visits in UCB because a determinization may not allow every child.
#pragma once

#include <cstdint>
#include <vector>

#include "../common/rng.hpp"

namespace dimsum::bots {

struct Node {
  int32_t first_child = -1, next_sibling = -1;
  int32_t action = -1, mover = -1;
  uint32_t visits = 0, available = 0;
  double reward = 0;  // sum of rewards for `mover`, each in [0, 1]
};

class SearchTree {
 public:
  // num_actions: actions are [0, num_actions); expected_nodes: reserved at once (the vector grows
  // past it; ismcts.hpp reserves at most what the budget can use, capped at 2^16).
  SearchTree(int num_actions, int64_t expected_nodes);

  // At `node`, whose legal actions in this determinization are legal[0..n) (sorted): counts
  // each existing child among them as available once more, then either expands an untried
  // action (`favoured` if it is untried, else a uniformly chosen one: a new child of `mover`,
  // returned with *expanded = true) or returns the child that maximizes UCB1 with availability
  // and progressive bias (Chaslot et al. 2008) towards `favoured` (the heuristic's choice, or
  // -1 for none): mean + c * sqrt(ln(available) / visits) + [favoured] bias / (visits + 1),
  // ties to the lowest action.
  int32_t select(int32_t node, const int16_t* legal, int n, int mover, double c, int favoured, double bias, Rng& rng,
                 bool* expanded);

  // Adds `reward(mover)` to every node of `path` (the root first) and one visit.
  template <class Reward>
  void backpropagate(const int32_t* path, int length, Reward&& reward) {
    for (int i = 0; i < length; ++i) {
      Node& node = nodes_[static_cast<size_t>(path[i])];
      ++node.visits;
      if (node.mover >= 0) node.reward += reward(node.mover);
    }
  }

  const Node& node(int32_t i) const { return nodes_[static_cast<size_t>(i)]; }
  int64_t size() const { return static_cast<int64_t>(nodes_.size()); }

 private:
  std::vector<Node> nodes_;
  std::vector<int32_t> child_of_;  // scratch: action -> child of the node being selected from, or -1
};

}  // namespace dimsum::bots
