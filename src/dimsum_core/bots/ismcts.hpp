// Single-observer information-set MCTS with UCT (Cowling, Powley and Whitehouse 2012), over any
// game of games.hpp. Fair by construction: every iteration starts from resample(player, seed) of
// the position, a state drawn from what the acting player has seen (its hidden cards redrawn
// and its generator replaced: engine.hpp, "Chance"), so neither the real hidden cards nor the
// real future draws reach the search. Each iteration: determinize, then select and expand among
// the actions legal in that determinization (search_tree.hpp: availability counts, and with
// bias > 0 progressive bias towards the heuristic's move of each mover), roll out to
// the end of the game (rollout.hpp), and back up returns() of every mover, scaled to [0, 1].
// Dim Sum Jam is cooperative: each mover's return is the team's, so the team's bots maximize
// the shared result; each action is charged its default tick cost (plain apply).
//
// Root parallel: thread t of `threads` runs its own tree on its share of the simulations from
// seed derive_seed(seed, t); the roots' visits are summed per action. A result depends on the
// seed, the simulations and the thread count only (a time budget makes it depend on the clock).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "../batch/thread_pool.hpp"
#include "../common/action_list.hpp"
#include "../common/engine.hpp"
#include "../common/rng.hpp"
#include "rollout.hpp"
#include "search_tree.hpp"

namespace dimsum::bots {

struct SearchParams {
  int64_t simulations = 1000;  // per search, over all threads (ignored when seconds > 0)
  double seconds = 0;          // > 0: a time budget per thread instead of a count
  double c = 0.3;              // UCB exploration constant (rewards are in [0, 1])
  double bias = 5;             // > 0: progressive bias towards the heuristic's move at every tree node
  Rollout rollout = Rollout::kHeuristic;  // (the defaults are dimsum.bots.IsmctsBot's)
  int threads = 1;
  uint64_t seed = 0;
  double min_return = 0, max_return = 1;  // rewards are scaled to [0, 1] with these
};

// Per root action (the acting player's legal actions, ascending): visits summed over the
// threads and the mean reward of those visits.
struct RootStat {
  int action;
  int64_t visits;
  double mean;
};

struct SearchResult {
  int action = -1;               // the most visited root action (ties: the lowest)
  int64_t simulations = 0;       // iterations run, all threads
  int64_t rollout_steps = 0;     // actions played in rollouts, all threads
  std::vector<RootStat> root;
};

namespace detail {

// One thread's tree: `simulations` iterations (or until `deadline`), from seeds of `rng`.
template <class G>
void search_one_tree(const typename G::Config& c, const typename G::State& root, int player, const SearchParams& p,
                     int64_t simulations, std::chrono::steady_clock::time_point deadline, uint64_t seed,
                     std::vector<RootStat>& stats, int64_t& done, int64_t& steps) {
  using State = typename G::State;
  const ConfigInfo info = G::config_info(c);
  const bool timed = p.seconds > 0;
  SearchTree tree(info.num_actions, timed ? 1 << 16 : simulations + 1);
  Rng rng = Rng::from_seed(seed);
  const double scale = p.max_return > p.min_return ? 1.0 / (p.max_return - p.min_return) : 1.0;
  std::vector<int32_t> path;
  path.reserve(256);
  double returns[G::kMaxPlayers];
  int64_t i = 0;
  for (; timed || i < simulations; ++i) {
    if (timed && (i & 7) == 0 && std::chrono::steady_clock::now() >= deadline) break;
    State s;
    resample<G>(c, root, player, rng.next_u64(), s);  // a determinization: hidden part and future redrawn
    path.clear();
    path.push_back(0);
    int32_t node = 0;
    int64_t length = 0;
    for (int mover; (mover = G::current_player(s)) != kTerminalPlayer && length < info.max_game_length;) {
      if (mover == kChancePlayer) {  // explicit chance: not a tree node; drawn as sampled mode would
        resolve_chance_as_sampled<G>(c, s);
        continue;
      }
      ++length;
      const LegalActions<G> legal(c, s);
      const int favoured = p.bias > 0 ? heuristic_move<G>(c, s, rng) : -1;  // the mover's view of s only
      bool expanded;
      node = tree.select(node, legal.items, legal.size, mover, p.c, favoured, p.bias, rng, &expanded);
      path.push_back(node);
      G::apply(c, s, tree.node(node).action);
      if (expanded) break;
    }
    steps += rollout<G>(c, s, p.rollout, info.max_game_length - length, rng);
    G::returns(c, s, returns);
    tree.backpropagate(path.data(), static_cast<int>(path.size()),
                       [&](int mover) { return (returns[mover] - p.min_return) * scale; });
  }
  done += i;
  for (int32_t child = tree.node(0).first_child; child >= 0; child = tree.node(child).next_sibling) {
    const Node& ch = tree.node(child);
    stats.push_back({ch.action, ch.visits, ch.visits ? ch.reward / ch.visits : 0.0});
  }
}

}  // namespace detail

// Searches the decision node `root` (current_player >= 0) for its player.
template <class G>
SearchResult ismcts_search(const typename G::Config& c, const typename G::State& root, const SearchParams& p) {
  const int player = G::current_player(root);
  const int threads = std::max(1, p.threads);
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(std::max(0.0, p.seconds)));
  std::vector<std::vector<RootStat>> stats(static_cast<size_t>(threads));
  std::vector<int64_t> done(static_cast<size_t>(threads), 0), steps(static_cast<size_t>(threads), 0);
  ThreadPool pool(threads);
  pool.run(threads, 1, [&](int64_t first, int64_t last) {
    for (int64_t t = first; t < last; ++t) {
      // thread t's share of the simulations: the first (simulations % threads) get one more
      const int64_t share = p.simulations / threads + (t < p.simulations % threads ? 1 : 0);
      detail::search_one_tree<G>(c, root, player, p, share, deadline, derive_seed(p.seed, static_cast<uint64_t>(t)),
                                 stats[static_cast<size_t>(t)], done[static_cast<size_t>(t)],
                                 steps[static_cast<size_t>(t)]);
    }
  });

  SearchResult result;
  const LegalActions<G> legal(c, root);
  int64_t best_visits = -1;
  for (int i = 0; i < legal.size; ++i) {
    RootStat total{legal[i], 0, 0.0};
    double reward = 0;
    for (const auto& thread_stats : stats)
      for (const RootStat& s : thread_stats)
        if (s.action == legal[i]) {
          total.visits += s.visits;
          reward += s.mean * static_cast<double>(s.visits);
        }
    total.mean = total.visits ? reward / static_cast<double>(total.visits) : 0.0;
    result.root.push_back(total);
    if (total.visits > best_visits) {  // ascending actions: a tie keeps the lowest
      best_visits = total.visits;
      result.action = legal[i];
    }
  }
  for (int t = 0; t < threads; ++t) {
    result.simulations += done[static_cast<size_t>(t)];
    result.rollout_steps += steps[static_cast<size_t>(t)];
  }
  return result;
}

}  // namespace dimsum::bots
