/* Answer parsing shared by text games: the last \boxed{...}. */
#include <string.h>

#include <geode.h>

bool geode_last_boxed(const char *text, char *out, size_t size) {
    const char *marker = "\\boxed{";
    const char *start = NULL;
    for (const char *p = strstr(text, marker); p; p = strstr(p + 1, marker)) start = p;
    if (!start) return false;
    start += strlen(marker);
    const char *end = strchr(start, '}');
    if (!end) return false;
    while (start < end && (*start == ' ' || *start == '\t' || *start == '\n')) start++;
    while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n')) end--;
    size_t n = (size_t)(end - start);
    if (n + 1 > size) return false;
    memcpy(out, start, n);
    out[n] = 0;
    return true;
}
