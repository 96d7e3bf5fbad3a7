// Single-observer information-set MCTS with UCT (Cowling, Powley and Whitehouse 2012), over any
// game of games.hpp. Fair by construction: every iteration starts from resample(player, seed) of
// the position, a state drawn from what the acting player has seen (its hidden cards redrawn
// and its generator replaced: engine.hpp, "Chance"), so neither the real hidden cards nor the
// real future draws reach the search. Each iteration: determinize, then select and expand among
// the actions legal in that determinization (search_tree.hpp: availability counts, and with
// bias > 0 progressive bias towards the heuristic's move of each mover, or with guide = kPolicy
// towards a policy network's probabilities: policy_guide.hpp), roll out to
// the end of the game (rollout.hpp), and back up returns() of every mover, scaled to [0, 1].
// Dim Sum Jam is cooperative: each mover's return is the team's, so the team's bots maximize
// the shared result; each action is charged its default tick cost (plain apply).
//
// Root parallel: thread t of `threads` runs its own tree on its share of the simulations from
// seed derive_seed(seed, t); the roots' visits are summed per action. A result depends on the
// seed, the simulations and the thread count only (a time budget makes it depend on the clock).
//
// A search can be watched (the overload with `poll`): poll() is called on the calling thread at
// a fixed interval (between simulations with one thread; with more, the trees grow on worker
// threads meanwhile), and its returning true stops every tree within a simulation (the Python
// binding polls for Ctrl-C so). A tree that throws (std::bad_alloc) stops the others the same
// way, and the exception leaves ismcts_search once every tree has stopped.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../common/thread_pool.hpp"
#include "../common/action_list.hpp"
#include "../common/engine.hpp"
#include "../common/rng.hpp"
#include "policy_guide.hpp"
#include "policy_net.hpp"
#include "rollout.hpp"
#include "search_clock.hpp"
#include "search_tree.hpp"

namespace dimsum::bots {

// The ranges check_search_params() allows (python/dimsum/bots/ismcts.py declares the same).
// Simulations: node indices are int32 and visit counts uint32, and a tree holds at most one
// node a simulation, so 10^9 (also the most a timed tree runs). Seconds: from 0.1 ms (a clock
// read costs tens of nanoseconds, a simulation from under a microsecond to tens: a budget below
// a millisecond is a few dozen Dim Sum Jam simulations, where a policy's priors matter most) to an hour.
inline constexpr int64_t kMaxSimulations = 1'000'000'000;
inline constexpr double kMinSeconds = 1e-4, kMaxSeconds = 3600;
inline constexpr int kMaxThreads = 256;
inline constexpr double kMaxC = 1000, kMaxBias = 1000;

// What guides the tree: the heuristic's one move (progressive bias), or a policy network's
// priors over every action, by PUCT (kPolicy, search_tree.hpp select_guided) or by UCB plus the
// prior's progressive bias (kPolicyUcb, select_guided_ucb: stronger with many simulations a node),
// or by that plus the heuristic's bias (kPolicyHeuristic: both guides at once).
enum class Guide : uint8_t { kHeuristic = 0, kPolicy = 1, kPolicyUcb = 2, kPolicyHeuristic = 3 };

struct SearchParams {
  int64_t simulations = 1000;  // per search, over all threads (ignored when seconds > 0)
  double seconds = 0;          // > 0: a time budget per thread instead of a count (at least one simulation)
  double c = 0.3;              // UCB exploration constant (rewards are in [0, 1])
  double bias = 5;             // > 0: progressive bias towards the guide's choice at every tree node
  Rollout rollout = Rollout::kHeuristic;  // (the defaults are dimsum.bots.IsmctsBot's)
  Guide guide = Guide::kHeuristic;
  const PolicyNet* net = nullptr;  // the network of Rollout::kPolicy and Guide::kPolicy (the caller's, shared read-only)
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
  int64_t tree_steps = 0;        // actions played descending the trees, all threads (the simulated
                                 // actions are tree_steps + rollout_steps; chance outcomes are not actions)
  std::vector<RootStat> root;
};

// std::invalid_argument saying what is allowed unless every parameter is in its range.
inline void check_search_params(const SearchParams& p) {
  auto in = [](double v, double lo, double hi) { return v >= lo && v <= hi; };  // false for NaN
  if (!(p.seconds == 0 || in(p.seconds, kMinSeconds, kMaxSeconds)))
    throw std::invalid_argument("ismcts seconds must be 0 (no time budget) or in [0.0001, 3600], got " +
                                std::to_string(p.seconds));
  if (p.seconds == 0 && !(p.simulations >= 1 && p.simulations <= kMaxSimulations))
    throw std::invalid_argument("ismcts simulations must be in [1, 1000000000], got " + std::to_string(p.simulations));
  if (!(p.threads >= 1 && p.threads <= kMaxThreads))
    throw std::invalid_argument("ismcts threads must be in [1, 256], got " + std::to_string(p.threads));
  if (!in(p.c, 0, kMaxC)) throw std::invalid_argument("ismcts c must be in [0, 1000], got " + std::to_string(p.c));
  if (!in(p.bias, 0, kMaxBias))
    throw std::invalid_argument("ismcts bias must be in [0, 1000], got " + std::to_string(p.bias));
  if ((p.rollout == Rollout::kPolicy || p.guide != Guide::kHeuristic) && p.net == nullptr)
    throw std::invalid_argument("ismcts rollout='policy' or guide='policy' needs a policy network (weights=)");
  if (!(std::isfinite(p.min_return) && std::isfinite(p.max_return)))
    throw std::invalid_argument("ismcts min_return and max_return must be finite");
}

namespace detail {

// Nodes reserved up front: what the budget can use, at most 2^16 (room for 2^17 child entries of
// 34 bytes, 4.3 MiB, reserved not touched: SearchTree); the tree grows past it.
inline int64_t nodes_to_reserve(int64_t simulations, bool timed) {
  return timed ? int64_t{1} << 16 : std::min<int64_t>(simulations + 1, int64_t{1} << 16);
}

// One thread's tree: `simulations` iterations (or until `deadline`, at least one), from seeds
// of `rng`, until `stop` is set; after_simulation() is called after each.
template <class G, class AfterSimulation>
void search_one_tree(const typename G::Config& c, const typename G::State& root, int player, const SearchParams& p,
                     int64_t simulations, std::chrono::steady_clock::time_point deadline, uint64_t seed,
                     const std::atomic<bool>& stop, AfterSimulation&& after_simulation, std::vector<RootStat>& stats,
                     int64_t& done, int64_t& steps, int64_t& descended) {
  using State = typename G::State;
  const ConfigInfo info = G::config_info(c);
  const bool timed = p.seconds > 0;
  if (timed) simulations = kMaxSimulations;
  const bool guided = p.guide != Guide::kHeuristic;
  SearchTree tree(info.num_actions, nodes_to_reserve(simulations, timed), guided);
  std::vector<float> priors;  // a node's priors, computed once per node (guided only)
  Rng rng = Rng::from_seed(seed);
  const double scale = p.max_return > p.min_return ? 1.0 / (p.max_return - p.min_return) : 1.0;
  // the descent's nodes (slots: SearchTree::child), the root first: grown (doubled) only when a
  // descent outgrows it
  std::vector<int32_t> path(256);
  path[0] = SearchTree::kRoot;
  double returns[G::kMaxPlayers];
  State s;
  int64_t i = 0;
  // the clock is read after the first simulation, then every clock_stride() (search_clock.hpp):
  // a budget runs at least one
  const auto started = std::chrono::steady_clock::now();
  int64_t next_read = 1;
  for (; i < simulations && !stop.load(std::memory_order_relaxed); ++i) {
    if (timed && i == next_read) {
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) break;
      next_read = i + clock_stride(std::chrono::duration<double>(now - started).count() / static_cast<double>(i));
    }
    resample<G>(c, root, player, rng.next_u64(), s);  // a determinization: hidden part and future redrawn
    // nothing in a simulation reads the state's key: every action is applied unkeyed (engine.hpp)
    int32_t node = SearchTree::kRoot;
    int length = 0;  // path[0..length] is the descent, the root first
    for (int mover; (mover = G::current_player(s)) != kTerminalPlayer && length < info.max_game_length;) {
      if (mover == kChancePlayer) {  // explicit chance: not a tree node; drawn as sampled mode would
        resolve_chance_as_sampled<G, /*keyed=*/false>(c, s);
        continue;
      }
      const LegalActions<G> legal(c, s);
      bool expanded;
      if (guided) {
        if (!tree.has_priors(node)) {  // the mover's view of s only
          policy_priors<G>(*p.net, c, s, legal, priors);
          tree.set_priors(node, legal.items, legal.size, priors.data());
        }
        if (p.guide == Guide::kPolicy) {
          node = tree.select_guided(node, legal.items, legal.size, mover, p.bias, &expanded);  // PUCT, c_puct = bias
        } else {  // the heuristic's move too (the mover's view of s only), drawn only when used
          const int favoured = p.guide == Guide::kPolicyHeuristic ? heuristic_move<G>(c, s, rng) : -1;
          node = tree.select_guided_ucb(node, legal.items, legal.size, mover, p.c, p.bias, favoured, &expanded);
        }
      } else {
        const int favoured = p.bias > 0 ? heuristic_move<G>(c, s, rng) : -1;  // the mover's view of s only
        node = tree.select(node, legal.items, legal.size, mover, p.c, favoured, p.bias, rng, &expanded);
      }
      if (++length == static_cast<int>(path.size())) path.resize(path.size() * 2);
      path[static_cast<size_t>(length)] = node;
      apply_unkeyed<G>(c, s, tree.child(node).action);
      if (expanded) break;
    }
    descended += length;
    steps += rollout<G>(c, s, p.rollout, info.max_game_length - length, rng, p.net);
    G::returns(c, s, returns);
    tree.backpropagate(path.data(), length + 1, [&](int mover) { return (returns[mover] - p.min_return) * scale; });
    after_simulation();
  }
  done += i;
  for (int32_t k = 0; k < tree.child_count(SearchTree::kRoot); ++k) {  // search() sums them per action: any order
    const Child& ch = tree.children(SearchTree::kRoot)[k];
    stats.push_back({ch.action, ch.visits, ch.visits ? ch.reward / ch.visits : 0.0});
  }
}

// The search of both ismcts_search: `run(pool, stop, job)` runs the trees' job on a pool of
// threads + watchers threads; setting `stop` stops every tree within a simulation. Each tree
// calls after_simulation(stop) after each simulation.
template <class G, class Run, class AfterSimulation>
SearchResult search(const typename G::Config& c, const typename G::State& root, const SearchParams& p, int watchers,
                    Run&& run, AfterSimulation&& after_simulation) {
  check_search_params(p);
  const int player = G::current_player(root);
  const int threads = p.threads;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(p.seconds));
  std::vector<std::vector<RootStat>> stats(static_cast<size_t>(threads));
  std::vector<int64_t> done(static_cast<size_t>(threads), 0), steps(static_cast<size_t>(threads), 0),
      descended(static_cast<size_t>(threads), 0);
  std::atomic<bool> stop{false};
  ThreadPool pool(threads + watchers);
  run(pool, stop, [&](int64_t first, int64_t last) {
    for (int64_t t = first; t < last; ++t) {
      // thread t's share of the simulations: the first (simulations % threads) get one more
      const int64_t share = p.simulations / threads + (t < p.simulations % threads ? 1 : 0);
      try {
        search_one_tree<G>(c, root, player, p, share, deadline, derive_seed(p.seed, static_cast<uint64_t>(t)), stop,
                           [&] { after_simulation(stop); }, stats[static_cast<size_t>(t)], done[static_cast<size_t>(t)],
                           steps[static_cast<size_t>(t)], descended[static_cast<size_t>(t)]);
      } catch (...) {
        stop.store(true, std::memory_order_relaxed);  // the other trees stop too; the pool rethrows
        throw;
      }
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
    result.tree_steps += descended[static_cast<size_t>(t)];
  }
  return result;
}

}  // namespace detail

// Searches the decision node `root` (current_player >= 0) for its player, on `threads` threads
// (the caller's among them). std::invalid_argument if a parameter is out of its range.
template <class G>
SearchResult ismcts_search(const typename G::Config& c, const typename G::State& root, const SearchParams& p) {
  return detail::search<G>(
      c, root, p, 0, [&](ThreadPool& pool, std::atomic<bool>&, auto&& job) { pool.run(p.threads, 1, job); },
      [](std::atomic<bool>&) {});
}

// The same search watched: poll() is called every `every` on the calling thread; once it
// returns true the trees stop within a simulation and the result is of the simulations run so
// far (*stopped tells). What poll() or a tree throws is rethrown once every tree has stopped.
// With threads > 1 the trees grow on `threads` worker threads while the caller polls
// (ThreadPool::run_watched); with one, the caller grows it and polls between simulations (no
// thread to start: a small search costs what it did).
template <class G, class Poll>
SearchResult ismcts_search(const typename G::Config& c, const typename G::State& root, const SearchParams& p,
                           Poll&& poll, std::chrono::microseconds every, bool* stopped) {
  *stopped = false;
  auto watch = [&](std::atomic<bool>& stop) {
    if (*stopped) return;
    try {
      *stopped = poll();
    } catch (...) {
      *stopped = true;
      stop.store(true, std::memory_order_relaxed);
      throw;  // rethrown once the trees have stopped
    }
    if (*stopped) stop.store(true, std::memory_order_relaxed);
  };
  if (p.threads > 1) {
    return detail::search<G>(
        c, root, p, 1,
        [&](ThreadPool& pool, std::atomic<bool>& stop, auto&& job) {
          pool.run_watched(p.threads, 1, job, [&] { watch(stop); }, every);
        },
        [](std::atomic<bool>&) {});
  }
  // one tree, on this thread: the clock is read every 4th simulation (a few ns against a
  // simulation's microseconds), poll() called once `every` has passed
  auto next_poll = std::chrono::steady_clock::now() + every;
  int64_t since_clock = 0;
  return detail::search<G>(
      c, root, p, 0, [&](ThreadPool& pool, std::atomic<bool>&, auto&& job) { pool.run(1, 1, job); },
      [&](std::atomic<bool>& stop) {
        if (++since_clock < 4) return;
        since_clock = 0;
        const auto now = std::chrono::steady_clock::now();
        if (now < next_poll) return;
        next_poll = now + every;
        watch(stop);
      });
}

}  // namespace dimsum::bots
