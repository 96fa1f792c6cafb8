/* Hostile guests in C: each id attacks the host in one way when stepped with `go`;
 * `hostile-c:healthy` answers every step. The host must stop each attack with its typed error. */
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

static geode_status reset(void *env, geode_rng *rng, geode_result *out) {
    (void)env;
    (void)rng;
    geode_say(out, "ready");
    return GEODE_OK;
}

static geode_status step(void *env, const char *action, size_t len, geode_rng *rng,
                         geode_result *out) {
    hostile *h = env;
    (void)len;
    (void)rng;
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
    (void)env;
    (void)rng;
    geode_say(out, "go");
    return GEODE_OK;
}

static const geode_spec specs[] = {
    {"hostile-c:healthy", "answers every step", "{}"},
    {"hostile-c:spin", "loops forever in step", "{}"},
    {"hostile-c:memory-bomb", "allocates until memory runs out", "{}"},
    {"hostile-c:abort", "aborts with a message", "{}"},
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
