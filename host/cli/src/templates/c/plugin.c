/* {{name}}: say whether each number dealt is even or odd. */
#include <string.h>

#include <geode.h>

#define FORMAT_ERROR (-0.1)

/* The whole state of one env: plain data, so snapshots can copy its bytes. */
typedef struct {
    int64_t rounds;
    int64_t round;
    int64_t score;
    int64_t number;
} parity;

static void ask(parity *env, geode_rng *rng, geode_result *out) {
    env->number = (int64_t)geode_rng_below(rng, 100);
    geode_say(out, "Round %lld of %lld: is %lld even or odd? Answer \\boxed{even} or \\boxed{odd}.",
              (long long)(env->round + 1), (long long)env->rounds, (long long)env->number);
}

static geode_status parity_create(void *state, const char *id, const geode_config *config) {
    parity *env = state;
    (void)id;
    GEODE_TRY(geode_config_int(config, "rounds", &env->rounds));
    if (env->rounds < 1)
        return geode_fail(GEODE_BAD_CONFIG, "config key `rounds`: must be at least 1");
    return GEODE_OK;
}

static geode_status parity_reset(void *state, geode_rng *rng, geode_result *out) {
    parity *env = state;
    env->round = env->score = 0;
    ask(env, rng, out);
    return GEODE_OK;
}

static geode_status parity_step(void *state, const char *action, size_t len, geode_rng *rng,
                                geode_result *out) {
    parity *env = state;
    char answer[8];
    (void)len;
    bool even = geode_last_boxed(action, answer, sizeof answer) && strcmp(answer, "even") == 0;
    bool odd = geode_last_boxed(action, answer, sizeof answer) && strcmp(answer, "odd") == 0;
    if (!even && !odd) {
        geode_say(out, "Answer \\boxed{even} or \\boxed{odd}.");
        out->reward = FORMAT_ERROR;
        out->terminated = true;
        return GEODE_OK;
    }
    bool right = even == (env->number % 2 == 0);
    env->round += 1;
    env->score += right;
    out->reward = right ? 1.0 : 0.0;
    geode_info_int(out, "round", env->round);
    geode_info_int(out, "score", env->score);
    const char *verdict = right ? "Right." : "Wrong.";
    if (env->round == env->rounds) {
        geode_say(out, "%s Done: %lld of %lld.", verdict, (long long)env->score,
                  (long long)env->rounds);
        out->terminated = true;
        return GEODE_OK;
    }
    geode_say(out, "%s ", verdict);
    ask(env, rng, out);
    return GEODE_OK;
}

static geode_status parity_sample(void *state, geode_rng *rng, geode_result *out) {
    (void)state;
    geode_say(out, geode_rng_below(rng, 2) ? "\\boxed{odd}" : "\\boxed{even}");
    return GEODE_OK;
}

static const geode_spec specs[] = {
    {"{{name}}:Parity-v0", "Say whether numbers are even or odd, 3 rounds", "{\"rounds\": 3}"},
    {"{{name}}:Parity-v0-long", "Say whether numbers are even or odd, 10 rounds", "{\"rounds\": 10}"},
};

const geode_plugin GEODE_PLUGIN = {
    .specs = specs,
    .spec_count = sizeof specs / sizeof specs[0],
    .env_size = sizeof(parity),
    .create = parity_create,
    .reset = parity_reset,
    .step = parity_step,
    .sample_random_action = parity_sample,
};
