// Whole random games inside C++: the baseline for throughput figures and a fast way to
// collect statistics. Game i is seeded derive_seed(seed, i) and its random policy
// derive_seed(seed ^ kPolicySalt, i), so results never depend on the thread count.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "../common/engine.hpp"
#include "../common/rng.hpp"
#include "../common/thread_pool.hpp"

namespace dimsum {

inline constexpr uint64_t kPolicySalt = 0x504F4C4943590001ull;  // "POLICY"

// Plays games [first, last) with uniformly random legal actions; writes each game's returns
// (players values a game) and length. A game is cut at max_game_length (never reached by a
// correct engine: tests check it).
template <class G>
void random_playouts_range(const typename G::Config& c, uint64_t seed, int64_t first, int64_t last,
                           double* returns, int64_t* lengths) {
  const int players = G::config_info(c).players;
  const int max_length = G::config_info(c).max_game_length;
  typename G::State s;
  for (int64_t i = first; i < last; ++i) {
    G::new_state(c, s, derive_seed(seed, static_cast<uint64_t>(i)));
    Rng policy = Rng::from_seed(derive_seed(seed ^ kPolicySalt, static_cast<uint64_t>(i)));
    // the rollouts' loop (common/engine.hpp): random_decisions_loop's games, which pick from the
    // legal list with `policy`, bit for bit, through the game's own G::random_decisions where it
    // has one; keyless, as nothing here reads the key. Sampled mode only: no chance node stops it.
    lengths[i] = random_decisions<G>(c, s, max_length, policy);
    G::returns(c, s, returns + i * players);
  }
}

// On a ThreadPool of `threads` (the caller included): games are handed out in small blocks,
// so a core taken by another process slows the run down without stalling it.
template <class G>
void random_playouts(const typename G::Config& c, uint64_t seed, int64_t n_games, int threads,
                     double* returns, int64_t* lengths) {
  threads = std::max(1, std::min<int>(threads, static_cast<int>(std::min<int64_t>(n_games, 1 << 20))));
  ThreadPool pool(threads);
  const int64_t grain = std::max<int64_t>(1, n_games / (16 * threads));
  pool.run(n_games, grain, [&](int64_t first, int64_t last) {
    random_playouts_range<G>(c, seed, first, last, returns, lengths);
  });
}

// The same games, watched: poll() is called every `every` on the calling thread while the games
// run on `threads` worker threads (one thread: between blocks, on the caller); what poll()
// throws stops the run and leaves here once no worker plays any more. Blocks are at most
// kWatchedBlock games (3 ms of Yum Cha, the slowest game at 0.1 ms a random game), which bounds
// the wait after a poll() that throws; a block costs one atomic add, nothing beside a game.
inline constexpr int64_t kWatchedBlock = 32;

template <class G, class Poll>
void random_playouts(const typename G::Config& c, uint64_t seed, int64_t n_games, int threads, double* returns,
                     int64_t* lengths, Poll&& poll, std::chrono::microseconds every) {
  threads = std::max(1, std::min<int>(threads, static_cast<int>(std::min<int64_t>(n_games, 1 << 20))));
  ThreadPool pool(threads == 1 ? 1 : threads + 1);  // the workers play, the caller watches
  // small blocks share the games among workers; one thread needs no sharing, only the polls
  const int64_t grain = threads == 1 ? kWatchedBlock : std::clamp<int64_t>(n_games / (16 * threads), 1, kWatchedBlock);
  pool.run_watched(
      n_games, grain,
      [&](int64_t first, int64_t last) { random_playouts_range<G>(c, seed, first, last, returns, lengths); }, poll,
      every);
}

}  // namespace dimsum
