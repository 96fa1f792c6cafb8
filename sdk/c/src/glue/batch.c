/* The glue of the contract's `batch` export: the host steps or resets several envs of one
 * component in one call, and each answers exactly as its own `step`/`reset` of the `env` export
 * would (env.c), the results packed column by column. A refusal (a status other than GEODE_OK)
 * is the member's typed error and its entry is flagged refused; `geode_panic` traps the whole
 * instance, and the host recovers the other members by replaying them.
 *
 * A `continued` start reseeds the member's generator from the episode's (stream, number) alone
 * (rng_continuation_seed), so the host can replay the episode. Plugin authors never see this
 * file. */
#include <stdlib.h>
#include <string.h>

#include "env.h"

enum { TERMINATED = 1, TRUNCATED = 2, REFUSED = 4 };

uint32_t exports_geode_env_batch_enrol(exports_geode_env_batch_borrow_instance_t member) {
    return glue_enrol(member);
}

/* A batch call's results under construction, one entry at a time (room for `cap` entries). */
typedef struct {
    geode_buffer observations, infos;
    uint32_t *observation_ends, *info_ends;
    double *rewards;
    uint8_t *flags;
    exports_geode_env_batch_tuple2_u32_env_error_t *errors;
    size_t len, error_count;
} columns;

static void *room(size_t count, size_t size) {
    void *p = malloc((count ? count : 1) * size);
    if (!p) geode_panic("out of memory");
    return p;
}

static columns columns_for(size_t cap) {
    columns c = {0};
    c.observation_ends = room(cap, sizeof *c.observation_ends);
    c.info_ends = room(cap, sizeof *c.info_ends);
    c.rewards = room(cap, sizeof *c.rewards);
    c.flags = room(cap, sizeof *c.flags);
    c.errors = room(cap, sizeof *c.errors);
    return c;
}

static void push(columns *c, const char *observation, size_t observation_len, const char *info,
                 size_t info_len, bool braces, double reward, uint8_t flags) {
    buffer_append(&c->observations, observation, observation_len);
    c->observation_ends[c->len] = (uint32_t)c->observations.len;
    if (braces) buffer_append(&c->infos, "{", 1);
    buffer_append(&c->infos, info, info_len);
    if (braces) buffer_append(&c->infos, "}", 1);
    c->info_ends[c->len] = (uint32_t)c->infos.len;
    c->rewards[c->len] = reward;
    c->flags[c->len] = flags;
    c->len++;
}

/* Appends the entry of a call that returned `status` with `out` (its observation and info). */
static void push_result(columns *c, geode_status status, const geode_result *out, bool step) {
    if (status != GEODE_OK) {
        exports_geode_env_batch_tuple2_u32_env_error_t *e = &c->errors[c->error_count++];
        e->f0 = (uint32_t)c->len;
        glue_refusal(status, &e->f1);
        push(c, "", 0, "", 0, false, 0.0, REFUSED);
        return;
    }
    uint8_t flags = 0;
    if (step) flags = (out->terminated ? TERMINATED : 0) | (out->truncated ? TRUNCATED : 0);
    push(c, out->text->data, out->text->len, out->info->data, out->info->len, true,
         step ? out->reward : 0.0, flags);
}

/* `p`, handed over as a list or string of `len` items: the post-return of wit-bindgen's
 * bindings frees only non-empty ones, so an empty one is freed here. */
static void *handed(void *p, size_t len) {
    if (len > 0) return p;
    free(p);
    return NULL;
}

static void finish(columns *c, exports_geode_env_batch_batch_results_t *ret) {
    ret->observations.ptr = handed(c->observations.data, c->observations.len);
    ret->observations.len = c->observations.len;
    ret->infos.ptr = handed(c->infos.data, c->infos.len);
    ret->infos.len = c->infos.len;
    ret->observation_ends.ptr = handed(c->observation_ends, c->len);
    ret->observation_ends.len = c->len;
    ret->info_ends.ptr = handed(c->info_ends, c->len);
    ret->info_ends.len = c->len;
    ret->rewards.ptr = handed(c->rewards, c->len);
    ret->rewards.len = c->len;
    ret->flags.ptr = handed(c->flags, c->len);
    ret->flags.len = c->len;
    ret->errors.ptr = handed(c->errors, c->error_count);
    ret->errors.len = c->error_count;
}

/* Whether byte `at` of the `len` bytes `text` starts a UTF-8 character (or is the end). */
static bool char_start(const uint8_t *text, size_t len, size_t at) {
    return at == len || (text[at] & 0xc0) != 0x80;
}

/* Steps member `number` with action bytes `start..end` of `actions`. */
static void step_member(columns *c, uint32_t number, const batched_env_plugin_string_t *actions,
                        size_t start, size_t end) {
    static geode_buffer action;
    glue_instance *self = glue_member(number);
    geode_result out = {0};
    geode_status status;
    if (!self) {
        status = geode_fail(GEODE_INVALID_STATE, "no live instance is enrolled as number %u",
                            (unsigned)number);
    } else if (start > end || end > actions->len || !char_start(actions->ptr, actions->len, start) ||
               !char_start(actions->ptr, actions->len, end)) {
        status = geode_fail(GEODE_INTERNAL, "entry %zu: action bounds %zu..%zu do not fit the "
                            "actions text", c->len, start, end);
    } else {
        buffer_reset(&action);
        buffer_append(&action, (const char *)actions->ptr + start, end - start);
        status = glue_step(self, action.data, end - start, &out);
    }
    push_result(c, status, &out, true);
}

/* Starts member `number`'s next episode as `start` says (NULL: the call gave none). */
static void reset_member(columns *c, uint32_t number,
                         const exports_geode_env_batch_episode_start_t *start) {
    glue_instance *self = glue_member(number);
    geode_result out = {0};
    geode_status status;
    if (!self) {
        status = geode_fail(GEODE_INVALID_STATE, "no live instance is enrolled as number %u",
                            (unsigned)number);
    } else if (!start) {
        status = geode_fail(GEODE_INTERNAL, "entry %zu has no episode start", c->len);
    } else {
        if (start->tag == EXPORTS_GEODE_ENV_BATCH_EPISODE_START_SEEDED) {
            glue_reseed(self, start->val.seeded);
        } else {
            const exports_geode_env_batch_continuation_t *on = &start->val.continued;
            glue_reseed(self, rng_continuation_seed(on->stream, on->number));
        }
        status = glue_reset(self, &out);
    }
    push_result(c, status, &out, false);
}

/* Steps each of the `members` with its action. */
static void step_all(columns *c, const batched_env_plugin_list_u32_t *numbers,
                     const batched_env_plugin_string_t *actions,
                     const batched_env_plugin_list_u32_t *ends) {
    size_t start = 0;
    for (size_t k = 0; k < numbers->len; k++) {
        size_t end = k < ends->len ? ends->ptr[k] : SIZE_MAX;
        step_member(c, numbers->ptr[k], actions, start, end);
        if (end > start) start = end;
    }
}

void exports_geode_env_batch_step_each(batched_env_plugin_list_u32_t *numbers,
                                       batched_env_plugin_string_t *actions,
                                       batched_env_plugin_list_u32_t *action_ends,
                                       exports_geode_env_batch_batch_results_t *ret) {
    columns c = columns_for(numbers->len);
    step_all(&c, numbers, actions, action_ends);
    finish(&c, ret);
    batched_env_plugin_list_u32_free(numbers);
    batched_env_plugin_string_free(actions);
    batched_env_plugin_list_u32_free(action_ends);
}

void exports_geode_env_batch_reset_each(batched_env_plugin_list_u32_t *numbers,
                                        exports_geode_env_batch_list_episode_start_t *starts,
                                        exports_geode_env_batch_batch_results_t *ret) {
    columns c = columns_for(numbers->len);
    for (size_t k = 0; k < numbers->len; k++)
        reset_member(&c, numbers->ptr[k], k < starts->len ? &starts->ptr[k] : NULL);
    finish(&c, ret);
    batched_env_plugin_list_u32_free(numbers);
    exports_geode_env_batch_list_episode_start_free(starts);
}

void exports_geode_env_batch_step_each_then_reset(
    batched_env_plugin_list_u32_t *numbers, batched_env_plugin_string_t *actions,
    batched_env_plugin_list_u32_t *action_ends,
    exports_geode_env_batch_list_episode_start_t *starts,
    exports_geode_env_batch_batch_results_t *ret) {
    columns c = columns_for(2 * numbers->len);
    step_all(&c, numbers, actions, action_ends);
    for (size_t k = 0; k < numbers->len; k++) {
        uint8_t flags = c.flags[k];
        if (!(flags & REFUSED) && (flags & (TERMINATED | TRUNCATED)))
            reset_member(&c, numbers->ptr[k], k < starts->len ? &starts->ptr[k] : NULL);
    }
    finish(&c, ret);
    batched_env_plugin_list_u32_free(numbers);
    batched_env_plugin_string_free(actions);
    batched_env_plugin_list_u32_free(action_ends);
    exports_geode_env_batch_list_episode_start_free(starts);
}
