/*
 * geode_multiagent.h: multi-agent environment plugins for geode, written in C.
 *
 * The env writes only its rules: the SDK keeps the roster (`geode_agents`: the live agents,
 * whose turn it is, each step's rewards, ends and infos, the totals, the mailbox) and removes
 * agents that terminated or were truncated after each step. Describe the env in one
 * `GEODE_MULTIAGENT_PLUGIN` definition, in a project whose `geode.json` says
 * `{"kind": "multiagent"}` (`geode new --kind multiagent --lang c` writes one):
 *
 *     static const char *const players[] = {"player_0", "player_1"};
 *     const geode_multiagent_plugin GEODE_MULTIAGENT_PLUGIN = {
 *         .specs = specs, .spec_count = 1, .env_size = sizeof(game),
 *         .agents = players, .agent_count = 2,
 *         .create = game_create, .reset = game_reset, .step = game_step,
 *         .observe = game_observe, .sample_random_action = game_sample,
 *     };
 *
 * As for single-agent envs, the env's state is a plain struct (snapshots copy its bytes) and
 * everything random comes from the `rng` handed in.
 */
#ifndef GEODE_MULTIAGENT_H
#define GEODE_MULTIAGENT_H

#include <geode.h>

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many agents are live at once, and ever take part in one episode. */
#define GEODE_MAX_AGENTS 16
/* An agent's name has at most this many bytes, with its NUL. */
#define GEODE_AGENT_NAME 32

/* The episode's agents, turn and mailbox, kept by the SDK. */
typedef struct geode_agents geode_agents;

/* One agent's action in a step (`action` is NUL-terminated, `len` bytes long). */
typedef struct geode_action {
    const char *agent;
    const char *action;
    size_t len;
} geode_action;

/* One message between agents. */
typedef struct geode_message {
    const char *sender;
    const char *receiver;
    const char *text;
} geode_message;

/* The live agents, in turn order. */
size_t geode_agents_count(const geode_agents *agents);
const char *geode_agents_live(const geode_agents *agents, size_t index);
/* The agents whose actions the next step takes (one in turn-based mode, every live agent in
 * parallel mode). */
size_t geode_agents_active_count(const geode_agents *agents);
const char *geode_agents_active(const geode_agents *agents, size_t index);
bool geode_agents_is_active(const geode_agents *agents, const char *agent);
bool geode_agents_is_live(const geode_agents *agents, const char *agent);

/* Outcomes of this step (ignored for an agent not live): a reward added to its reward, its
 * end (it leaves the roster after the step), info entries (each key once). */
void geode_agents_reward(geode_agents *agents, const char *agent, double reward);
void geode_agents_terminate(geode_agents *agents, const char *agent);
void geode_agents_truncate(geode_agents *agents, const char *agent);
/* Ends the episode for every live agent (give rewards with geode_agents_reward). */
void geode_agents_end_all(geode_agents *agents);
void geode_agents_info_int(geode_agents *agents, const char *agent, const char *key, int64_t value);
void geode_agents_info_float(geode_agents *agents, const char *agent, const char *key,
                             double value);
void geode_agents_info_bool(geode_agents *agents, const char *agent, const char *key, bool value);
void geode_agents_info_str(geode_agents *agents, const char *agent, const char *key,
                           const char *value);
/* The sum of `agent`'s rewards this episode. */
double geode_agents_cumulative_reward(const geode_agents *agents, const char *agent);

/* The roster from inside the env: bring an agent in (last in turn order; no-op when live), take
 * one out (no-op when absent). */
geode_status geode_agents_add(geode_agents *agents, const char *agent);
void geode_agents_remove(geode_agents *agents, const char *agent);

/* The mailbox: queue `text` from `sender` for `receiver` (both live), or for every other live
 * agent; read every message of the episode, oldest first. */
geode_status geode_agents_send(geode_agents *agents, const char *sender, const char *receiver,
                               const char *text);
geode_status geode_agents_broadcast(geode_agents *agents, const char *sender, const char *text);
size_t geode_agents_message_count(const geode_agents *agents);
geode_message geode_agents_message(const geode_agents *agents, size_t index);

/* The plugin: its ids, agents and env functions. `env` points at `env_size` zeroed bytes the
 * SDK owns, one block per live env. */
typedef struct geode_multiagent_plugin {
    const geode_spec *specs;
    size_t spec_count;
    size_t env_size;
    /* Every agent an episode may have, in turn order; all are live after reset. */
    const char *const *agents;
    size_t agent_count;
    /* Every live agent acts at each step (default: one at a time, in turn order). */
    bool parallel;
    /* Builds the env of `id` from its configuration. */
    geode_status (*create)(void *env, const char *id, const geode_config *config);
    /* Starts an episode; `agents` is already reset (every agent live, the first one's turn). */
    geode_status (*reset)(void *env, geode_agents *agents, geode_rng *rng);
    /* Applies the active agents' actions (in turn order), recording outcomes on `agents`.
     * Illegal moves are the game's business (a penalty, a forfeit), not a refusal. */
    geode_status (*step)(void *env, const geode_action *actions, size_t count,
                         geode_agents *agents, geode_rng *rng);
    /* Writes what `agent` sees now with `geode_say`. */
    geode_status (*observe)(const void *env, const char *agent, const geode_agents *agents,
                            geode_result *out);
    /* Optional: writes a random action for `agent`, legal now, with `geode_say`. */
    geode_status (*sample_random_action)(void *env, const char *agent, const geode_agents *agents,
                                         geode_rng *rng, geode_result *out);
} geode_multiagent_plugin;

/* Every multi-agent plugin defines exactly one. */
extern const geode_multiagent_plugin GEODE_MULTIAGENT_PLUGIN;

#ifdef __cplusplus
}
#endif

#endif /* GEODE_MULTIAGENT_H */
