/* What the SDK's files share and plugin code does not see. */
#ifndef GEODE_INTERNAL_H
#define GEODE_INTERNAL_H

#include <stddef.h>
#include <geode.h>

/* A growable byte buffer (NUL-terminated). */
typedef struct geode_buffer {
    char *data;
    size_t len;
    size_t cap;
} geode_buffer;

void buffer_append(geode_buffer *b, const char *bytes, size_t len);
void buffer_printf(geode_buffer *b, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* Appends `text` as a JSON string literal. */
void buffer_json_string(geode_buffer *b, const char *text);
void buffer_reset(geode_buffer *b);

/* The seed of unseeded episode `number` of `stream`, an episode the host numbered (the batch
 * export's `continued` start): a hash of the two numbers alone, distinct for every episode of a
 * stream, so the host can replay the episode in a fresh instance. */
uint64_t rng_continuation_seed(uint64_t stream, uint64_t number);

/* The message of the last `geode_fail`. */
const char *geode_failure_message(void);

/* A parsed configuration from JSON text; NULL and a GEODE_BAD_CONFIG failure if malformed. */
geode_config *config_parse(const char *json, size_t len);
void config_free(geode_config *config);

/* Multi-agent rosters (agents.c), driven by the multi-agent glue. */
struct geode_agents;
/* A roster of `count` possible agents (none live until agents_restart); NULL and a
 * GEODE_INTERNAL failure when a name is too long or there are too many. */
struct geode_agents *agents_new(const char *const *possible, size_t count, bool parallel);
void agents_free(struct geode_agents *agents);
/* Every possible agent live, the first one's turn, no messages, totals at 0. */
void agents_restart(struct geode_agents *agents);
/* Clears every live agent's outcome before a step. */
void agents_clear_outcomes(struct geode_agents *agents);
/* `agent`'s outcome of this call (reward, flags, info entries without braces), its reward added
 * to its total; the flags stay for agents_finish_step. `info` stays valid until the next call. */
void agents_take_outcome(struct geode_agents *agents, const char *agent, double *reward,
                         bool *terminated, bool *truncated, const geode_buffer **info);
/* Removes every agent that terminated or was truncated, then passes the turn on. */
void agents_finish_step(struct geode_agents *agents);
/* The possible agents. */
size_t agents_possible_count(const struct geode_agents *agents);
const char *agents_possible(const struct geode_agents *agents, size_t index);
/* Appends a snapshot of the roster to `out`; restores one, returning the bytes read (0 when
 * it does not decode). */
void agents_encode(const struct geode_agents *agents, geode_buffer *out);
size_t agents_decode(struct geode_agents *agents, const char *bytes, size_t len);

#endif
