/* {{name}}: two players race to a target count, adding 1, 2 or 3 in turns. */
#include <string.h>

#include <geode_multiagent.h>

static const char *const PLAYERS[] = {"player_0", "player_1"};

/* The whole state of one env: plain data, so snapshots can copy its bytes. */
typedef struct {
    int64_t target;
    int64_t count;
    int64_t winner; /* the winner's index, or -1 while the race goes on */
} race;

static geode_status race_create(void *state, const char *id, const geode_config *config) {
    race *env = state;
    (void)id;
    GEODE_TRY(geode_config_int(config, "target", &env->target));
    if (env->target < 4)
        return geode_fail(GEODE_BAD_CONFIG, "config key `target`: must be at least 4");
    env->winner = -1;
    return GEODE_OK;
}

static geode_status race_reset(void *state, geode_agents *agents, geode_rng *rng) {
    race *env = state;
    (void)agents;
    env->count = (int64_t)geode_rng_below(rng, 3);
    env->winner = -1;
    return GEODE_OK;
}

static geode_status race_step(void *state, const geode_action *actions, size_t count,
                              geode_agents *agents, geode_rng *rng) {
    race *env = state;
    (void)count;
    (void)rng;
    int me = strcmp(actions[0].agent, PLAYERS[0]) == 0 ? 0 : 1;
    char move[8];
    bool legal = geode_last_boxed(actions[0].action, move, sizeof move) &&
                 (!strcmp(move, "1") || !strcmp(move, "2") || !strcmp(move, "3"));
    if (!legal) {
        env->winner = 1 - me; /* an illegal move forfeits the game */
    } else {
        env->count += move[0] - '0';
        if (env->count >= env->target) env->winner = me;
    }
    if (env->winner >= 0) {
        geode_agents_reward(agents, PLAYERS[env->winner], 1.0);
        geode_agents_reward(agents, PLAYERS[1 - env->winner], -1.0);
        geode_agents_end_all(agents);
    }
    for (int p = 0; p < 2; p++) geode_agents_info_int(agents, PLAYERS[p], "count", env->count);
    return GEODE_OK;
}

static geode_status race_observe(const void *state, const char *agent, const geode_agents *agents,
                                 geode_result *out) {
    const race *env = state;
    if (env->winner >= 0) {
        geode_say(out, "Race to %lld over at %lld: %s won.", (long long)env->target,
                  (long long)env->count, PLAYERS[env->winner]);
    } else {
        geode_say(out, "Race to %lld: the count is %lld. ", (long long)env->target,
                  (long long)env->count);
        if (geode_agents_is_active(agents, agent))
            geode_say(out, "Your turn: add 1, 2 or 3 with \\boxed{n}.");
        else
            geode_say(out, "Waiting for %s.", geode_agents_active(agents, 0));
    }
    for (size_t i = 0; i < geode_agents_message_count(agents); i++) {
        geode_message m = geode_agents_message(agents, i);
        if (!strcmp(m.receiver, agent)) geode_say(out, " %s says: %s", m.sender, m.text);
    }
    return GEODE_OK;
}

static geode_status race_sample(void *state, const char *agent, const geode_agents *agents,
                                geode_rng *rng, geode_result *out) {
    (void)state;
    (void)agent;
    (void)agents;
    geode_say(out, "\\boxed{%d}", (int)geode_rng_below(rng, 3) + 1);
    return GEODE_OK;
}

static const geode_spec SPECS[] = {
    {"{{name}}:Race-v0", "Two players add 1-3 in turns; reaching 10 wins", "{\"target\":10}"},
    {"{{name}}:Race-v0-long", "Two players add 1-3 in turns; reaching 21 wins", "{\"target\":21}"},
};

const geode_multiagent_plugin GEODE_MULTIAGENT_PLUGIN = {
    .specs = SPECS,
    .spec_count = sizeof SPECS / sizeof SPECS[0],
    .env_size = sizeof(race),
    .agents = PLAYERS,
    .agent_count = 2,
    .create = race_create,
    .reset = race_reset,
    .step = race_step,
    .observe = race_observe,
    .sample_random_action = race_sample,
};
