/* The env's generator: xoshiro256** seeded through SplitMix64. */
#include <geode.h>

#include "internal.h"

/* SplitMix64's output function: a bijective 64-bit mix. */
static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t splitmix64(uint64_t *x) { return mix64(*x += 0x9e3779b97f4a7c15ULL); }

uint64_t rng_continuation_seed(uint64_t stream, uint64_t number) {
    return mix64(mix64(stream ^ 0x243f6a8885a308d3ULL) ^ number);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void geode_rng_seed(geode_rng *rng, uint64_t seed) {
    for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&seed);
}

uint64_t geode_rng_next(geode_rng *rng) {
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t geode_rng_below(geode_rng *rng, uint64_t n) {
    if (n == 0) geode_panic("geode_rng_below(0)");
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    for (;;) {
        uint64_t x = geode_rng_next(rng);
        if (x < limit) return x % n;
    }
}

int64_t geode_rng_range(geode_rng *rng, int64_t lo, int64_t hi) {
    return lo + (int64_t)geode_rng_below(rng, (uint64_t)(hi - lo) + 1);
}

double geode_rng_float(geode_rng *rng) {
    return (double)(geode_rng_next(rng) >> 11) * 0x1.0p-53;
}
