// The rollouts alone: whole uniformly random games played by the loop IS-MCTS's random rollouts
// run (common/engine.hpp random_decisions<G>, what bots/rollout.hpp calls), with no search around
// them. A search's cost per simulated action cannot go below its rollouts' cost
// per decision, so OpenSpiel's per simulated action over this is the most any search over the game
// could reach. Built and run by benchmarks/mcts_per_action.py (`rollout_floor`), with the flags
// setup.py gives the extensions (-O3, C++20) and the game's rules.
//
//     rollout_floor <game> <seed> <games> <config values...>
//
// game: nice_buns or pig; config values: Game.config_values (the flat ints the bindings hand the
// core). The games are dimsum.random_playouts(game, games, seed)'s, played by its own range
// function (batch/playouts.hpp: the rollouts' loop, game i dealt from derive_seed(seed, i)) on this
// thread. Prints one line of JSON: the decisions played, and thread CPU and wall seconds of the
// games (deal, rollout, returns) and of their deals alone (new_state again for the same seeds), so
// that the caller subtracts the deal.
#include "bench_clock.hpp"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <numeric>
#include <vector>

#include "dimsum_core/batch/playouts.hpp"
#include "dimsum_core/common/rng.hpp"
#include "dimsum_core/common/schema.hpp"
#include "dimsum_core/nice_buns/engine.hpp"
#include "dimsum_core/pig/engine.hpp"

namespace {

using bench::Clocks;
using bench::now;

template <class G>
int run(uint64_t seed, int64_t games, const std::vector<int64_t>& values) {
  typename G::Config c{};
  char err[512];
  if (!dimsum::config_from_values(G::kName, G::config_fields(), values.data(), static_cast<int>(values.size()), c,
                                  err, sizeof err) ||
      !G::finish_config(c, err, sizeof err)) {
    std::fprintf(stderr, "%s\n", err);
    return 2;
  }
  // the games: random_playouts' own (its range function, one thread), then their deals again
  const int players = G::config_info(c).players;
  std::vector<double> returns(static_cast<size_t>(games * players));
  std::vector<int64_t> lengths(static_cast<size_t>(games));
  typename G::State s;
  uint64_t sink = 0;  // read after the deals, so that their loop is not optimized away
  const Clocks start = now();
  dimsum::random_playouts_range<G>(c, seed, 0, games, returns.data(), lengths.data());
  const Clocks played = now();
  for (int64_t i = 0; i < games; ++i) {
    G::new_state(c, s, dimsum::derive_seed(seed, static_cast<uint64_t>(i)));
    sink += s.hash;
  }
  const Clocks dealt = now();
  const int64_t decisions = std::accumulate(lengths.begin(), lengths.end(), int64_t{0});
  std::printf("{\"decisions\": %lld, \"games_cpu\": %.9f, \"games_wall\": %.9f, \"deal_cpu\": %.9f, "
              "\"deal_wall\": %.9f, \"sink\": %llu}\n",
              static_cast<long long>(decisions), played.cpu - start.cpu, played.wall - start.wall,
              dealt.cpu - played.cpu, dealt.wall - played.wall, static_cast<unsigned long long>(sink & 1));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: rollout_floor <nice_buns|pig> <seed> <games> <config values...>\n");
    return 2;
  }
  const uint64_t seed = std::strtoull(argv[2], nullptr, 10);
  const int64_t games = std::strtoll(argv[3], nullptr, 10);
  std::vector<int64_t> values;
  for (int i = 4; i < argc; ++i) values.push_back(std::strtoll(argv[i], nullptr, 10));
  if (std::strcmp(argv[1], "nice_buns") == 0) return run<dimsum::nice_buns::Engine>(seed, games, values);
  if (std::strcmp(argv[1], "pig") == 0) return run<dimsum::pig::Engine>(seed, games, values);
  std::fprintf(stderr, "rollout_floor: unknown game '%s' (nice_buns or pig)\n", argv[1]);
  return 2;
}
