/* Refusal messages and panics. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <geode.h>
#include "internal.h"

static char message[1024];

geode_status geode_fail(geode_status status, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    return status;
}

const char *geode_failure_message(void) { return message; }

_Noreturn void geode_panic(const char *text) {
    fprintf(stderr, "panic: %s\n", text);
    fflush(stderr);
    abort();
}
