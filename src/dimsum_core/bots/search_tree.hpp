// The tree of single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012,
// "SO-ISMCTS"), independent of the game: nodes are action sequences from the root, each held as
// an entry in its parent's block of children, in one arena (a vector grown as nodes come, indices
// not pointers). Each node counts its visits, its total reward for the player who chose the
// action leading to it (`mover`) and its availability: how many times it was legal when its
// parent was visited, which replaces the parent's visits in UCB because a determinization may not
// allow every child.
//
// Cost (docs/PERFORMANCE.md, "IS-MCTS per simulated action" and "To 10^6 simulations"): select
// tests a node's children for legality from their actions (2 bytes each, one contiguous block),
// then scores the legal ones from their entries, contiguous too (Child: visits, availability,
// reward, prior and where the child's own children are; 32 bytes, two a cache line). In a tree
// larger than the caches a select so costs about two misses and a few adjacent lines, where a
// node of its own per child (the layout before, 32 bytes with the counts) cost one miss per legal
// child besides; descending reads nothing more than the chosen entry, already loaded. What is
// legal in this determinization is read from a per-action stamp written from the legal list (no
// clearing pass), and ln(availability) from a table grown on demand (one std::log per new count,
// not one per child per visit). Nothing is allocated per simulation (the vectors grow by
// doubling); a block a node outgrew is reused for another node's block of that size. Memory: a
// leaf costs nothing but its entry; blocks of 4, 8, 16, ... entries of 34 bytes (42 in a tree with
// priors) make 83 B a simulation at 10^6 (peak resident growth, benchmarks/ismcts_scaling.py,
// Nice Buns 2p and Yum Cha 4p; 78 and 64 B with a node of its own per child): the price of
// scoring from the blocks.
//
// Guided by a policy (ismcts.hpp, guide = kPolicy; a tree made with `priors`): each node holds
// the policy's probabilities over the actions legal at its first select (set_priors, once per
// node), each child the prior of its action, and select_guided() chooses by PUCT (Silver et al.
// 2017, AlphaZero's rule) instead of UCB: an untried action competes with the tried ones by its
// prior, so a small budget is spent on the few actions the policy likes rather than on trying
// every action once. A node's legal actions may differ between determinizations (an opponent's
// hidden hand): an action not legal at the node's first select has prior 0 there (it can still be
// tried, by its first-play value; the searching player's own nodes, whose legal actions it sees,
// are exact).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "../common/rng.hpp"

namespace dimsum::bots {

// A node's entry in its parent's block of children (SearchTree::children_): everything select
// scores it by (visits, availability, reward, prior) beside its action, so that scoring a node's
// children reads one contiguous block, and where its own children are, so that the descent into
// it reads nothing more than its block of children. An entry is named by its index in children_
// (a "slot"): the search's handle on a node; the root's entry is slot 0 (SearchTree::kRoot). The
// block's actions are also kept apart (SearchTree::child_actions_, the same slots), for the
// legality test.
struct Child {
  double reward = 0;  // sum of rewards for `mover`, each in [0, 1]
  uint32_t visits = 0, available = 0;
  float prior = 0;  // a tree with priors: the policy's probability of `action` at the parent's first select
  // its children: children_[first_child, first_child + child_count), oldest first, in a block of
  // SearchTree::kFirstChildBlock entries, moved to one twice the size each time it fills (so its
  // size follows from the count: SearchTree::block_is_full; the old one is reused for another
  // node's block of its size)
  int32_t first_child = 0, child_count = 0;
  int16_t action = -1, mover = -1;  // (as legal lists: actions below 2^15; players a few)
};
static_assert(sizeof(Child) == 32, "two entries a cache line");

class SearchTree {
 public:
  // The root's slot. A node is named by its slot (Child); a slot stays valid until its parent's
  // next expansion (which may move the parent's block): the search holds one only within a descent.
  static constexpr int32_t kRoot = 0;

  // num_actions: actions are [0, num_actions); expected_nodes: reserved at once (the vectors grow
  // past it; ismcts.hpp reserves at most what the budget can use, capped at 2^16).
  SearchTree(int num_actions, int64_t expected_nodes, bool priors = false);

  // At `node`, whose legal actions in this determinization are legal[0..n) (sorted, distinct):
  // counts each existing child among them as available once more, then either expands an
  // untried action (`favoured` if it is untried, else a uniformly chosen one: a new child of
  // `mover`, returned with *expanded = true) or returns the child that maximizes ucb() below,
  // ties to the lowest action.
  int32_t select(int32_t node, const int16_t* legal, int n, int mover, double c, int favoured, double bias, Rng& rng,
                 bool* expanded);

  // Whether `node` has its priors yet (a tree made with `priors` only).
  bool has_priors(int32_t node) const { return slot_priors_[static_cast<size_t>(node)].count >= 0; }
  // The priors of `node` (before its first select_guided): probs[i] for legal[i], the legal
  // actions (sorted) at its first visit. std::invalid_argument if one is not finite or is negative
  // (policy_priors never gives one).
  void set_priors(int32_t node, const int16_t* legal, int n, const float* probs);

  // The guided select: of the legal actions, tried or not, the one of highest
  //   value + c_puct * prior * sqrt(visits of `node` + 1) / (1 + visits of the action's child),
  // value a child's mean reward, and for an untried action the first-play value: the mean reward
  // of this node's tried legal children for `mover` (0 if none, then the prior alone decides).
  // Ties go to the lowest action. An untried winner is expanded (a new child of `mover`, with
  // *expanded = true). Every tried legal child is counted available once more (PUCT itself reads
  // no availability). `node` has its priors.
  int32_t select_guided(int32_t node, const int16_t* legal, int n, int mover, double c_puct, bool* expanded);

  // The earlier guided rule (guide = "policy_ucb"): select() with the children's priors in place
  // of `favoured`, UCB plus prior * bias / (visits + 1), and an expansion takes the untried action
  // of highest prior (ties: the lowest). Every legal action is tried once before UCB chooses, so
  // it needs a budget of many simulations a node; PUCT (select_guided) spends a small one on what
  // the policy likes. `favoured` >= 0 (guide = "policy_heuristic"): the heuristic's move also gets
  // select()'s bias / (visits + 1) and is expanded first; -1: the prior alone. `node` has its priors.
  int32_t select_guided_ucb(int32_t node, const int16_t* legal, int n, int mover, double c, double bias,
                            int favoured, bool* expanded);

  // UCB1 with availability and progressive bias (Chaslot et al. 2008) towards `favoured` (the
  // heuristic's choice, or -1 for none): mean + c * sqrt(ln(available) / visits) + [favoured]
  // bias / (visits + 1), given ln_available = ln(ch.available). `ch` has been visited (a child is
  // visited when it is made) and is available.
  static double ucb(const Child& ch, double ln_available, double c, int favoured, double bias) {
    double score = ch.reward / ch.visits + c * std::sqrt(ln_available / ch.visits);
    if (ch.action == favoured) score += bias / (ch.visits + 1.0);
    return score;
  }

  // PUCT's score of a tried child (select_guided), given explore = c_puct * sqrt(visits of its
  // parent + 1): mean + explore * prior / (1 + visits).
  static double puct(const Child& ch, double explore) {
    return ch.reward / ch.visits + explore * ch.prior / (ch.visits + 1.0);
  }

  // UCB1 with availability and a policy's prior (select_guided_ucb): mean + c * sqrt(ln(available) /
  // visits) + prior * bias / (visits + 1).
  static double guided_ucb(const Child& ch, double ln_available, double c, double bias) {
    return ch.reward / ch.visits + c * std::sqrt(ln_available / ch.visits) + ch.prior * bias / (ch.visits + 1.0);
  }

  // Adds `reward(mover)` to every node of `path` (slots, the root first) and one visit.
  template <class Reward>
  void backpropagate(const int32_t* path, int length, Reward&& reward) {
    for (int i = 0; i < length; ++i) {
      Child& node = children_[static_cast<size_t>(path[i])];
      ++node.visits;
      if (node.mover >= 0) node.reward += reward(node.mover);
    }
  }

  // The node at slot `node`: its action, mover, visits, availability and reward.
  const Child& child(int32_t node) const { return children_[static_cast<size_t>(node)]; }
  // The children of the node at slot `node`, oldest first, and how many.
  const Child* children(int32_t node) const { return children_.data() + child(node).first_child; }
  int32_t child_count(int32_t node) const { return child(node).child_count; }
  // How many nodes, the root among them.
  int64_t size() const { return nodes_; }

 private:
  // Makes log_ hold std::log(i) for every i <= k, exactly (the same call, so a search gives the
  // same result as without the table).
  void grow_log_table(uint32_t k);
  int32_t expand(int32_t node, const int16_t* legal, int n, int untried, int mover, int favoured, Rng& rng);
  // Stamps legal[0..n) as legal in a new epoch (select's first step).
  void stamp_legal(const int16_t* legal, int n);
  // The children of `node` legal now (stamped) counted available once more and scored by
  // score(child, ln(available)); returns the best's slot (ties: the lowest action), and in *tried
  // how many were legal.
  template <class Score>
  int32_t best_child(int32_t node, Score&& score, int* tried);
  // Makes a new child of `node` for `action` (its prior `prior` in a tree with priors) and returns
  // its slot; std::logic_error, in every build, for an action outside [0, num_actions).
  int32_t add_child(int32_t node, int action, int mover, float prior);
  // A free block of `capacity` entries (kFirstChildBlock << k): one a node left, else a new one at the end.
  int32_t take_block(int32_t capacity);
  // Stamps the actions of `node`'s children as tried in this epoch (expansion's first step).
  void mark_tried(int32_t node);
  // A node's first block of children holds this many (a Nice Buns die's options, a split's four).
  static constexpr int32_t kFirstChildBlock = 4;
  // Whether a node with `count` children has no room for another: none yet, or its block (4, 8,
  // 16, ... entries) is full.
  static constexpr bool block_is_full(int32_t count) {
    return count == 0 || (count >= kFirstChildBlock && (count & (count - 1)) == 0);
  }
  // The size class of a block of `capacity` entries: k for kFirstChildBlock << k.
  static int block_class(int32_t capacity);

  struct PriorRange {
    int32_t begin = 0, count = -1;  // into prior_actions_/prior_probs_; count -1: not set yet
  };

  int64_t nodes_ = 1;                 // how many, the root among them (one entry each)
  std::vector<Child> children_;       // the root's entry (slot 0), then every node's block of children
  // beside it, per slot, the child's action alone (as legal lists, int16): the walk tests every
  // child for legality (in a node reached by many determinizations, most are not legal now) reading
  // 2 bytes a child, and reads the 32-byte entry of the legal ones only
  std::vector<int16_t> child_actions_;
  // per size class, the first of the blocks that nodes left when they outgrew them (-1: none); each
  // free block's first entry holds the next one in its `first_child`
  std::vector<int32_t> free_blocks_;
  std::vector<double> log_;           // log_[k] = std::log(k), k < size (log_[0] unused)
  std::vector<uint32_t> legal_at_;    // per action: the select call (epoch_) that last found it legal
  std::vector<uint32_t> tried_at_;    // per action: the expansion (epoch_) that found it had a child
  uint32_t epoch_ = 0;
  // a tree with priors only: per slot (beside children_, moved with it) its node's priors' range
  bool priors_ = false;
  std::vector<PriorRange> slot_priors_;
  std::vector<int16_t> prior_actions_;
  std::vector<float> prior_probs_;
};

}  // namespace dimsum::bots
