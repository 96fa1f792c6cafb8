/* Hostile guests in C: each id attacks the host in one way when stepped with `go`;
 * `hostile-c:healthy` answers every step. The host must stop each attack with its typed error.
 * `hostile-c:dice` is a healthy sibling whose episodes draw from the generator: it rolls a die
 * at reset and at every step; a 6 ends the episode, the fourth step truncates it, the action
 * `refuse` is refused. Its texts hold non-ASCII characters on purpose. */
#include <stdlib.h>
#include <string.h>

#include <geode.h>

typedef struct {
    char kind[16];
    int64_t steps;
} hostile;

static geode_status create(void *env, const char *id, const geode_config *config) {
    hostile *h = env;
    (void)config;
    strncpy(h->kind, strchr(id, ':') + 1, sizeof h->kind - 1);
    return GEODE_OK;
}

static bool is_dice(const hostile *h) { return strcmp(h->kind, "dice") == 0; }

static geode_status reset(void *env, geode_rng *rng, geode_result *out) {
    hostile *h = env;
    if (is_dice(h)) {
        h->steps = 0;
        int64_t roll = geode_rng_range(rng, 1, 6);
        geode_say(out, "🎲 rolled %lld", (long long)roll);
        geode_info_int(out, "roll", roll);
        geode_info_str(out, "note", "é");
        return GEODE_OK;
    }
    geode_say(out, "ready");
    return GEODE_OK;
}

static geode_status roll_dice(hostile *h, const char *action, geode_rng *rng, geode_result *out) {
    if (strcmp(action, "refuse") == 0) return geode_fail(GEODE_INVALID_STATE, "refused on purpose");
    h->steps += 1;
    int64_t roll = geode_rng_range(rng, 1, 6);
    geode_say(out, "%s → %lld", action, (long long)roll);
    out->reward = (double)roll / 6;
    out->terminated = roll == 6;
    out->truncated = h->steps >= 4;
    geode_info_int(out, "roll", roll);
    geode_info_int(out, "turns", h->steps);
    return GEODE_OK;
}

static geode_status step(void *env, const char *action, size_t len, geode_rng *rng,
                         geode_result *out) {
    hostile *h = env;
    (void)len;
    if (is_dice(h)) return roll_dice(h, action, rng, out);
    if (strcmp(h->kind, "spin") == 0) {
        for (volatile int64_t *steps = &h->steps;;) *steps += 1;
    }
    if (strcmp(h->kind, "memory-bomb") == 0) {
        /* Chained through a volatile root, so the compiler cannot drop the allocations. */
        static void *volatile hoard;
        for (;;) {
            char *block = malloc(1 << 20);
            if (!block) geode_panic("malloc failed: out of memory");
            memset(block, 1, 1 << 20);
            *(void **)block = hoard;
            hoard = block;
        }
    }
    if (strcmp(h->kind, "abort") == 0) geode_panic("the c guest gave up");
    h->steps += 1;
    geode_say(out, "step %lld got %s", (long long)h->steps, action);
    return GEODE_OK;
}

static geode_status sample(void *env, geode_rng *rng, geode_result *out) {
    if (is_dice(env)) {
        geode_say(out, "%s", geode_rng_below(rng, 2) ? "é" : "go on");
        return GEODE_OK;
    }
    geode_say(out, "go");
    return GEODE_OK;
}

static const geode_spec specs[] = {
    {"hostile-c:healthy", "answers every step", "{}"},
    {"hostile-c:spin", "loops forever in step", "{}"},
    {"hostile-c:memory-bomb", "allocates until memory runs out", "{}"},
    {"hostile-c:abort", "aborts with a message", "{}"},
    {"hostile-c:dice", "rolls a die per step", "{}"},
};

const geode_plugin GEODE_PLUGIN = {
    .specs = specs,
    .spec_count = sizeof specs / sizeof specs[0],
    .env_size = sizeof(hostile),
    .create = create,
    .reset = reset,
    .step = step,
    .sample_random_action = sample,
};
