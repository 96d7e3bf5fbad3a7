// Test-only check of Dim Sum Jam's observe_changes (BatchEnv's rows rewritten where they changed,
// src/dimsum_core/dim_sum_jam/observe.cpp) against observe, on jumps BatchEnv never makes: a row
// of any state and seat taken to any other state and seat (another game, a chance node of the
// explicit mode, the set-up shuffle, a game over). Built and driven by
// tests/test_batch_env_observe_changes.py, with the Dim Sum Jam sources only.
//
// Reads one configuration a line from stdin: SEED N VALUE... (dimsum.make(...).config_values), and
// prints one line of JSON for each:
//   {"states": S, "checks": C, "mismatch": null | "what differed first"}
// S states from random games of that configuration (chance outcomes drawn uniformly in the explicit
// mode); C checks of observe(a, seat) then observe_changes(a, seat -> b, seat') against
// observe(b, seat'), compared as bits: b the state after a, and b any state, with random seats.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "dimsum_core/common/game_api.hpp"
#include "dimsum_core/common/rng.hpp"
#include "dimsum_core/dim_sum_jam/byte_layout.hpp"
#include "dimsum_core/dim_sum_jam/engine.hpp"

namespace {

using G = dimsum::dim_sum_jam::Engine;

constexpr int kGames = 40;
constexpr int kMaxSteps = 400;

// Every state of kGames random games (each game's last state included: over, or at kMaxSteps).
std::vector<G::State> play(const G::Config& c, uint64_t seed) {
  std::vector<G::State> states;
  dimsum::Rng rng = dimsum::Rng::from_seed(seed);
  std::vector<int16_t> moves(static_cast<size_t>(G::kMaxActions) + 256);
  std::vector<uint32_t> weights(moves.size());
  for (int game = 0; game < kGames; ++game) {
    G::State s;
    G::new_state(c, s, dimsum::derive_seed(seed, static_cast<uint64_t>(game)));
    for (int step = 0; step < kMaxSteps && G::current_player(s) != -1; ++step) {
      states.push_back(s);
      const int n = s.chance ? G::chance_outcomes(c, s, moves.data(), weights.data())
                             : G::legal_actions(c, s, moves.data());
      if (n <= 0) break;
      G::apply(c, s, moves[rng.bounded(static_cast<uint64_t>(n))]);
    }
    states.push_back(s);
  }
  return states;
}

std::string run(const G::Config& c, uint64_t seed) {
  const std::vector<G::State> states = play(c, seed);
  const auto size = static_cast<size_t>(c.observation_size);
  std::vector<float> row(size), want(size);
  dimsum::Rng rng = dimsum::Rng::from_seed(seed ^ 0x5EA75ull);
  long checks = 0;
  std::string mismatch;
  auto check = [&](size_t a, int seat_a, size_t b, int seat_b) {
    G::observe(c, states[a], seat_a, row.data());
    G::observe_changes(c, states[a], seat_a, states[b], seat_b, row.data());
    G::observe(c, states[b], seat_b, want.data());
    ++checks;
    if (!mismatch.empty() || std::memcmp(row.data(), want.data(), size * sizeof(float)) == 0) return;
    size_t e = 0;
    while (std::memcmp(&row[e], &want[e], sizeof(float)) == 0) ++e;
    char text[200];
    std::snprintf(text, sizeof text, "state %zu seat %d -> state %zu seat %d: entry %zu is %g, observe says %g", a,
                  seat_a, b, seat_b, e, static_cast<double>(row[e]), static_cast<double>(want[e]));
    mismatch = text;
  };
  const auto players = static_cast<uint64_t>(c.players);
  for (size_t i = 0; i + 1 < states.size(); ++i) {
    const int seat = static_cast<int>(rng.bounded(players));
    check(i, seat, i + 1, seat);                                                  // the same seat's next view
    check(i, seat, i + 1, static_cast<int>(rng.bounded(players)));                // another seat's
    check(i, seat, rng.bounded(states.size()), static_cast<int>(rng.bounded(players)));  // any state
  }
  std::ostringstream out;
  out << "{\"states\": " << states.size() << ", \"checks\": " << checks << ", \"mismatch\": ";
  if (mismatch.empty()) out << "null}";
  else out << "\"" << mismatch << "\"}";
  return out.str();
}

}  // namespace

int main() {
  static constexpr dimsum::GameApi api = dimsum::make_api<G>();
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    uint64_t seed = 0;
    size_t n = 0;
    in >> seed >> n;
    std::vector<int64_t> values(n);
    for (auto& v : values) in >> v;
    if (!in) {
      std::printf("{\"error\": \"a malformed line\"}\n");
      continue;
    }
    G::Config c{};
    char err[512];
    if (!api.config_from_values(values.data(), static_cast<int>(n), &c, err, sizeof err)) {
      std::printf("{\"error\": \"a bad configuration\"}\n");
      continue;
    }
    std::printf("%s\n", run(c, seed).c_str());
  }
  return 0;
}
