/* The configuration: a flat JSON object parsed into typed entries. Nested arrays and objects
 * are accepted and skipped (no getter reads them). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef enum { KIND_NUMBER, KIND_STRING, KIND_BOOL, KIND_NULL, KIND_OTHER } kind;

typedef struct entry {
    char *key;
    kind kind;
    double number;
    bool integral;
    int64_t integer;
    bool flag;
    char *string;
} entry;

struct geode_config {
    entry *entries;
    size_t count;
};

typedef struct {
    const char *p;
    const char *end;
} cursor;

static void skip_space(cursor *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\t' || *c->p == '\r'))
        c->p++;
}

static bool literal(cursor *c, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0) return false;
    c->p += n;
    return true;
}

static void put_utf8(geode_buffer *b, unsigned code) {
    char out[4];
    size_t n;
    if (code < 0x80) { out[0] = (char)code; n = 1; }
    else if (code < 0x800) { out[0] = (char)(0xc0 | code >> 6); out[1] = (char)(0x80 | (code & 0x3f)); n = 2; }
    else if (code < 0x10000) {
        out[0] = (char)(0xe0 | code >> 12); out[1] = (char)(0x80 | (code >> 6 & 0x3f));
        out[2] = (char)(0x80 | (code & 0x3f)); n = 3;
    } else {
        out[0] = (char)(0xf0 | code >> 18); out[1] = (char)(0x80 | (code >> 12 & 0x3f));
        out[2] = (char)(0x80 | (code >> 6 & 0x3f)); out[3] = (char)(0x80 | (code & 0x3f)); n = 4;
    }
    buffer_append(b, out, n);
}

static bool hex4(cursor *c, unsigned *out) {
    if (c->end - c->p < 4) return false;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char h = *c->p++;
        v <<= 4;
        if (h >= '0' && h <= '9') v |= (unsigned)(h - '0');
        else if (h >= 'a' && h <= 'f') v |= (unsigned)(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F') v |= (unsigned)(h - 'A' + 10);
        else return false;
    }
    *out = v;
    return true;
}

/* A string literal (the cursor on its opening quote), decoded into a new NUL-terminated copy. */
static char *string(cursor *c) {
    if (c->p >= c->end || *c->p != '"') return NULL;
    c->p++;
    geode_buffer b = {0};
    buffer_append(&b, "", 0);
    while (c->p < c->end && *c->p != '"') {
        char ch = *c->p++;
        if (ch != '\\') { buffer_append(&b, &ch, 1); continue; }
        if (c->p >= c->end) break;
        char esc = *c->p++;
        unsigned code;
        switch (esc) {
        case 'n': buffer_append(&b, "\n", 1); break;
        case 't': buffer_append(&b, "\t", 1); break;
        case 'r': buffer_append(&b, "\r", 1); break;
        case 'b': buffer_append(&b, "\b", 1); break;
        case 'f': buffer_append(&b, "\f", 1); break;
        case 'u':
            if (!hex4(c, &code)) { free(b.data); return NULL; }
            if (code >= 0xd800 && code < 0xdc00 && literal(c, "\\u")) {
                unsigned low;
                if (!hex4(c, &low)) { free(b.data); return NULL; }
                code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
            }
            put_utf8(&b, code);
            break;
        default: buffer_append(&b, &esc, 1);
        }
    }
    if (c->p >= c->end) { free(b.data); return NULL; }
    c->p++;
    return b.data;
}

/* Skips one value of any kind; false if malformed. */
static bool skip_value(cursor *c) {
    skip_space(c);
    if (c->p >= c->end) return false;
    if (*c->p == '"') { char *s = string(c); free(s); return s != NULL; }
    if (*c->p == '[' || *c->p == '{') {
        int depth = 0;
        bool in_string = false;
        for (; c->p < c->end; c->p++) {
            char ch = *c->p;
            if (in_string) {
                if (ch == '\\') c->p++;
                else if (ch == '"') in_string = false;
            } else if (ch == '"') in_string = true;
            else if (ch == '[' || ch == '{') depth++;
            else if ((ch == ']' || ch == '}') && --depth == 0) { c->p++; return true; }
        }
        return false;
    }
    while (c->p < c->end && *c->p != ',' && *c->p != '}' && *c->p != ']') c->p++;
    return true;
}

static bool value(cursor *c, entry *e) {
    skip_space(c);
    if (c->p >= c->end) return false;
    char ch = *c->p;
    if (ch == '"') { e->kind = KIND_STRING; e->string = string(c); return e->string != NULL; }
    if (literal(c, "true")) { e->kind = KIND_BOOL; e->flag = true; return true; }
    if (literal(c, "false")) { e->kind = KIND_BOOL; e->flag = false; return true; }
    if (literal(c, "null")) { e->kind = KIND_NULL; return true; }
    if (ch == '-' || (ch >= '0' && ch <= '9')) {
        char digits[64];
        size_t n = 0;
        bool integral = true;
        while (c->p < c->end && n + 1 < sizeof digits && strchr("+-0123456789.eE", *c->p)) {
            if (strchr(".eE", *c->p)) integral = false;
            digits[n++] = *c->p++;
        }
        digits[n] = 0;
        e->kind = KIND_NUMBER;
        e->number = strtod(digits, NULL);
        e->integral = integral;
        e->integer = integral ? strtoll(digits, NULL, 10) : (int64_t)e->number;
        if (!integral && e->number == (double)(int64_t)e->number) e->integral = true;
        return true;
    }
    e->kind = KIND_OTHER;
    return skip_value(c);
}

void config_free(geode_config *config) {
    if (!config) return;
    for (size_t i = 0; i < config->count; i++) {
        free(config->entries[i].key);
        free(config->entries[i].string);
    }
    free(config->entries);
    free(config);
}

geode_config *config_parse(const char *json, size_t len) {
    cursor c = {json, json + len};
    geode_config *config = calloc(1, sizeof *config);
    skip_space(&c);
    if (!literal(&c, "{")) goto bad;
    skip_space(&c);
    if (literal(&c, "}")) return config;
    for (;;) {
        skip_space(&c);
        entry e = {0};
        e.key = string(&c);
        if (!e.key) goto bad;
        skip_space(&c);
        if (!literal(&c, ":") || !value(&c, &e)) { free(e.key); free(e.string); goto bad; }
        config->entries = realloc(config->entries, (config->count + 1) * sizeof(entry));
        config->entries[config->count++] = e;
        skip_space(&c);
        if (literal(&c, "}")) return config;
        if (!literal(&c, ",")) goto bad;
    }
bad:
    config_free(config);
    geode_fail(GEODE_BAD_CONFIG, "the configuration is not a JSON object");
    return NULL;
}

static const entry *find(const geode_config *config, const char *key) {
    for (size_t i = 0; i < config->count; i++)
        if (strcmp(config->entries[i].key, key) == 0) return &config->entries[i];
    return NULL;
}

static geode_status wrong(const char *key, const entry *e, const char *what) {
    if (!e) return geode_fail(GEODE_BAD_CONFIG, "config key `%s`: missing", key);
    return geode_fail(GEODE_BAD_CONFIG, "config key `%s`: expected %s", key, what);
}

geode_status geode_config_int(const geode_config *config, const char *key, int64_t *out) {
    const entry *e = find(config, key);
    if (!e || e->kind != KIND_NUMBER || !e->integral) return wrong(key, e, "an integer");
    *out = e->integer;
    return GEODE_OK;
}

geode_status geode_config_float(const geode_config *config, const char *key, double *out) {
    const entry *e = find(config, key);
    if (!e || e->kind != KIND_NUMBER) return wrong(key, e, "a number");
    *out = e->number;
    return GEODE_OK;
}

geode_status geode_config_bool(const geode_config *config, const char *key, bool *out) {
    const entry *e = find(config, key);
    if (!e || e->kind != KIND_BOOL) return wrong(key, e, "true or false");
    *out = e->flag;
    return GEODE_OK;
}

geode_status geode_config_str(const geode_config *config, const char *key, char *out, size_t size) {
    const entry *e = find(config, key);
    if (!e || e->kind != KIND_STRING) return wrong(key, e, "a string");
    size_t n = strlen(e->string);
    if (n + 1 > size)
        return geode_fail(GEODE_BAD_CONFIG, "config key `%s`: longer than %zu bytes", key, size - 1);
    memcpy(out, e->string, n + 1);
    return GEODE_OK;
}
