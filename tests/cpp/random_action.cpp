// Test-only check of the engine contract's G::random_action (src/dimsum_core/common/engine.hpp):
// for every game, whether it declares the member (Nice Buns) or takes the default, the action
// random_action<G> draws equals LegalActions<G>(c, s).pick on a copy of the same generator, and
// both generators end in the same state (one rng.bounded(n), n the legal list's length), at every
// decision of random games. Built from the games' sources and driven by tests/test_random_action.py.
//
// Reads one configuration a line from stdin: GAME SEED N VALUE... (dimsum.make(...).config_values),
// and prints one line of JSON for each:
//   {"decisions": D, "playouts": P, "lengths": [L...], "mismatch": null | "what differed first"}
// D decisions and P random_decisions checked over kGames random games (chance nodes of the explicit mode drawn uniformly),
// and the distinct lengths of the legal lists met, so that the test can tell the lists were varied.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dimsum_core/common/action_list.hpp"
#include "dimsum_core/common/engine.hpp"
#include "dimsum_core/common/game_api.hpp"
#include "dimsum_core/common/rng.hpp"
#include "dimsum_core/games.hpp"

namespace {

constexpr int kGames = 30;
constexpr int kMaxSteps = 3000;

template <class G>
std::string run(const typename G::Config& c, uint64_t seed) {
  dimsum::Rng walk = dimsum::Rng::from_seed(seed);  // the games' own moves and outcomes
  std::vector<int16_t> outcomes(static_cast<size_t>(G::kMaxActions));
  std::vector<uint32_t> weights(outcomes.size());
  long decisions = 0, playouts = 0;
  std::set<int> lengths;
  std::string mismatch;
  for (int game = 0; game < kGames && mismatch.empty(); ++game) {
    typename G::State s;
    G::new_state(c, s, dimsum::derive_seed(seed, static_cast<uint64_t>(game)));
    for (int step = 0; step < kMaxSteps; ++step) {
      const int p = G::current_player(s);
      if (p == dimsum::kTerminalPlayer) break;
      if (p == dimsum::kChancePlayer) {
        const int n = G::chance_outcomes(c, s, outcomes.data(), weights.data());
        G::apply(c, s, outcomes[walk.bounded(static_cast<uint64_t>(n))]);
        continue;
      }
      dimsum::Rng mine = dimsum::Rng::from_seed(walk.next_u64()), listed = mine;
      const int drawn = dimsum::random_action<G>(c, s, mine);
      const dimsum::LegalActions<G> legal(c, s);
      const int picked = legal.pick(listed);
      ++decisions;
      lengths.insert(legal.size);
      if (drawn != picked || std::memcmp(mine.s, listed.s, sizeof mine.s) != 0) {
        std::ostringstream what;
        what << "game " << game << " step " << step << ": random_action " << drawn << ", the list's pick " << picked
             << " of " << legal.size << (drawn == picked ? " (the generators differ after)" : "");
        mismatch = what.str();
        break;
      }
      if (step % 7 == 0) {  // random_decisions<G> (the game's own where it declares one) is the loop
        typename G::State ours = s, loop = s;
        dimsum::Rng ours_rng = dimsum::Rng::from_seed(walk.next_u64()), loop_rng = ours_rng;
        const int64_t most = static_cast<int64_t>(walk.bounded(60));
        const int64_t played = dimsum::random_decisions<G>(c, ours, most, ours_rng);
        const int64_t looped = dimsum::random_decisions_loop<G>(c, loop, most, loop_rng);
        if (played != looped || std::memcmp(&ours, &loop, sizeof ours) != 0 ||
            std::memcmp(ours_rng.s, loop_rng.s, sizeof ours_rng.s) != 0) {
          std::ostringstream what;
          what << "game " << game << " step " << step << ": random_decisions played " << played << " of " << most
               << ", the loop " << looped << (played == looped ? " (the states or generators differ)" : "");
          mismatch = what.str();
          break;
        }
        ++playouts;
      }
      G::apply(c, s, walk.next_u64() & 1 ? picked : legal[static_cast<int>(walk.bounded(legal.size))]);
    }
  }
  std::ostringstream out;
  out << "{\"decisions\": " << decisions << ", \"playouts\": " << playouts << ", \"lengths\": [";
  for (auto it = lengths.begin(); it != lengths.end(); ++it) out << (it == lengths.begin() ? "" : ", ") << *it;
  out << "], \"mismatch\": ";
  if (mismatch.empty()) out << "null}";
  else out << "\"" << mismatch << "\"}";
  return out.str();
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string name;
    uint64_t seed = 0;
    size_t n = 0;
    in >> name >> seed >> n;
    std::vector<int64_t> values(n);
    for (auto& v : values) in >> v;
    if (!in) {
      std::printf("{\"error\": \"a malformed line\"}\n");
      continue;
    }
    std::string answer = "{\"error\": \"no such game\"}";
    dimsum::dispatch_game(name.c_str(), [&]<class G>() {
      typename G::Config c{};
      char err[512];
      answer = dimsum::build_config<G>(values.data(), static_cast<int>(n), c, err, sizeof err)
                   ? run<G>(c, seed)
                   : std::string("{\"error\": \"a bad configuration\"}");
    });
    std::printf("%s\n", answer.c_str());
  }
  return 0;
}
