/* A PufferLib-style native env over dimsum's C API: a struct whose observations, actions,
 * rewards and terminals point into buffers the vectorizer owns, stepped by c_reset / c_step /
 * c_close, the calling convention of PufferLib's native ("ocean") envs. Written from that
 * convention, not from PufferLib's code; pufferlib itself is not needed (puffer_harness.c drives
 * it the way PufferLib's vectorizer does).
 *
 * One DimsumPuffer is num_agents games of a dimsum game stepped together (dimsum_env): agent i is
 * game i's learner seat, the other seats played in C++ by the opponent policy. Header-only, C99.
 */
#ifndef DIMSUM_PUFFER_H
#define DIMSUM_PUFFER_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dimsum.h"

/* PufferLib hands actions over as int: the C API takes int32_t. */
typedef char dimsum_puffer_int_is_int32[sizeof(int) == sizeof(int32_t) ? 1 : -1];

/* What PufferLib's logger reads: sums over the episodes that ended, and their count n. */
typedef struct Log {
  float episode_return;
  float episode_length;
  float score; /* the learner's return of an episode the rules ended (a truncated one scores 0) */
  float n;
} Log;

typedef struct DimsumPuffer {
  /* set by the vectorizer before c_reset: rows of its shared buffers, num_agents rows each */
  float* observations;          /* [num_agents][observation_size] */
  int* actions;                 /* [num_agents] */
  float* rewards;               /* [num_agents] */
  unsigned char* terminals;     /* [num_agents] */
  unsigned char* truncations;   /* [num_agents] */
  unsigned char* action_masks;  /* [num_agents][num_actions] */
  int num_agents;
  uint64_t seed;                /* c_reset deals from it */
  Log log;
  /* private */
  dimsum_env* env;
  dimsum_env_info info;
  float* episode_returns;       /* [num_agents], the running episode's */
  int* episode_lengths;
} DimsumPuffer;

/* Makes the env: 0, or -1 after printing why (the struct then holds nothing to close). Read
 * p->info's sizes (observation_size, num_actions) to size the vectorizer's buffers. */
static int dimsum_puffer_init(DimsumPuffer* p, const char* game, const char* options_json, int num_agents,
                              int learner_seat, const char* opponent) {
  memset(p, 0, sizeof *p);
  if (dimsum_env_create(game, options_json, num_agents, learner_seat, opponent, 1, 0, &p->env) != DIMSUM_OK) {
    fprintf(stderr, "dimsum: %s\n", dimsum_last_error(NULL));
    return -1;
  }
  dimsum_env_get_info(p->env, &p->info);
  p->num_agents = num_agents;
  p->episode_returns = (float*)calloc((size_t)num_agents, sizeof(float));
  p->episode_lengths = (int*)calloc((size_t)num_agents, sizeof(int));
  return 0;
}

static void dimsum_puffer_fail(DimsumPuffer* p, const char* call) {
  /* PufferLib's c_step returns nothing: a refused step is a bug in the trainer, stop loudly */
  fprintf(stderr, "dimsum %s: %s\n", call, dimsum_last_error(p->env));
  abort();
}

static void c_reset(DimsumPuffer* p) {
  const size_t n = (size_t)p->num_agents;
  dimsum_buffers b;
  memset(&b, 0, sizeof b);
  b.observations = p->observations;
  b.observations_len = n * (size_t)p->info.observation_size;
  b.action_masks = p->action_masks;
  b.action_masks_len = n * (size_t)p->info.num_actions;
  b.rewards = p->rewards;
  b.rewards_len = n;
  b.terminations = p->terminals;
  b.terminations_len = n;
  b.truncations = p->truncations;
  b.truncations_len = n;
  if (dimsum_env_reset(p->env, p->seed, &b) != DIMSUM_OK) dimsum_puffer_fail(p, "reset");
  memset(p->episode_returns, 0, n * sizeof(float));
  memset(p->episode_lengths, 0, n * sizeof(int));
}

/* Steps every agent with its action; an ended episode is added to the log and its game dealt
 * again at once (the observations then show the new game's opening). */
static void c_step(DimsumPuffer* p) {
  if (dimsum_env_step(p->env, (const int32_t*)p->actions, (size_t)p->num_agents) != DIMSUM_OK)
    dimsum_puffer_fail(p, "step");
  for (int i = 0; i < p->num_agents; ++i) {
    p->episode_returns[i] += p->rewards[i];
    p->episode_lengths[i] += 1;
    if (p->terminals[i] || p->truncations[i]) {
      p->log.episode_return += p->episode_returns[i];
      p->log.episode_length += (float)p->episode_lengths[i];
      p->log.score += p->terminals[i] ? p->rewards[i] : 0.0f;
      p->log.n += 1;
      p->episode_returns[i] = 0;
      p->episode_lengths[i] = 0;
    }
  }
}

static void c_close(DimsumPuffer* p) {
  dimsum_env_destroy(p->env);
  free(p->episode_returns);
  free(p->episode_lengths);
  p->env = NULL;
  p->episode_returns = NULL;
  p->episode_lengths = NULL;
}

#endif /* DIMSUM_PUFFER_H */
