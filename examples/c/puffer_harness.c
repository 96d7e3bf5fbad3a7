/* Drives dimsum_puffer.h as PufferLib's vectorizer drives a native env: it owns one buffer per
 * kind for all agents, points the env struct's fields into them, then calls c_reset once and
 * c_step with actions written into env->actions (here uniformly random legal ones, from the masks).
 *
 *     puffer_harness game num_agents steps seed [log_file]
 *
 * Prints the log PufferLib would read; with log_file, writes every step's actions and outputs
 * (tests/test_capi.py replays them through dimsum.BatchEnv).
 */
#include <stdio.h>
#include <stdlib.h>

#include "dimsum_puffer.h"

static uint64_t next_random(uint64_t* s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1DULL;
}

int main(int argc, char** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s game num_agents steps seed [log_file]\n", argv[0]);
    return 2;
  }
  const int num_agents = atoi(argv[2]), steps = atoi(argv[3]);
  DimsumPuffer env;
  /* seat 0 learns; the others play the C++ heuristic */
  if (dimsum_puffer_init(&env, argv[1], NULL, num_agents, 0, "heuristic") != 0) return 1;
  const size_t n = (size_t)num_agents, obs = (size_t)env.info.observation_size, acts = (size_t)env.info.num_actions;
  env.observations = (float*)calloc(n * obs, sizeof(float));
  env.actions = (int*)calloc(n, sizeof(int));
  env.rewards = (float*)calloc(n, sizeof(float));
  env.terminals = (unsigned char*)calloc(n, 1);
  env.truncations = (unsigned char*)calloc(n, 1);
  env.action_masks = (unsigned char*)calloc(n * acts, 1);
  env.seed = strtoull(argv[4], NULL, 10);
  FILE* log = argc > 5 ? fopen(argv[5], "wb") : NULL;
  c_reset(&env);
  if (log) {
    fwrite(env.observations, sizeof(float), n * obs, log);
    fwrite(env.action_masks, 1, n * acts, log);
  }
  uint64_t rng = env.seed * 2 + 1;
  for (int t = 0; t < steps; ++t) {
    for (size_t i = 0; i < n; ++i) {
      const unsigned char* row = env.action_masks + i * acts;
      int legal = 0;
      for (size_t a = 0; a < acts; ++a) legal += row[a];
      int k = (int)(next_random(&rng) % (uint64_t)legal);
      for (size_t a = 0; a < acts; ++a)
        if (row[a] && k-- == 0) {
          env.actions[i] = (int)a;
          break;
        }
    }
    c_step(&env);
    if (log) {
      fwrite(env.actions, sizeof(int), n, log);
      fwrite(env.observations, sizeof(float), n * obs, log);
      fwrite(env.action_masks, 1, n * acts, log);
      fwrite(env.rewards, sizeof(float), n, log);
      fwrite(env.terminals, 1, n, log);
      fwrite(env.truncations, 1, n, log);
    }
  }
  printf("%s: %d agents x %d steps: episodes %.0f, mean return %.4f, mean length %.2f\n", argv[1], num_agents, steps,
         env.log.n, env.log.n > 0 ? env.log.episode_return / env.log.n : 0.0,
         env.log.n > 0 ? env.log.episode_length / env.log.n : 0.0);
  if (log) fclose(log);
  c_close(&env);
  free(env.observations);
  free(env.actions);
  free(env.rewards);
  free(env.terminals);
  free(env.truncations);
  free(env.action_masks);
  return 0;
}
