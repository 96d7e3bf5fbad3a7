// SearchTree::select and select_guided: availability counts, expansion and UCB1 (search_tree.hpp).
#include "search_tree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dimsum::bots {

namespace {

// An entry keeps its action in 16 bits, as every legal list does (int16_t): a game with more
// actions could not be searched without wrapping them. Checked before anything is sized by it.
size_t checked_num_actions(int num_actions) {
  if (num_actions < 1 || num_actions > std::numeric_limits<int16_t>::max())
    throw std::invalid_argument("a search tree's actions are [0, num_actions) with num_actions in [1, 32767], got " +
                                std::to_string(num_actions));
  return static_cast<size_t>(num_actions);
}

}  // namespace

SearchTree::SearchTree(int num_actions, int64_t expected_nodes, bool priors)
    : log_(64),
      legal_at_(checked_num_actions(num_actions), 0),
      tried_at_(static_cast<size_t>(num_actions), 0),
      priors_(priors) {
  children_.reserve(static_cast<size_t>(2 * expected_nodes));
  child_actions_.reserve(static_cast<size_t>(2 * expected_nodes));
  children_.emplace_back();  // the root's entry (kRoot): no action, no mover (backpropagate counts its visits only)
  child_actions_.push_back(-1);
  if (priors_) {
    slot_priors_.reserve(static_cast<size_t>(2 * expected_nodes));
    slot_priors_.emplace_back();
  }
  for (size_t k = 1; k < log_.size(); ++k) log_[k] = std::log(static_cast<double>(k));
}

void SearchTree::grow_log_table(uint32_t k) {
  size_t size = log_.size();
  while (size <= k) size *= 2;
  const size_t old = log_.size();
  log_.resize(size);
  for (size_t i = old; i < size; ++i) log_[i] = std::log(static_cast<double>(i));
}

void SearchTree::stamp_legal(const int16_t* legal, int n) {
  if (++epoch_ == 0) {  // the stamps wrapped (after 2^32 selects): none may look current
    std::fill(legal_at_.begin(), legal_at_.end(), 0u);
    std::fill(tried_at_.begin(), tried_at_.end(), 0u);
    epoch_ = 1;
  }
  for (int i = 0; i < n; ++i) legal_at_[static_cast<size_t>(legal[i])] = epoch_;
}

// One walk of the children: each legal one is available once more and scored. The walk is
// newest first (as the linked list of siblings before it: the same sums in the same order), so a
// tie goes to the lower action explicitly, as a scan of the legal list in ascending order keeping
// the first best would.
template <class Score>
int32_t SearchTree::best_child(int32_t node, Score&& score, int* tried) {
  int count = 0;
  int32_t chosen = -1;
  int best_action = 0;
  double best = -std::numeric_limits<double>::infinity();
  // Every child's availability after this walk is at most the node's visits + 1 (one count per
  // select here, and each select but this one was followed by a visit, as every simulation
  // backs up through each node it selected from): the ln table is grown once, here, so that the
  // walk reads it without a check (and without a call in the loop).
  const uint32_t most_available = children_[static_cast<size_t>(node)].visits + 1u;
  if (most_available >= log_.size()) grow_log_table(most_available);
  const double* ln = log_.data();
  const Child& parent = children_[static_cast<size_t>(node)];
  const int16_t* actions = child_actions_.data() + parent.first_child;
  Child* block = children_.data() + parent.first_child;
  for (int32_t i = parent.child_count - 1; i >= 0; --i) {
    if (legal_at_[static_cast<size_t>(actions[i])] == epoch_) {
      Child& ch = block[i];
      ++count;
      ++ch.available;
      const double s = score(ch, ln[ch.available]);
      // the best score, a tie to the lower action; bitwise, and selects below: whether a child
      // beats the best so far is as good as random
      const bool better = (s > best) | ((s == best) & (ch.action < best_action));
      best = better ? s : best;
      best_action = better ? ch.action : best_action;
      chosen = better ? parent.first_child + i : chosen;
    }
  }
  *tried = count;
  return chosen;
}

int32_t SearchTree::select(int32_t node, const int16_t* legal, int n, int mover, double c, int favoured,
                           double bias, Rng& rng, bool* expanded) {
  stamp_legal(legal, n);
  int tried = 0;
  const int32_t chosen = best_child(
      node, [&](const Child& ch, double ln_available) { return ucb(ch, ln_available, c, favoured, bias); }, &tried);
  *expanded = tried < n;
  return *expanded ? expand(node, legal, n, n - tried, mover, favoured, rng) : chosen;
}

void SearchTree::set_priors(int32_t node, const int16_t* legal, int n, const float* probs) {
  // The selects compare prior-weighted scores: a NaN one is never the best, and a node whose every
  // score is NaN would expand no action at all. policy_priors never gives one (uniform instead);
  // the tree checks it here too, in every build, rather than trust its caller.
  for (int i = 0; i < n; ++i) {
    if (!(std::isfinite(probs[i]) && probs[i] >= 0.0f))
      throw std::invalid_argument("a search tree's priors must be finite and >= 0, got " + std::to_string(probs[i]) +
                                  " for action " + std::to_string(legal[i]));
  }
  PriorRange& range = slot_priors_[static_cast<size_t>(node)];
  range.begin = static_cast<int32_t>(prior_actions_.size());
  range.count = n;
  prior_actions_.insert(prior_actions_.end(), legal, legal + n);
  prior_probs_.insert(prior_probs_.end(), probs, probs + n);
}

// PUCT over the node's legal actions, tried or not (search_tree.hpp, select_guided). One walk of
// the children (each legal one available once more, and marked tried), then one of the legal
// list for the untried ones, whose priors are found by merging the two ascending lists.
int32_t SearchTree::select_guided(int32_t node, const int16_t* legal, int n, int mover, double c_puct,
                                  bool* expanded) {
  stamp_legal(legal, n);
  const double explore = c_puct * std::sqrt(static_cast<double>(children_[static_cast<size_t>(node)].visits) + 1.0);
  double best = -std::numeric_limits<double>::infinity(), tried_reward = 0;
  int32_t chosen = -1;
  int best_action = 0;
  uint64_t tried_visits = 0;
  const Child& parent = children_[static_cast<size_t>(node)];
  const int16_t* child_actions = child_actions_.data() + parent.first_child;
  Child* block = children_.data() + parent.first_child;
  for (int32_t i = parent.child_count - 1; i >= 0; --i) {  // newest first: the sums' order
    tried_at_[static_cast<size_t>(child_actions[i])] = epoch_;
    if (legal_at_[static_cast<size_t>(child_actions[i])] == epoch_) {
      Child& ch = block[i];
      ++ch.available;
      tried_reward += ch.reward;
      tried_visits += ch.visits;
      const double s = puct(ch, explore);
      if (s > best || (s == best && ch.action < best_action)) {  // ties: the lowest action
        best = s;
        best_action = ch.action;
        chosen = parent.first_child + i;
      }
    }
  }
  // an untried action's value: what this mover got from the tried ones here (none tried: 0, and
  // the prior alone decides)
  const double first_play = tried_visits ? tried_reward / static_cast<double>(tried_visits) : 0.0;
  const PriorRange range = slot_priors_[static_cast<size_t>(node)];
  const int16_t* actions = prior_actions_.data() + range.begin;
  const float* probs = prior_probs_.data() + range.begin;
  int untried = -1, k = 0;
  float untried_prior = 0;
  for (int i = 0; i < n; ++i) {
    const int a = legal[i];
    while (k < range.count && actions[k] < a) ++k;
    if (tried_at_[static_cast<size_t>(a)] == epoch_) continue;
    const float prior = k < range.count && actions[k] == a ? probs[k] : 0.0f;
    const double s = first_play + explore * prior;
    if (s > best || (s == best && a < best_action)) {
      best = s;
      best_action = a;
      untried = a;
      untried_prior = prior;
      chosen = -1;
    }
  }
  *expanded = chosen < 0;
  return *expanded ? add_child(node, untried, mover, untried_prior) : chosen;
}

// UCB1 with availability plus the prior's progressive bias (search_tree.hpp, select_guided_ucb):
// the earlier guided rule, guide = "policy_ucb", and with `favoured` >= 0 the heuristic's bias
// besides (guide = "policy_heuristic"). Every legal action is tried once before UCB chooses among
// them: `favoured` first if untried, then the untried one of highest prior.
int32_t SearchTree::select_guided_ucb(int32_t node, const int16_t* legal, int n, int mover, double c, double bias,
                                      int favoured, bool* expanded) {
  stamp_legal(legal, n);
  int tried = 0;
  const int32_t chosen = best_child(
      node,
      [&](const Child& ch, double ln_available) {
        const double score = guided_ucb(ch, ln_available, c, bias);
        return ch.action == favoured ? score + bias / (ch.visits + 1.0) : score;
      },
      &tried);
  *expanded = tried < n;
  if (!*expanded) return chosen;
  // `favoured` if untried, else the untried legal action of highest prior: the node's priors and
  // legal[] are both ascending
  mark_tried(node);
  const PriorRange range = slot_priors_[static_cast<size_t>(node)];
  const int16_t* actions = prior_actions_.data() + range.begin;
  const float* probs = prior_probs_.data() + range.begin;
  int action = -1, k = 0;
  float best = -1.0f;
  for (int i = 0; i < n; ++i) {
    const int a = legal[i];
    while (k < range.count && actions[k] < a) ++k;
    const float prior = k < range.count && actions[k] == a ? probs[k] : 0.0f;
    // strict: a tie keeps the lowest
    if (tried_at_[static_cast<size_t>(a)] != epoch_ && (a == favoured || prior > best)) {
      best = prior;
      action = a;
      if (a == favoured) break;
    }
  }
  return add_child(node, action, mover, best);
}

// A new child of `node` for an untried action: `favoured` if untried, else the k-th untried one
// in ascending order, k uniform in [0, untried).
int32_t SearchTree::expand(int32_t node, const int16_t* legal, int n, int untried, int mover, int favoured, Rng& rng) {
  mark_tried(node);
  int action = -1;
  if (favoured >= 0 && tried_at_[static_cast<size_t>(favoured)] != epoch_) {
    action = favoured;
  } else {
    int k = static_cast<int>(rng.bounded(static_cast<uint64_t>(untried)));
    for (int i = 0; i < n; ++i)
      if (tried_at_[static_cast<size_t>(legal[i])] != epoch_ && k-- == 0) {
        action = legal[i];
        break;
      }
  }
  return add_child(node, action, mover, 0.0f);
}

void SearchTree::mark_tried(int32_t node) {
  const Child& parent = children_[static_cast<size_t>(node)];
  const int16_t* actions = child_actions_.data() + parent.first_child;
  for (int32_t i = 0; i < parent.child_count; ++i) tried_at_[static_cast<size_t>(actions[i])] = epoch_;
}

int SearchTree::block_class(int32_t capacity) {
  int k = 0;
  while ((kFirstChildBlock << k) < capacity) ++k;
  return k;
}

int32_t SearchTree::take_block(int32_t capacity) {
  const auto k = static_cast<size_t>(block_class(capacity));
  if (k < free_blocks_.size() && free_blocks_[k] >= 0) {
    const int32_t begin = free_blocks_[k];
    free_blocks_[k] = children_[static_cast<size_t>(begin)].first_child;
    return begin;
  }
  const auto begin = static_cast<int32_t>(children_.size());
  children_.resize(children_.size() + static_cast<size_t>(capacity));
  child_actions_.resize(children_.size());
  if (priors_) slot_priors_.resize(children_.size());
  return begin;
}

int32_t SearchTree::add_child(int32_t node, int action, int mover, float prior) {
  // Every select passes a legal action here; an action outside [0, num_actions) would index
  // legal_at_/tried_at_ out of bounds on the next select. Checked in every build (one compare per
  // expansion): an exception, never a write past the tables.
  if (action < 0 || static_cast<size_t>(action) >= legal_at_.size())
    throw std::logic_error("search tree: no action to expand (got " + std::to_string(action) + ", the actions are [0, " +
                           std::to_string(legal_at_.size()) + "))");
  const auto parent = static_cast<size_t>(node);
  ++nodes_;
  const int32_t count = children_[parent].child_count;
  if (block_is_full(count)) {  // a block twice the size; the old one is left for another node
    const int32_t begin = take_block(count ? 2 * count : kFirstChildBlock);  // (children_ may move)
    const int32_t old = children_[parent].first_child;
    std::copy_n(children_.begin() + old, count, children_.begin() + begin);
    std::copy_n(child_actions_.begin() + old, count, child_actions_.begin() + begin);
    if (priors_) std::copy_n(slot_priors_.begin() + old, count, slot_priors_.begin() + begin);
    if (count) {
      const auto k = static_cast<size_t>(block_class(count));
      if (k >= free_blocks_.size()) free_blocks_.resize(k + 1, -1);
      children_[static_cast<size_t>(old)].first_child = free_blocks_[k];
      free_blocks_[k] = old;
    }
    children_[parent].first_child = begin;
  }
  Child child;
  child.action = static_cast<int16_t>(action);
  child.mover = static_cast<int16_t>(mover);
  child.available = 1;
  child.prior = prior;
  const int32_t slot = children_[parent].first_child + count;
  children_[static_cast<size_t>(slot)] = child;
  child_actions_[static_cast<size_t>(slot)] = static_cast<int16_t>(action);
  if (priors_) slot_priors_[static_cast<size_t>(slot)] = PriorRange{};
  children_[parent].child_count = count + 1;
  return slot;
}

}  // namespace dimsum::bots
