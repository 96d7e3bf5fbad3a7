/* A dimsum protocol bot in plain C (docs/PROTOCOL.md), with no dimsum dependency: it plays a
 * uniformly random legal action, seeded by the seed of each new_game, so a game replays exactly.
 *
 *   cc -O2 -o protocol_bot examples/protocol_bot.c
 *   python -m dimsum arena --game nice_buns --bots "external:command=./protocol_bot,random"
 *
 * It reads JSON lines minimally, which the protocol allows: the engine writes compact JSON (no
 * space between tokens), and a quote inside a string is always escaped, so the text "id": can
 * only be a key. A bot that needs more (the observation, the clock) would use a JSON library. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0;

/* splitmix64: a small, well-mixed generator (the seed comes from the engine) */
static uint64_t next_random(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int has_type(const char *line, const char *type) {
    char key[64];
    snprintf(key, sizeof key, "\"type\":\"%s\"", type);
    return strstr(line, key) != NULL;
}

int main(void) {
    char *line = NULL;
    size_t capacity = 0;
    long *ids = NULL;
    size_t ids_capacity = 0;
    while (getline(&line, &capacity, stdin) != -1) {
        if (has_type(line, "hello")) {
            printf("{\"type\":\"hello\",\"protocol\":1,\"name\":\"protocol_bot.c (random)\",\"want\":[]}\n");
        } else if (has_type(line, "new_game")) {
            const char *seed = strstr(line, "\"seed\":");
            rng_state = seed ? strtoull(seed + 7, NULL, 10) : 0;
            continue;
        } else if (has_type(line, "act")) {
            size_t count = 0;
            for (const char *p = strstr(line, "\"id\":"); p; p = strstr(p + 5, "\"id\":")) {
                if (count == ids_capacity) {
                    ids_capacity = ids_capacity ? 2 * ids_capacity : 64;
                    ids = realloc(ids, ids_capacity * sizeof *ids);
                    if (!ids) return 2;
                }
                ids[count++] = strtol(p + 5, NULL, 10);
            }
            if (count == 0) return 3; /* an act message always lists at least one legal action */
            printf("{\"type\":\"action\",\"action\":%ld}\n", ids[next_random() % count]);
        } else if (has_type(line, "quit")) {
            break;
        } else {
            continue; /* game_over, and anything newer than this bot */
        }
        fflush(stdout);
    }
    free(line);
    free(ids);
    return 0;
}
