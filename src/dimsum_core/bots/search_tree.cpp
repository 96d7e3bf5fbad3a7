// SearchTree::select: availability counts, expansion and UCB1 (search_tree.hpp).
#include "search_tree.hpp"

#include <cmath>

namespace dimsum::bots {

SearchTree::SearchTree(int num_actions, int64_t expected_nodes) : child_of_(static_cast<size_t>(num_actions), -1) {
  nodes_.reserve(static_cast<size_t>(expected_nodes));
  nodes_.emplace_back();  // the root
}

int32_t SearchTree::select(int32_t node, const int16_t* legal, int n, int mover, double c, int favoured,
                           double bias, Rng& rng, bool* expanded) {
  for (int32_t child = nodes_[static_cast<size_t>(node)].first_child; child >= 0;
       child = nodes_[static_cast<size_t>(child)].next_sibling)
    child_of_[static_cast<size_t>(nodes_[static_cast<size_t>(child)].action)] = child;

  int untried = 0;
  for (int i = 0; i < n; ++i) {
    const int32_t child = child_of_[static_cast<size_t>(legal[i])];
    if (child < 0) {
      ++untried;
    } else {
      ++nodes_[static_cast<size_t>(child)].available;
    }
  }

  int32_t chosen = -1;
  if (untried > 0) {
    int action = -1;
    if (favoured >= 0 && child_of_[static_cast<size_t>(favoured)] < 0) {
      action = favoured;
    } else {
      int k = static_cast<int>(rng.bounded(static_cast<uint64_t>(untried)));
      for (int i = 0; i < n; ++i)
        if (child_of_[static_cast<size_t>(legal[i])] < 0 && k-- == 0) {
          action = legal[i];
          break;
        }
    }
    Node child;
    child.action = action;
    child.mover = mover;
    child.available = 1;
    child.next_sibling = nodes_[static_cast<size_t>(node)].first_child;
    chosen = static_cast<int32_t>(nodes_.size());
    nodes_.push_back(child);
    nodes_[static_cast<size_t>(node)].first_child = chosen;
    *expanded = true;
  } else {
    double best = -1;
    for (int i = 0; i < n; ++i) {
      const int32_t child = child_of_[static_cast<size_t>(legal[i])];
      const Node& ch = nodes_[static_cast<size_t>(child)];
      // visits >= 1: a child is visited when it is made
      double ucb = ch.reward / ch.visits + c * std::sqrt(std::log(static_cast<double>(ch.available)) / ch.visits);
      if (legal[i] == favoured) ucb += bias / (ch.visits + 1.0);
      if (ucb > best) {
        best = ucb;
        chosen = child;
      }
    }
    *expanded = false;
  }

  for (int32_t child = nodes_[static_cast<size_t>(node)].first_child; child >= 0;
       child = nodes_[static_cast<size_t>(child)].next_sibling)
    child_of_[static_cast<size_t>(nodes_[static_cast<size_t>(child)].action)] = -1;
  return chosen;
}

}  // namespace dimsum::bots
