// The fixed floor of a vectorized env-step: the least any batched env with BatchEnv's output
// layout must do per env and step, as a toy env stepped by a plain C++ loop. It includes nothing
// of dimsum, so the floor does not move when BatchEnv, a game or the Python binding does; the
// figure "BatchEnv x floor" (benchmarks/batch_floor.py, callgrind_batch.py, goals.py) is BatchEnv's
// env-step over this one.
//
//     batch_floor <obs_size> <num_actions> <players> <envs> <steps> <seed>
//
// Per env-step the toy does what the outputs require and nothing else:
// - reads the env's action and adds it to a counter (its whole state);
// - writes the player to act, a reward per player, the terminated and truncated flags;
// - writes the observation row (obs_size floats) and the legal mask (num_actions bools) WHOLE.
//   A toy has no layout to exploit, so it cannot write only what changed: it copies one template
//   row and one template mask (shared by every env, so they stay in L1: the cheapest source there
//   is; a per-env template would add a read stream and make the floor dearer, the flattering
//   direction) and then stores the counter into the row's first entry, so the row depends on the
//   state and the copy cannot be hoisted out of the loop.
// The actions are made before the clock starts (from `seed`): the floor charges no policy, while
// BatchEnv's side charges its sample_actions and the Python call (benchmarks/batch_floor.py says
// so where it prints the ratio). Outputs are laid out as BatchOutputs (batch/batch_env.hpp):
// row-major [envs][width], the same types.
//
// Built by benchmarks/batch_floor.py with setup.py's flags for the extensions (-std=c++20 -O3
// -ffp-contract=off -g0). Prints one line of JSON: env-steps, thread CPU and wall seconds of the
// stepping loop, and a checksum read from the outputs (so that no store is optimized away).
#include "bench_clock.hpp"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

namespace {

using bench::Clocks;
using bench::now;

// splitmix64: the actions' stream (any fixed function of the seed would do; this is not dimsum's)
uint64_t mix(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct Outputs {
  std::vector<float> obs;             // [envs][obs_size]
  std::vector<double> rewards;        // [envs][players]
  std::vector<uint8_t> terminated;    // [envs] (bool's layout)
  std::vector<uint8_t> truncated;     // [envs]
  std::vector<int32_t> current_player;  // [envs]
  std::vector<uint8_t> legal_mask;    // [envs][num_actions]
};

// One step of every env. noinline: one loop to read in a profile, the same code whatever main does.
[[gnu::noinline]] void step(const int64_t* actions, uint64_t* counters, Outputs& out, const float* row_template,
                            const uint8_t* mask_template, size_t envs, size_t obs_size, size_t num_actions,
                            size_t players) {
  for (size_t i = 0; i < envs; ++i) {
    const uint64_t counter = counters[i] += static_cast<uint64_t>(actions[i]);
    out.current_player[i] = static_cast<int32_t>(counter % players);
    double* rewards = out.rewards.data() + i * players;
    for (size_t p = 0; p < players; ++p) rewards[p] = 0.0;
    out.terminated[i] = 0;
    out.truncated[i] = 0;
    float* row = out.obs.data() + i * obs_size;
    std::memcpy(row, row_template, obs_size * sizeof(float));
    row[0] = static_cast<float>(counter & 0xFFFF);
    std::memcpy(out.legal_mask.data() + i * num_actions, mask_template, num_actions);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: batch_floor <obs_size> <num_actions> <players> <envs> <steps> <seed>\n");
    return 2;
  }
  const auto obs_size = static_cast<size_t>(std::strtoull(argv[1], nullptr, 10));
  const auto num_actions = static_cast<size_t>(std::strtoull(argv[2], nullptr, 10));
  const auto players = static_cast<size_t>(std::strtoull(argv[3], nullptr, 10));
  const auto envs = static_cast<size_t>(std::strtoull(argv[4], nullptr, 10));
  const auto steps = static_cast<size_t>(std::strtoull(argv[5], nullptr, 10));
  uint64_t seed = std::strtoull(argv[6], nullptr, 10);
  if (obs_size == 0 || num_actions == 0 || players == 0 || envs == 0) {
    std::fprintf(stderr, "batch_floor: obs_size, num_actions, players and envs must be positive\n");
    return 2;
  }
  Outputs out{std::vector<float>(envs * obs_size), std::vector<double>(envs * players), std::vector<uint8_t>(envs),
              std::vector<uint8_t>(envs), std::vector<int32_t>(envs), std::vector<uint8_t>(envs * num_actions)};
  std::vector<float> row_template(obs_size);
  for (size_t k = 0; k < obs_size; ++k) row_template[k] = static_cast<float>(mix(seed) & 1);
  const std::vector<uint8_t> mask_template(num_actions, 1);
  std::vector<uint64_t> counters(envs, 0);
  // every step's actions made up front (outside the clock), as a policy would hand them over
  std::vector<int64_t> actions(envs * (steps > 0 ? steps : 1));  // step 0's serve the warm-up step too
  for (auto& a : actions) a = static_cast<int64_t>(mix(seed) % num_actions);
  // one step first, as BatchEnv's reset writes every row once: first-touch page faults are not a step's
  step(actions.data(), counters.data(), out, row_template.data(), mask_template.data(), envs, obs_size, num_actions,
       players);
  const Clocks start = now();
  for (size_t k = 0; k < steps; ++k)
    step(actions.data() + k * envs, counters.data(), out, row_template.data(), mask_template.data(), envs, obs_size,
         num_actions, players);
  const Clocks end = now();
  uint64_t sum = 0;
  for (size_t i = 0; i < envs; ++i)
    sum += static_cast<uint64_t>(out.obs[i * obs_size]) + out.legal_mask[i * num_actions] +
           static_cast<uint64_t>(out.current_player[i]);
  std::printf("{\"env_steps\": %llu, \"cpu\": %.9f, \"wall\": %.9f, \"checksum\": %llu}\n",
              static_cast<unsigned long long>(envs * steps), end.cpu - start.cpu, end.wall - start.wall,
              static_cast<unsigned long long>(sum));
  return 0;
}
