/* Steps every game compiled into dimsum from C, through the C API (dimsum.h, docs/C_API.md).
 *
 *     cc -std=c99 -I"$(python -c 'import dimsum; print(dimsum.get_include())')" step_games.c \
 *        "$(python -c 'import dimsum; print(dimsum.get_library())')" -o step_games
 *     ./step_games 8 200 42            # num_envs steps seed
 *     ./step_games 8 200 42 logs/      # and write what each step returned, for tests/test_capi.py
 *
 * Each game is played twice: with every seat's actions chosen here (learner_seat -1), and as seat
 * 1 of 3 against the C++ heuristic (learner_seat 1). The actions are uniformly random among the
 * legal ones, drawn from the masks with a generator of this program's own.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dimsum.h"

static uint64_t next_random(uint64_t* s) { /* xorshift64*: any generator will do */
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1DULL;
}

/* A uniformly random legal action of each env, from its row of the masks. */
static void pick_actions(const dimsum_env_info* info, const uint8_t* masks, uint64_t* rng, int32_t* actions) {
  for (int32_t i = 0; i < info->num_envs; ++i) {
    const uint8_t* row = masks + (size_t)i * (size_t)info->num_actions;
    int32_t legal = 0;
    for (int32_t a = 0; a < info->num_actions; ++a) legal += row[a];
    int32_t k = (int32_t)(next_random(rng) % (uint64_t)legal);
    for (int32_t a = 0; a < info->num_actions; ++a) {
      if (row[a] && k-- == 0) {
        actions[i] = a;
        break;
      }
    }
  }
}

static void write_all(FILE* f, const void* p, size_t size, size_t count) {
  if (f != NULL && fwrite(p, size, count, f) != count) {
    fprintf(stderr, "write failed\n");
    exit(1);
  }
}

/* Plays `steps` steps of one configuration; returns 0, or 1 after printing why it failed. */
static int play(const char* game, const char* options, int32_t learner_seat, const char* opponent,
                int32_t num_envs, int32_t steps, uint64_t seed, const char* log_dir) {
  dimsum_env* env = NULL;
  if (dimsum_env_create(game, options, num_envs, learner_seat, opponent, 1, 0, &env) != DIMSUM_OK) {
    fprintf(stderr, "%s: %s\n", game, dimsum_last_error(NULL));
    return 1;
  }
  dimsum_env_info info;
  dimsum_env_get_info(env, &info);
  const size_t n = (size_t)info.num_envs;
  dimsum_buffers b;
  memset(&b, 0, sizeof b);
  b.observations_len = n * (size_t)info.observation_size;
  b.action_masks_len = n * (size_t)info.num_actions;
  b.rewards_len = n * (size_t)info.reward_size;
  b.terminations_len = b.truncations_len = b.current_players_len = n;
  b.observations = malloc(b.observations_len * sizeof(float));
  b.action_masks = malloc(b.action_masks_len);
  b.rewards = malloc(b.rewards_len * sizeof(float));
  b.terminations = malloc(n);
  b.truncations = malloc(n);
  b.current_players = malloc(n * sizeof(int32_t));
  int32_t* actions = malloc(n * sizeof(int32_t));
  FILE* log = NULL;
  if (log_dir != NULL) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s_%s.bin", log_dir, game, learner_seat < 0 ? "every_seat" : "learner_seat");
    log = fopen(path, "wb");
    if (log == NULL) {
      fprintf(stderr, "cannot write %s\n", path);
      return 1;
    }
  }
  int failed = dimsum_env_reset(env, seed, &b) != DIMSUM_OK;
  write_all(log, b.observations, sizeof(float), b.observations_len);
  write_all(log, b.action_masks, 1, b.action_masks_len);
  uint64_t rng = seed * 2 + 1;
  double reward_sum = 0;
  long ended = 0;
  for (int32_t t = 0; t < steps && !failed; ++t) {
    pick_actions(&info, b.action_masks, &rng, actions);
    if (dimsum_env_step(env, actions, n) != DIMSUM_OK) {
      failed = 1;
      break;
    }
    write_all(log, actions, sizeof(int32_t), n);
    write_all(log, b.observations, sizeof(float), b.observations_len);
    write_all(log, b.action_masks, 1, b.action_masks_len);
    write_all(log, b.rewards, sizeof(float), b.rewards_len);
    write_all(log, b.terminations, 1, n);
    write_all(log, b.truncations, 1, n);
    write_all(log, b.current_players, sizeof(int32_t), n);
    for (size_t k = 0; k < b.rewards_len; ++k) reward_sum += b.rewards[k];
    for (size_t i = 0; i < n; ++i) ended += b.terminations[i] | b.truncations[i];
  }
  if (failed) fprintf(stderr, "%s: %s\n", game, dimsum_last_error(env));
  else
    printf("%-12s learner_seat %2d: %" PRId32 " envs x %" PRId32 " steps, %ld games ended, reward sum %.3f\n", game,
           learner_seat, info.num_envs, steps, ended, reward_sum);
  if (log != NULL) fclose(log);
  free(actions);
  free(b.observations);
  free(b.action_masks);
  free(b.rewards);
  free(b.terminations);
  free(b.truncations);
  free(b.current_players);
  dimsum_env_destroy(env);
  return failed;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s num_envs steps seed [log_dir]\n", argv[0]);
    return 2;
  }
  if (DIMSUM_C_API_MAJOR(dimsum_api_version()) != DIMSUM_C_API_MAJOR(DIMSUM_C_API_VERSION)) {
    fprintf(stderr, "libdimsum speaks C API %d, this program was built for %d\n", (int)dimsum_api_version(),
            DIMSUM_C_API_VERSION);
    return 1;
  }
  const int32_t num_envs = (int32_t)atoi(argv[1]), steps = (int32_t)atoi(argv[2]);
  const uint64_t seed = strtoull(argv[3], NULL, 10);
  const char* log_dir = argc > 4 ? argv[4] : NULL;
  int failures = 0;
  for (int32_t g = 0; dimsum_game_name(g) != NULL; ++g) {
    const char* game = dimsum_game_name(g);
    failures += play(game, NULL, -1, NULL, num_envs, steps, seed, log_dir);
    failures += play(game, "{\"players\": 3}", 1, "heuristic", num_envs, steps, seed, log_dir);
  }
  return failures == 0 ? 0 : 1;
}
