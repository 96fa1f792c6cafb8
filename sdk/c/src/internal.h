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

/* The message of the last `geode_fail`. */
const char *geode_failure_message(void);

/* A parsed configuration from JSON text; NULL and a GEODE_BAD_CONFIG failure if malformed. */
geode_config *config_parse(const char *json, size_t len);
void config_free(geode_config *config);

#endif
