/* The C API's stepping loop, timed: reset once, then `steps` steps with a uniformly random legal
 * action per env (dimsum_env_sample_actions, the sampler dimsum.BatchEnv.sample_actions uses),
 * no other work. benchmarks/capi_loop.py runs it beside BatchEnv's Python loop.
 *
 *     timing_loop game num_envs steps seed threads learner_seat
 *
 * Prints one JSON line: the loop's wall and CPU seconds (the process's CPU clock: every thread),
 * and a checksum of the rewards so that the work cannot be optimised away.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dimsum.h"

static double seconds(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char** argv) {
  if (argc < 7) {
    fprintf(stderr, "usage: %s game num_envs steps seed threads learner_seat\n", argv[0]);
    return 2;
  }
  const int32_t num_envs = (int32_t)atoi(argv[2]), steps = (int32_t)atoi(argv[3]);
  const uint64_t seed = strtoull(argv[4], NULL, 10);
  const int32_t threads = (int32_t)atoi(argv[5]), learner_seat = (int32_t)atoi(argv[6]);
  dimsum_env* env;
  if (dimsum_env_create(argv[1], NULL, num_envs, learner_seat, NULL, threads, 0, &env) != DIMSUM_OK) {
    fprintf(stderr, "%s\n", dimsum_last_error(NULL));
    return 1;
  }
  dimsum_env_info info;
  dimsum_env_get_info(env, &info);
  const size_t n = (size_t)num_envs;
  dimsum_buffers b;
  memset(&b, 0, sizeof b);
  b.observations_len = n * (size_t)info.observation_size;
  b.action_masks_len = n * (size_t)info.num_actions;
  b.rewards_len = n * (size_t)info.reward_size;
  b.terminations_len = b.truncations_len = n;
  b.observations = malloc(b.observations_len * sizeof(float));
  b.action_masks = malloc(b.action_masks_len);
  b.rewards = malloc(b.rewards_len * sizeof(float));
  b.terminations = malloc(n);
  b.truncations = malloc(n);
  int32_t* actions = malloc(n * sizeof(int32_t));
  if (dimsum_env_reset(env, seed, &b) != DIMSUM_OK) {
    fprintf(stderr, "%s\n", dimsum_last_error(env));
    return 1;
  }
  double checksum = 0;
  const double wall0 = seconds(CLOCK_MONOTONIC), cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
  for (int32_t t = 0; t < steps; ++t) {
    if (dimsum_env_sample_actions(env, seed + (uint64_t)t, actions, n) != DIMSUM_OK ||
        dimsum_env_step(env, actions, n) != DIMSUM_OK) {
      fprintf(stderr, "%s\n", dimsum_last_error(env));
      return 1;
    }
    checksum += b.rewards[0];
  }
  const double cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0, wall = seconds(CLOCK_MONOTONIC) - wall0;
  printf("{\"wall\": %.9f, \"cpu\": %.9f, \"checksum\": %.6f}\n", wall, cpu, checksum);
  dimsum_env_destroy(env);
  free(actions);
  free(b.observations);
  free(b.action_masks);
  free(b.rewards);
  free(b.terminations);
  free(b.truncations);
  return 0;
}
