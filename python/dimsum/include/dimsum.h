/* dimsum.h: the C API of dimsum's batched environment (docs/C_API.md).
 *
 * C99. Link with the shared library next to this header's folder: in Python,
 * dimsum.get_include() is this folder and dimsum.get_library() the library's path.
 *
 *     dimsum_env* env;
 *     if (dimsum_env_create("pig", "{\"players\": 3}", 64, 0, "random", 1, 0, &env) != DIMSUM_OK)
 *         puts(dimsum_last_error(NULL));
 *
 * One dimsum_env steps num_envs games of one configuration together, on the same C++ engine as
 * Python's dimsum.BatchEnv (same seeds, same games, byte for byte). Every function returns a
 * dimsum_status (DIMSUM_OK, or an error code with a message from dimsum_last_error) and never
 * lets a C++ exception out. A call that fails changes nothing.
 *
 * Versioning: DIMSUM_C_API_VERSION is the version this header describes; dimsum_api_version()
 * the library's. A library serves every header of the same major version (major * 10000 +
 * minor * 100 + patch): functions and error codes are only ever added within a major version,
 * never changed or removed, and no struct here changes its layout.
 */
#ifndef DIMSUM_H
#define DIMSUM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DIMSUM_C_API_VERSION 10000 /* 1.0.0 */
#define DIMSUM_C_API_MAJOR(v) ((v) / 10000)

#if defined(_WIN32)
#  if defined(DIMSUM_BUILDING_LIBRARY)
#    define DIMSUM_API __declspec(dllexport)
#  else
#    define DIMSUM_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define DIMSUM_API __attribute__((visibility("default")))
#else
#  define DIMSUM_API
#endif

/* What a call returned. New codes may be added (negative, below the last); treat any code you do
 * not know as an error. */
typedef enum dimsum_status {
  DIMSUM_OK = 0,
  DIMSUM_ERR_NULL_ARGUMENT = -1,   /* a pointer that must be given was NULL */
  DIMSUM_ERR_UNKNOWN_GAME = -2,    /* no game of that name is compiled into this library */
  DIMSUM_ERR_BAD_OPTIONS = -3,     /* the options JSON is malformed, names an unknown field, or a
                                      value the game refuses */
  DIMSUM_ERR_BAD_ARGUMENT = -4,    /* a count, seat, opponent name or buffer size out of range */
  DIMSUM_ERR_ILLEGAL_ACTION = -5,  /* an action out of range or not legal: no env moved */
  DIMSUM_ERR_NOT_RESET = -6,       /* step before the first reset */
  DIMSUM_ERR_FAULT = -7,           /* the env cannot go on (its configuration gives the learner no
                                      turn): destroy it */
  DIMSUM_ERR_OUT_OF_MEMORY = -8,   /* memory or threads could not be had: nothing was made */
  DIMSUM_ERR_INTERNAL = -9         /* a bug in dimsum: please report the message */
} dimsum_status;

/* An environment (opaque): made by dimsum_env_create, freed by dimsum_env_destroy. */
typedef struct dimsum_env dimsum_env;

/* Its sizes, fixed when it is made. */
typedef struct dimsum_env_info {
  int32_t num_envs;
  int32_t players;
  int32_t observation_size;  /* floats in one env's observation */
  int32_t num_actions;       /* actions are 0 .. num_actions - 1 */
  int32_t reward_size;       /* rewards per env: 1 with a learner seat, else players */
  int32_t learner_seat;      /* the seat whose actions step takes, or -1: whoever is to act */
  int32_t max_episode_steps; /* actions after which a game is truncated */
  int32_t threads;           /* threads stepping the envs (the calling thread is one) */
} dimsum_env_info;

/* Where reset and step write: caller-owned arrays, row i is env i's, each with its length in
 * elements (checked against the env's sizes). Given to reset; every step until the next reset
 * writes into the same arrays, which must stay valid and must not be written by the caller (the
 * observations are updated in place where they changed). */
typedef struct dimsum_buffers {
  float* observations;      /* [num_envs][observation_size]: the view of the player to act */
  size_t observations_len;
  uint8_t* action_masks;    /* [num_envs][num_actions]: 1 where an action is legal */
  size_t action_masks_len;
  float* rewards;           /* [num_envs][reward_size]: the step's rewards (the game's returns
                               on the step it ends, 0 otherwise) */
  size_t rewards_len;
  uint8_t* terminations;    /* [num_envs]: 1 if the rules ended the game on this step */
  size_t terminations_len;
  uint8_t* truncations;     /* [num_envs]: 1 if it reached max_episode_steps on this step */
  size_t truncations_len;
  int32_t* current_players; /* [num_envs], or NULL: the seat to act in each env */
  size_t current_players_len;
} dimsum_buffers;

/* DIMSUM_C_API_VERSION of the library (compare its major with the header's). */
DIMSUM_API int32_t dimsum_api_version(void);

/* The games compiled in: the name of game `index` (0, 1, ...), or NULL past the last. */
DIMSUM_API const char* dimsum_game_name(int32_t index);

/* Makes num_envs games of `game` configured by `options_json` (NULL or "{}": the game's defaults;
 * else a JSON object of the game's config fields by name, docs/C_API.md), stepped on `threads`
 * threads (0: one per core, at most num_envs). learner_seat -1: step takes the action of
 * whichever seat is to act; a seat 0 .. players-1: step takes that seat's actions only, and the
 * other seats are played in C++ by `opponent` (NULL: "random"; or "heuristic").
 * max_episode_steps 0: the game's own bound. On success *out is the env (call reset next); on
 * failure *out is NULL and dimsum_last_error(NULL) says why. */
DIMSUM_API dimsum_status dimsum_env_create(const char* game, const char* options_json, int32_t num_envs,
                                           int32_t learner_seat, const char* opponent, int32_t threads,
                                           int32_t max_episode_steps, dimsum_env** out);

/* Frees the env (NULL: nothing). */
DIMSUM_API void dimsum_env_destroy(dimsum_env* env);

DIMSUM_API dimsum_status dimsum_env_get_info(const dimsum_env* env, dimsum_env_info* out);

/* Deals game 0 of every env from `seed` (env i's k-th game from a seed derived from seed, i and
 * k, as dimsum.BatchEnv deals it) and writes the opening into `buffers`, which step then writes
 * into as well. Rewards, terminations and truncations are 0. */
DIMSUM_API dimsum_status dimsum_env_reset(dimsum_env* env, uint64_t seed, const dimsum_buffers* buffers);

/* One action per env (actions_len == num_envs). All or nothing: if any action is out of range or
 * not legal, returns DIMSUM_ERR_ILLEGAL_ACTION naming the first such env and no env moves. A game
 * that ends is dealt its next game in the same step: the buffers then show the new game's
 * opening, and rewards/terminations/truncations the ended game's. */
DIMSUM_API dimsum_status dimsum_env_step(dimsum_env* env, const int32_t* actions, size_t actions_len);

/* One uniformly random legal action per env into `actions` (actions_len == num_envs), env i's
 * drawn from a stream of (seed, i): the same as dimsum.BatchEnv.sample_actions(seed). */
DIMSUM_API dimsum_status dimsum_env_sample_actions(dimsum_env* env, uint64_t seed, int32_t* actions,
                                                   size_t actions_len);

/* Why the last failing call failed: on `env` (that env's last error), or with NULL the calling
 * thread's last failed dimsum_env_create. "" if none. Valid until the next call on the same env
 * (or, for NULL, the next create on the same thread). */
DIMSUM_API const char* dimsum_last_error(const dimsum_env* env);

#ifdef __cplusplus
}
#endif

#endif /* DIMSUM_H */
