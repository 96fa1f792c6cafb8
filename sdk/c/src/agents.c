/* The part of a multi-agent episode every env has: who is live, whose turn it is, what each
 * agent got this step, the totals and the messages agents sent each other. The SDK keeps it;
 * an env reads it and records outcomes on it through geode_multiagent.h. */
#include <stdlib.h>
#include <string.h>

#include <geode_multiagent.h>
#include "internal.h"

/* Plain data: a snapshot copies its bytes. */
typedef struct {
    uint64_t possible_count;
    char possible[GEODE_MAX_AGENTS][GEODE_AGENT_NAME];
    /* The live agents, in turn order; the selector walks them. */
    uint64_t live_count;
    char live[GEODE_MAX_AGENTS][GEODE_AGENT_NAME];
    uint64_t parallel;
    uint64_t current;
    /* Per live agent (same order): this step's outcome. */
    double reward[GEODE_MAX_AGENTS];
    uint8_t terminated[GEODE_MAX_AGENTS];
    uint8_t truncated[GEODE_MAX_AGENTS];
    /* Per agent ever live this episode: the sum of its rewards. */
    uint64_t total_count;
    char total_name[GEODE_MAX_AGENTS][GEODE_AGENT_NAME];
    double total[GEODE_MAX_AGENTS];
    uint64_t message_count;
} roster;

struct geode_agents {
    roster r;
    /* Per live agent: this step's info entries (not in snapshots: cleared by every call). */
    geode_buffer info[GEODE_MAX_AGENTS];
    /* The messages, each as sender, receiver and text, NUL-terminated. */
    geode_buffer messages;
};

static bool fits(const char *name) { return strlen(name) < GEODE_AGENT_NAME; }

static void copy_name(char *to, const char *name) {
    strncpy(to, name, GEODE_AGENT_NAME - 1);
    to[GEODE_AGENT_NAME - 1] = 0;
}

static int live_index(const geode_agents *a, const char *agent) {
    for (uint64_t i = 0; i < a->r.live_count; i++)
        if (strcmp(a->r.live[i], agent) == 0) return (int)i;
    return -1;
}

geode_agents *agents_new(const char *const *possible, size_t count, bool parallel) {
    if (count > GEODE_MAX_AGENTS) {
        geode_fail(GEODE_INTERNAL, "at most %d agents, the plugin lists %zu", GEODE_MAX_AGENTS,
                   count);
        return NULL;
    }
    geode_agents *a = calloc(1, sizeof *a);
    if (!a) geode_panic("out of memory");
    for (size_t i = 0; i < count; i++) {
        if (!fits(possible[i])) {
            geode_fail(GEODE_INTERNAL, "agent name `%s` is longer than %d bytes", possible[i],
                       GEODE_AGENT_NAME - 1);
            free(a);
            return NULL;
        }
        copy_name(a->r.possible[i], possible[i]);
    }
    a->r.possible_count = count;
    a->r.parallel = parallel;
    return a;
}

void agents_free(geode_agents *a) {
    if (!a) return;
    for (size_t i = 0; i < GEODE_MAX_AGENTS; i++) free(a->info[i].data);
    free(a->messages.data);
    free(a);
}

void agents_clear_outcomes(geode_agents *a) {
    for (size_t i = 0; i < GEODE_MAX_AGENTS; i++) {
        a->r.reward[i] = 0;
        a->r.terminated[i] = a->r.truncated[i] = 0;
        buffer_reset(&a->info[i]);
    }
}

void agents_restart(geode_agents *a) {
    a->r.live_count = a->r.total_count = a->r.possible_count;
    for (uint64_t i = 0; i < a->r.possible_count; i++) {
        memcpy(a->r.live[i], a->r.possible[i], GEODE_AGENT_NAME);
        memcpy(a->r.total_name[i], a->r.possible[i], GEODE_AGENT_NAME);
        a->r.total[i] = 0;
    }
    a->r.current = 0;
    a->r.message_count = 0;
    buffer_reset(&a->messages);
    agents_clear_outcomes(a);
}

static double *total_of(geode_agents *a, const char *agent) {
    for (uint64_t i = 0; i < a->r.total_count; i++)
        if (strcmp(a->r.total_name[i], agent) == 0) return &a->r.total[i];
    return NULL;
}

void agents_take_outcome(geode_agents *a, const char *agent, double *reward, bool *terminated,
                         bool *truncated, const geode_buffer **info) {
    static geode_buffer empty;
    buffer_reset(&empty);
    buffer_append(&empty, "", 0);
    int i = live_index(a, agent);
    if (i < 0) {
        *reward = 0;
        *terminated = *truncated = false;
        *info = &empty;
        return;
    }
    *reward = a->r.reward[i];
    *terminated = a->r.terminated[i];
    *truncated = a->r.truncated[i];
    buffer_append(&a->info[i], "", 0); /* a NUL-terminated text even when empty */
    *info = &a->info[i];
    double *total = total_of(a, agent);
    if (total) *total += a->r.reward[i];
    a->r.reward[i] = 0; /* the flags stay: removal after the step reads them */
}

void agents_finish_step(geode_agents *a) {
    char done[GEODE_MAX_AGENTS][GEODE_AGENT_NAME];
    size_t count = 0;
    for (uint64_t i = 0; i < a->r.live_count; i++)
        if (a->r.terminated[i] || a->r.truncated[i]) memcpy(done[count++], a->r.live[i], GEODE_AGENT_NAME);
    for (size_t i = 0; i < count; i++) geode_agents_remove(a, done[i]);
    if (!a->r.parallel && a->r.live_count) a->r.current = (a->r.current + 1) % a->r.live_count;
}

size_t agents_possible_count(const geode_agents *a) { return a->r.possible_count; }

const char *agents_possible(const geode_agents *a, size_t index) {
    return index < a->r.possible_count ? a->r.possible[index] : NULL;
}

void agents_encode(const geode_agents *a, geode_buffer *out) {
    uint64_t bytes = a->messages.len;
    buffer_append(out, (const char *)&a->r, sizeof a->r);
    buffer_append(out, (const char *)&bytes, sizeof bytes);
    if (bytes) buffer_append(out, a->messages.data, a->messages.len);
}

size_t agents_decode(geode_agents *a, const char *bytes, size_t len) {
    roster r;
    uint64_t size;
    if (len < sizeof r + sizeof size) return 0;
    memcpy(&r, bytes, sizeof r);
    memcpy(&size, bytes + sizeof r, sizeof size);
    if (size > len - sizeof r - sizeof size || r.live_count > GEODE_MAX_AGENTS ||
        r.possible_count > GEODE_MAX_AGENTS || r.total_count > GEODE_MAX_AGENTS ||
        (r.live_count && r.current >= r.live_count))
        return 0;
    a->r = r;
    buffer_reset(&a->messages);
    buffer_append(&a->messages, bytes + sizeof r + sizeof size, (size_t)size);
    agents_clear_outcomes(a);
    return sizeof r + sizeof size + (size_t)size;
}

/* ---- read and written by the env -------------------------------------------------------- */

size_t geode_agents_count(const geode_agents *a) { return a->r.live_count; }

const char *geode_agents_live(const geode_agents *a, size_t index) {
    return index < a->r.live_count ? a->r.live[index] : NULL;
}

size_t geode_agents_active_count(const geode_agents *a) {
    if (a->r.parallel) return a->r.live_count;
    return a->r.live_count ? 1 : 0;
}

const char *geode_agents_active(const geode_agents *a, size_t index) {
    if (a->r.parallel) return geode_agents_live(a, index);
    return index == 0 && a->r.live_count ? a->r.live[a->r.current] : NULL;
}

bool geode_agents_is_active(const geode_agents *a, const char *agent) {
    for (size_t i = 0; i < geode_agents_active_count(a); i++)
        if (strcmp(geode_agents_active(a, i), agent) == 0) return true;
    return false;
}

bool geode_agents_is_live(const geode_agents *a, const char *agent) {
    return live_index(a, agent) >= 0;
}

void geode_agents_reward(geode_agents *a, const char *agent, double reward) {
    int i = live_index(a, agent);
    if (i >= 0) a->r.reward[i] += reward;
}

void geode_agents_terminate(geode_agents *a, const char *agent) {
    int i = live_index(a, agent);
    if (i >= 0) a->r.terminated[i] = 1;
}

void geode_agents_truncate(geode_agents *a, const char *agent) {
    int i = live_index(a, agent);
    if (i >= 0) a->r.truncated[i] = 1;
}

void geode_agents_end_all(geode_agents *a) {
    for (uint64_t i = 0; i < a->r.live_count; i++) a->r.terminated[i] = 1;
}

/* A result whose info is `agent`'s, for the geode_info_* writers; false when not live. */
static bool info_of(geode_agents *a, const char *agent, geode_result *out) {
    int i = live_index(a, agent);
    if (i < 0) return false;
    *out = (geode_result){.info = &a->info[i]};
    return true;
}

void geode_agents_info_int(geode_agents *a, const char *agent, const char *key, int64_t value) {
    geode_result out;
    if (info_of(a, agent, &out)) geode_info_int(&out, key, value);
}

void geode_agents_info_float(geode_agents *a, const char *agent, const char *key, double value) {
    geode_result out;
    if (info_of(a, agent, &out)) geode_info_float(&out, key, value);
}

void geode_agents_info_bool(geode_agents *a, const char *agent, const char *key, bool value) {
    geode_result out;
    if (info_of(a, agent, &out)) geode_info_bool(&out, key, value);
}

void geode_agents_info_str(geode_agents *a, const char *agent, const char *key,
                           const char *value) {
    geode_result out;
    if (info_of(a, agent, &out)) geode_info_str(&out, key, value);
}

double geode_agents_cumulative_reward(const geode_agents *a, const char *agent) {
    double *total = total_of((geode_agents *)a, agent);
    return total ? *total : 0;
}

geode_status geode_agents_add(geode_agents *a, const char *agent) {
    if (live_index(a, agent) >= 0) return GEODE_OK;
    if (!fits(agent))
        return geode_fail(GEODE_INVALID_STATE, "agent name `%s` is longer than %d bytes", agent,
                          GEODE_AGENT_NAME - 1);
    bool known = total_of(a, agent) != NULL;
    if (a->r.live_count == GEODE_MAX_AGENTS || (!known && a->r.total_count == GEODE_MAX_AGENTS))
        return geode_fail(GEODE_INVALID_STATE, "at most %d agents take part in an episode",
                          GEODE_MAX_AGENTS);
    uint64_t i = a->r.live_count++;
    copy_name(a->r.live[i], agent);
    a->r.reward[i] = 0;
    a->r.terminated[i] = a->r.truncated[i] = 0;
    buffer_reset(&a->info[i]);
    if (!known) {
        copy_name(a->r.total_name[a->r.total_count], agent);
        a->r.total[a->r.total_count++] = 0;
    }
    return GEODE_OK;
}

void geode_agents_remove(geode_agents *a, const char *agent) {
    int found = live_index(a, agent);
    if (found < 0) return;
    uint64_t index = (uint64_t)found;
    geode_buffer info = a->info[index];
    for (uint64_t i = index; i + 1 < a->r.live_count; i++) {
        memcpy(a->r.live[i], a->r.live[i + 1], GEODE_AGENT_NAME);
        a->r.reward[i] = a->r.reward[i + 1];
        a->r.terminated[i] = a->r.terminated[i + 1];
        a->r.truncated[i] = a->r.truncated[i + 1];
        a->info[i] = a->info[i + 1];
    }
    a->r.live_count--;
    a->info[a->r.live_count] = info; /* keep the buffer for reuse */
    buffer_reset(&a->info[a->r.live_count]);
    if (!a->r.live_count) {
        a->r.current = 0;
        return;
    }
    /* Step back one (wrapping), so the next turn lands on the agent due after the removed one. */
    if (index <= a->r.current)
        a->r.current = a->r.current > 0 ? a->r.current - 1 : a->r.live_count - 1;
    a->r.current %= a->r.live_count;
}

static geode_status check_live(const geode_agents *a, const char *agent, const char *role) {
    if (live_index(a, agent) >= 0) return GEODE_OK;
    return geode_fail(GEODE_INVALID_STATE, "%s `%s` is not in the episode", role, agent);
}

static void push_message(geode_agents *a, const char *sender, const char *receiver,
                         const char *text) {
    buffer_append(&a->messages, sender, strlen(sender) + 1);
    buffer_append(&a->messages, receiver, strlen(receiver) + 1);
    buffer_append(&a->messages, text, strlen(text) + 1);
    a->r.message_count++;
}

geode_status geode_agents_send(geode_agents *a, const char *sender, const char *receiver,
                               const char *text) {
    GEODE_TRY(check_live(a, sender, "sender"));
    GEODE_TRY(check_live(a, receiver, "receiver"));
    push_message(a, sender, receiver, text);
    return GEODE_OK;
}

geode_status geode_agents_broadcast(geode_agents *a, const char *sender, const char *text) {
    GEODE_TRY(check_live(a, sender, "sender"));
    for (uint64_t i = 0; i < a->r.live_count; i++)
        if (strcmp(a->r.live[i], sender) != 0) push_message(a, sender, a->r.live[i], text);
    return GEODE_OK;
}

size_t geode_agents_message_count(const geode_agents *a) { return a->r.message_count; }

geode_message geode_agents_message(const geode_agents *a, size_t index) {
    geode_message m = {"", "", ""};
    if (index >= a->r.message_count) return m;
    const char *p = a->messages.data;
    const char *end = p + a->messages.len;
    for (size_t skip = 0; skip < index * 3 && p < end; skip++) p += strlen(p) + 1;
    if (p >= end) return m;
    m.sender = p;
    p += strlen(p) + 1;
    m.receiver = p < end ? p : "";
    p += strlen(m.receiver) + 1;
    m.text = p < end ? p : "";
    return m;
}
