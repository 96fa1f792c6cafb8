/*
 * geode.h: environment plugins for geode, written in C.
 *
 * Define your env's state as a plain struct (no pointers: snapshots copy its bytes), write
 * create/reset/step/sample functions, and describe them in one `GEODE_PLUGIN` definition:
 *
 *     #include <geode.h>
 *
 *     typedef struct { int64_t rounds; int64_t played; } coin;
 *
 *     static geode_status coin_create(void *env, const char *id, const geode_config *config) {
 *         coin *c = env;
 *         GEODE_TRY(geode_config_int(config, "rounds", &c->rounds));
 *         return GEODE_OK;
 *     }
 *     static geode_status coin_reset(void *env, geode_rng *rng, geode_result *out) {
 *         ((coin *)env)->played = 0;
 *         geode_say(out, "heads or tails?");
 *         return GEODE_OK;
 *     }
 *     ... coin_step, coin_sample ...
 *
 *     static const geode_spec specs[] = {{"demo:Coin-v0", "Call the coin", "{\"rounds\":1}"}};
 *     const geode_plugin GEODE_PLUGIN = {
 *         .specs = specs, .spec_count = 1, .env_size = sizeof(coin),
 *         .create = coin_create, .reset = coin_reset, .step = coin_step,
 *         .sample_random_action = coin_sample,
 *     };
 *
 * `geode build` compiles this with the SDK into a component; you never see WIT or bindings.
 * Everything random must come from the `rng` handed to reset and step: the same seed then
 * replays the same episode, which the host relies on.
 */
#ifndef GEODE_H
#define GEODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors ------------------------------------------------------------------------------ */

/* What a plugin function returns: GEODE_OK, or the kind of refusal (the contract's
 * `env-error` cases). The message comes from `geode_fail`. */
typedef enum geode_status {
    GEODE_OK = 0,
    GEODE_BAD_CONFIG,    /* a configuration value is wrong; name the key */
    GEODE_UNKNOWN_ID,    /* an id this plugin does not provide */
    GEODE_INVALID_STATE, /* the call is not allowed now */
    GEODE_BAD_STATE,     /* a snapshot could not be decoded */
    GEODE_INTERNAL,      /* any other failure reported without trapping */
} geode_status;

/* Records the message of a refusal (printf-style) and returns `status`:
 * `return geode_fail(GEODE_BAD_CONFIG, "rounds must be at least 1, got %lld", n);` */
geode_status geode_fail(geode_status status, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Returns from the calling function when `expr` is not GEODE_OK. */
#define GEODE_TRY(expr)                                                                          \
    do {                                                                                         \
        geode_status geode_try_status_ = (expr);                                                 \
        if (geode_try_status_ != GEODE_OK) return geode_try_status_;                             \
    } while (0)

/* A bug that must not be reported as a refusal: the host reports a guest trap with `message`
 * and discards the instance. */
_Noreturn void geode_panic(const char *message);

/* ---- randomness -------------------------------------------------------------------------- */

/* The env's generator (xoshiro256**, seeded through SplitMix64). The SDK reseeds it before a
 * seeded reset, and before an unseeded one from the episode's numbers the host gives (so the
 * host can replay it); an env the host never numbered draws its first seed from the host's
 * (replayable) entropy. */
typedef struct geode_rng {
    uint64_t s[4];
} geode_rng;

/* Reseeds `rng`: the same seed gives the same draws. */
void geode_rng_seed(geode_rng *rng, uint64_t seed);
/* A uniform 64-bit integer. */
uint64_t geode_rng_next(geode_rng *rng);
/* A uniform integer in [0, n), n >= 1, without modulo bias. */
uint64_t geode_rng_below(geode_rng *rng, uint64_t n);
/* A uniform integer in [lo, hi]. */
int64_t geode_rng_range(geode_rng *rng, int64_t lo, int64_t hi);
/* A uniform double in [0, 1). */
double geode_rng_float(geode_rng *rng);

/* ---- configuration ----------------------------------------------------------------------- */

/* An env's configuration: the id's default config (a JSON object) merged with the user's
 * overrides, parsed. Each getter fails with GEODE_BAD_CONFIG naming the key when the key is
 * missing or has another type. */
typedef struct geode_config geode_config;

geode_status geode_config_int(const geode_config *config, const char *key, int64_t *out);
geode_status geode_config_float(const geode_config *config, const char *key, double *out);
geode_status geode_config_bool(const geode_config *config, const char *key, bool *out);
/* The string is copied into `out` (NUL-terminated, at most `size` bytes with the NUL). */
geode_status geode_config_str(const geode_config *config, const char *key, char *out, size_t size);

/* ---- results ----------------------------------------------------------------------------- */

/* What reset, step and sample_random_action fill in. Write the observation (or the sampled
 * action) with `geode_say`, set the flags and reward directly, add info entries with the
 * `geode_info_*` functions (each key once). */
typedef struct geode_result {
    double reward;
    bool terminated; /* the episode ended by its own rules */
    bool truncated;  /* the episode was cut short from outside the task (a turn limit) */
    struct geode_buffer *text;
    struct geode_buffer *info;
} geode_result;

/* Appends to the observation (printf-style). */
void geode_say(geode_result *out, const char *format, ...) __attribute__((format(printf, 2, 3)));
void geode_info_int(geode_result *out, const char *key, int64_t value);
void geode_info_float(geode_result *out, const char *key, double value);
void geode_info_bool(geode_result *out, const char *key, bool value);
void geode_info_str(geode_result *out, const char *key, const char *value);
void geode_info_ints(geode_result *out, const char *key, const int64_t *values, size_t count);

/* ---- the plugin -------------------------------------------------------------------------- */

/* One id the plugin provides: the id users pass to `make`, one line for `geode list`, and the
 * id's full default configuration as a JSON object (the host rejects other keys). */
typedef struct geode_spec {
    const char *id;
    const char *description;
    const char *default_config;
} geode_spec;

/* The plugin: its ids and its env functions. `env` points at `env_size` zeroed bytes the SDK
 * owns, one block per live env. */
typedef struct geode_plugin {
    const geode_spec *specs;
    size_t spec_count;
    size_t env_size;
    /* Builds the env of `id` from its configuration. */
    geode_status (*create)(void *env, const char *id, const geode_config *config);
    /* Starts an episode: write the first observation. */
    geode_status (*reset)(void *env, geode_rng *rng, geode_result *out);
    /* Applies one action (`action` is NUL-terminated, `len` bytes long). An unparsable action
     * is an ordinary step with a format-error reward, not a refusal. */
    geode_status (*step)(void *env, const char *action, size_t len, geode_rng *rng,
                         geode_result *out);
    /* Optional: writes a random action valid in the current state with `geode_say`. */
    geode_status (*sample_random_action)(void *env, geode_rng *rng, geode_result *out);
} geode_plugin;

/* Every plugin defines exactly one: `const geode_plugin GEODE_PLUGIN = { ... };` */
extern const geode_plugin GEODE_PLUGIN;

/* ---- helpers ----------------------------------------------------------------------------- */

/* The content of the last `\boxed{...}` in `text`, copied into `out` (trimmed,
 * NUL-terminated, at most `size` bytes with the NUL); false when there is none or it is too
 * long. */
bool geode_last_boxed(const char *text, char *out, size_t size);

/* Sends `message` to the host's log (printed with GEODE_LOG set; warnings always). */
void geode_log(const char *message);

#ifdef __cplusplus
}
#endif

#endif /* GEODE_H */
