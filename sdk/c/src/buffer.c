/* Growable text buffers, and results written into them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void reserve(geode_buffer *b, size_t extra) {
    if (b->len + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) cap *= 2;
    char *data = realloc(b->data, cap);
    if (!data) geode_panic("out of memory");
    b->data = data;
    b->cap = cap;
}

void buffer_append(geode_buffer *b, const char *bytes, size_t len) {
    reserve(b, len);
    memcpy(b->data + b->len, bytes, len);
    b->len += len;
    b->data[b->len] = 0;
}

static void buffer_vprintf(geode_buffer *b, const char *format, va_list args) {
    va_list copy;
    va_copy(copy, args);
    int n = vsnprintf(NULL, 0, format, copy);
    va_end(copy);
    if (n < 0) return;
    reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, format, args);
    b->len += (size_t)n;
}

void buffer_printf(geode_buffer *b, const char *format, ...) {
    va_list args;
    va_start(args, format);
    buffer_vprintf(b, format, args);
    va_end(args);
}

void buffer_json_string(geode_buffer *b, const char *text) {
    buffer_append(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        switch (*p) {
        case '"': buffer_append(b, "\\\"", 2); break;
        case '\\': buffer_append(b, "\\\\", 2); break;
        case '\n': buffer_append(b, "\\n", 2); break;
        case '\t': buffer_append(b, "\\t", 2); break;
        case '\r': buffer_append(b, "\\r", 2); break;
        default:
            if (*p < 0x20) buffer_printf(b, "\\u%04x", *p);
            else buffer_append(b, (const char *)p, 1);
        }
    }
    buffer_append(b, "\"", 1);
}

void buffer_reset(geode_buffer *b) {
    b->len = 0;
    if (b->data) b->data[0] = 0;
}

void geode_say(geode_result *out, const char *format, ...) {
    va_list args;
    va_start(args, format);
    buffer_vprintf(out->text, format, args);
    va_end(args);
}

/* Opens the info entry `key`: a separator, the key and the colon. */
static void info_key(geode_result *out, const char *key) {
    geode_buffer *b = out->info;
    if (b->len > 0) buffer_append(b, ",", 1);
    buffer_json_string(b, key);
    buffer_append(b, ":", 1);
}

void geode_info_int(geode_result *out, const char *key, int64_t value) {
    info_key(out, key);
    buffer_printf(out->info, "%lld", (long long)value);
}

void geode_info_float(geode_result *out, const char *key, double value) {
    info_key(out, key);
    if (value != value || value > 1.7976931348623157e308 || value < -1.7976931348623157e308)
        buffer_append(out->info, "null", 4);
    else
        buffer_printf(out->info, "%.17g", value);
}

void geode_info_bool(geode_result *out, const char *key, bool value) {
    info_key(out, key);
    buffer_append(out->info, value ? "true" : "false", value ? 4 : 5);
}

void geode_info_str(geode_result *out, const char *key, const char *value) {
    info_key(out, key);
    buffer_json_string(out->info, value);
}

void geode_info_ints(geode_result *out, const char *key, const int64_t *values, size_t count) {
    info_key(out, key);
    buffer_append(out->info, "[", 1);
    for (size_t i = 0; i < count; i++)
        buffer_printf(out->info, i ? ",%lld" : "%lld", (long long)values[i]);
    buffer_append(out->info, "]", 1);
}
