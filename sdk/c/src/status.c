/* Refusal messages and panics. */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

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

/* Writes the message straight to stderr (no stdio buffers, no allocation: a panic may come
 * from an exhausted heap) and traps; the host puts the stderr tail in the trap's message.
 * (`abort()` is not used: with the heap exhausted it spins until the deadline.) */
_Noreturn void geode_panic(const char *text) {
    char line[512];
    int n = snprintf(line, sizeof line, "panic: %s\n", text);
    if (n > 0) write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    __builtin_trap();
}
