/* The glue between GEODE_PLUGIN and the component contract's `env` export: wit-bindgen's
 * generated C bindings of the `batched-env-plugin` world call these exports (the `batch` ones
 * are in batch.c). Plugin authors never see this file. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"

/* The world's type is embedded by `geode build` rather than by a linked object file. */
void __component_type_object_force_link_batched_env_plugin(void) {}

void glue_set_string(batched_env_plugin_string_t *out, const char *text, size_t len) {
    /* The bindings' post-return frees only non-empty strings: an empty one owns no memory. */
    if (len == 0) {
        out->ptr = NULL;
        out->len = 0;
        return;
    }
    batched_env_plugin_string_dup_n(out, text, len);
}

void glue_refusal(geode_status status, geode_env_types_env_error_t *err) {
    static const uint8_t tags[] = {
        [GEODE_BAD_CONFIG] = GEODE_ENV_TYPES_ENV_ERROR_BAD_CONFIG,
        [GEODE_UNKNOWN_ID] = GEODE_ENV_TYPES_ENV_ERROR_UNKNOWN_ID,
        [GEODE_INVALID_STATE] = GEODE_ENV_TYPES_ENV_ERROR_INVALID_STATE,
        [GEODE_BAD_STATE] = GEODE_ENV_TYPES_ENV_ERROR_BAD_STATE,
        [GEODE_INTERNAL] = GEODE_ENV_TYPES_ENV_ERROR_INTERNAL,
    };
    err->tag = status <= GEODE_INTERNAL ? tags[status] : GEODE_ENV_TYPES_ENV_ERROR_INTERNAL;
    const char *message = geode_failure_message();
    /* Every case carries a string at the same place. */
    glue_set_string(&err->val.internal, message, strlen(message));
}

static bool refuse(geode_status status, const char *message,
                   exports_geode_env_env_env_error_t *err) {
    geode_fail(status, "%s", message);
    glue_refusal(status, err);
    return false;
}

/* Scratch buffers of one call's results, reused. */
static geode_buffer text_buffer, info_buffer;

static geode_result fresh_result(void) {
    buffer_reset(&text_buffer);
    buffer_reset(&info_buffer);
    buffer_append(&text_buffer, "", 0);
    buffer_append(&info_buffer, "", 0);
    return (geode_result){.text = &text_buffer, .info = &info_buffer};
}

static void info_json(const geode_result *out, batched_env_plugin_string_t *info) {
    geode_buffer json = {0};
    buffer_append(&json, "{", 1);
    buffer_append(&json, out->info->data, out->info->len);
    buffer_append(&json, "}", 1);
    info->ptr = (uint8_t *)json.data;
    info->len = json.len;
}

static void seed_from_entropy(glue_instance *self) {
    uint64_t seed = 0;
    /* WASI randomness: virtualized and seeded by the host, so this replays too. */
    if (getentropy(&seed, sizeof seed) != 0) seed = 0x9e3779b97f4a7c15ULL;
    geode_rng_seed(&self->rng, seed);
    self->seeded = true;
}

static geode_rng *generator(glue_instance *self) {
    if (!self->seeded) seed_from_entropy(self);
    return &self->rng;
}

void glue_reseed(glue_instance *self, uint64_t seed) {
    geode_rng_seed(&self->rng, seed);
    self->seeded = true;
}

geode_status glue_reset(glue_instance *self, geode_result *out) {
    *out = fresh_result();
    geode_status status = GEODE_PLUGIN.reset(self->env, generator(self), out);
    if (status == GEODE_OK) self->started = true;
    return status;
}

geode_status glue_step(glue_instance *self, const char *action, size_t len, geode_result *out) {
    if (!self->started) return geode_fail(GEODE_INVALID_STATE, "step called before reset");
    *out = fresh_result();
    return GEODE_PLUGIN.step(self->env, action, len, generator(self), out);
}

void exports_geode_env_env_describe(exports_geode_env_env_list_plugin_spec_t *ret) {
    size_t n = GEODE_PLUGIN.spec_count;
    ret->len = n;
    ret->ptr = calloc(n ? n : 1, sizeof *ret->ptr);
    for (size_t i = 0; i < n; i++) {
        const geode_spec *spec = &GEODE_PLUGIN.specs[i];
        glue_set_string(&ret->ptr[i].id, spec->id, strlen(spec->id));
        glue_set_string(&ret->ptr[i].default_config, spec->default_config, strlen(spec->default_config));
        glue_set_string(&ret->ptr[i].description, spec->description, strlen(spec->description));
    }
}

bool exports_geode_env_env_create(batched_env_plugin_string_t *id,
                                  batched_env_plugin_string_t *config,
                                  exports_geode_env_env_own_instance_t *ret,
                                  exports_geode_env_env_env_error_t *err) {
    char *name = strndup((const char *)id->ptr, id->len);
    geode_config *parsed = config_parse((const char *)config->ptr, config->len);
    batched_env_plugin_string_free(id);
    batched_env_plugin_string_free(config);
    bool known = false;
    for (size_t i = 0; i < GEODE_PLUGIN.spec_count; i++)
        known |= strcmp(GEODE_PLUGIN.specs[i].id, name) == 0;
    geode_status status = !parsed ? GEODE_BAD_CONFIG : GEODE_OK;
    if (status == GEODE_OK && !known)
        status = geode_fail(GEODE_UNKNOWN_ID, "this plugin does not provide `%s`", name);
    exports_geode_env_env_instance_t *self = NULL;
    if (status == GEODE_OK) {
        self = calloc(1, sizeof *self);
        self->env = calloc(1, GEODE_PLUGIN.env_size ? GEODE_PLUGIN.env_size : 1);
        status = GEODE_PLUGIN.create(self->env, name, parsed);
    }
    free(name);
    config_free(parsed);
    if (status != GEODE_OK) {
        if (self) exports_geode_env_env_instance_destructor(self);
        glue_refusal(status, err);
        return false;
    }
    *ret = exports_geode_env_env_instance_new(self);
    return true;
}

/* Enrolled instances by number; an entry is NULL once its instance is gone, and may be reused. */
static glue_instance **members;
static size_t member_count, member_cap;

uint32_t glue_enrol(glue_instance *member) {
    if (member->enrolled) return member->enrolled - 1;
    size_t n = 0;
    while (n < member_count && members[n]) n++;
    if (n == member_count) {
        if (member_count == member_cap) {
            member_cap = member_cap ? 2 * member_cap : 16;
            members = realloc(members, member_cap * sizeof *members);
            if (!members) geode_panic("out of memory");
        }
        member_count++;
    }
    members[n] = member;
    member->enrolled = (uint32_t)n + 1;
    return (uint32_t)n;
}

static void glue_forget(glue_instance *self) {
    if (self->enrolled) members[self->enrolled - 1] = NULL;
    self->enrolled = 0;
}

glue_instance *glue_member(uint32_t number) {
    return number < member_count ? members[number] : NULL;
}

void exports_geode_env_env_instance_destructor(exports_geode_env_env_instance_t *self) {
    glue_forget(self);
    free(self->env);
    free(self);
}

bool exports_geode_env_env_method_instance_reset(exports_geode_env_env_borrow_instance_t self,
                                                 uint64_t *maybe_seed,
                                                 exports_geode_env_env_reset_result_t *ret,
                                                 exports_geode_env_env_env_error_t *err) {
    if (maybe_seed) glue_reseed(self, *maybe_seed);
    geode_result out;
    geode_status status = glue_reset(self, &out);
    if (status != GEODE_OK) {
        glue_refusal(status, err);
        return false;
    }
    glue_set_string(&ret->observation, out.text->data, out.text->len);
    info_json(&out, &ret->info);
    return true;
}

bool exports_geode_env_env_method_instance_step(exports_geode_env_env_borrow_instance_t self,
                                                batched_env_plugin_string_t *action,
                                                exports_geode_env_env_step_result_t *ret,
                                                exports_geode_env_env_env_error_t *err) {
    char *text = strndup((const char *)action->ptr, action->len);
    size_t len = action->len;
    batched_env_plugin_string_free(action);
    geode_result out;
    geode_status status = glue_step(self, text, len, &out);
    free(text);
    if (status != GEODE_OK) {
        glue_refusal(status, err);
        return false;
    }
    glue_set_string(&ret->observation, out.text->data, out.text->len);
    ret->reward = out.reward;
    ret->terminated = out.terminated;
    ret->truncated = out.truncated;
    info_json(&out, &ret->info);
    return true;
}

bool exports_geode_env_env_method_instance_sample_random_action(
    exports_geode_env_env_borrow_instance_t self, batched_env_plugin_string_t *ret,
    exports_geode_env_env_env_error_t *err) {
    if (!GEODE_PLUGIN.sample_random_action)
        return refuse(GEODE_INVALID_STATE, "this env does not sample random actions", err);
    geode_result out = fresh_result();
    geode_status status = GEODE_PLUGIN.sample_random_action(self->env, generator(self), &out);
    if (status != GEODE_OK) {
        glue_refusal(status, err);
        return false;
    }
    glue_set_string(ret, out.text->data, out.text->len);
    return true;
}

/* A snapshot: the generator, the flags, then the env's bytes. */
typedef struct {
    geode_rng rng;
    uint8_t seeded;
    uint8_t started;
} header;

bool exports_geode_env_env_method_instance_get_state(exports_geode_env_env_borrow_instance_t self,
                                                     batched_env_plugin_list_u8_t *ret,
                                                     exports_geode_env_env_env_error_t *err) {
    (void)err;
    header h;
    memset(&h, 0, sizeof h); /* no stray padding bytes in snapshots */
    h.rng = self->rng;
    h.seeded = self->seeded;
    h.started = self->started;
    ret->len = sizeof h + GEODE_PLUGIN.env_size;
    ret->ptr = malloc(ret->len);
    memcpy(ret->ptr, &h, sizeof h);
    memcpy(ret->ptr + sizeof h, self->env, GEODE_PLUGIN.env_size);
    return true;
}

bool exports_geode_env_env_method_instance_set_state(exports_geode_env_env_borrow_instance_t self,
                                                     batched_env_plugin_list_u8_t *state,
                                                     exports_geode_env_env_env_error_t *err) {
    bool fits = state->len == sizeof(header) + GEODE_PLUGIN.env_size;
    if (fits) {
        header h;
        memcpy(&h, state->ptr, sizeof h);
        self->rng = h.rng;
        self->seeded = h.seeded;
        self->started = h.started;
        memcpy(self->env, state->ptr + sizeof h, GEODE_PLUGIN.env_size);
    }
    batched_env_plugin_list_u8_free(state);
    if (!fits) return refuse(GEODE_BAD_STATE, "the snapshot is not of this env", err);
    return true;
}

void geode_log(const char *message) {
    batched_env_plugin_string_t text;
    batched_env_plugin_string_dup(&text, message);
    geode_env_log_log(GEODE_ENV_LOG_LEVEL_INFO, &text);
    batched_env_plugin_string_free(&text);
}
