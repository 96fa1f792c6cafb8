/**
 * The env's random number generator (xoshiro128**, seeded through SplitMix32), owned by the
 * SDK and reseeded before every seeded reset. Integer-exact in every JavaScript engine, so a
 * seed gives the same draws in the component and in node tests.
 */

function splitmix32(state) {
  let z = (state.x = (state.x + 0x9e3779b9) | 0);
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

export class Rng {
  /** A generator seeded with `seed` (a non-negative integer). */
  constructor(seed = 0) {
    this.seed(seed);
  }

  /** Reseeds: the same seed gives the same draws. `seed` is a number, or a BigInt for all 64
   * bits (a number and a BigInt of equal value give the same draws). */
  seed(seed) {
    const [low, high] =
      typeof seed === "bigint"
        ? [Number(seed & 0xffffffffn), Number((seed >> 32n) & 0xffffffffn)]
        : [seed % 0x100000000, Math.floor(seed / 0x100000000)];
    const mix = { x: low ^ Math.imul(high, 0x27d4eb2d) };
    const s = [splitmix32(mix), splitmix32(mix), splitmix32(mix), splitmix32(mix)];
    if (s.every((v) => v === 0)) s[0] = 1;
    this.s = s;
  }

  /** The state: four 32-bit words (what snapshots hold). Kept as four fields, which QuickJS
   * reads and writes faster than array elements. */
  get s() {
    return [this.s0, this.s1, this.s2, this.s3];
  }

  set s(words) {
    this.s0 = words[0];
    this.s1 = words[1];
    this.s2 = words[2];
    this.s3 = words[3];
  }

  /** The generator as JSON: its state, `{"s": [...]}`. */
  toJSON() {
    return { s: this.s };
  }

  /** A uniform 32-bit unsigned integer. */
  next32() {
    const s0 = this.s0;
    const s1 = this.s1;
    const s2 = this.s2 ^ s0;
    const s3 = this.s3 ^ s1;
    this.s0 = s0 ^ s3;
    this.s1 = s1 ^ s2;
    this.s2 = s2 ^ (s1 << 9);
    this.s3 = rotl(s3, 11);
    return Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
  }

  /** A uniform integer in `[0, n)` (n up to 2^32), without modulo bias. */
  below(n) {
    if (!(n >= 1 && n <= 0x100000000)) throw new RangeError(`below(${n})`);
    const limit = 0x100000000 - (0x100000000 % n);
    for (;;) {
      const x = this.next32();
      if (x < limit) return x % n;
    }
  }

  /** A uniform integer in `[lo, hi]`. */
  int(lo, hi) {
    return lo + this.below(hi - lo + 1);
  }

  /** A uniform float in `[0, 1)`. */
  random() {
    return this.next32() / 0x100000000;
  }

  /** A uniform element of `items`. */
  choice(items) {
    return items[this.below(items.length)];
  }

  /** Shuffles `items` in place (Fisher-Yates) and returns it. */
  shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}

/** A seed for a generator nobody seeded: from `entropy`, which the glue points at the host's
 * (virtualized, replayable) randomness. */
let entropy = () => Math.floor(Math.random() * 0x100000000);

/** Sets the source of unseeded generators' seeds (called by the contract glue). */
export function setEntropy(fn) {
  entropy = fn;
}

/** A generator seeded from the entropy source. */
export function unseeded() {
  return new Rng(entropy());
}

/** The generator for a reset with `seed`: `rng` reseeded (a new one when null), or with no seed
 * `rng` going on (a new one from the entropy source when null). */
export function prepared(rng, seed) {
  if (seed === null || seed === undefined) return rng ?? unseeded();
  const out = rng ?? new Rng(0);
  out.seed(Number(seed));
  return out;
}

const MASK64 = 0xffffffffffffffffn;

/** SplitMix64's output function: a bijective 64-bit mix. */
function mix64(z) {
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return z ^ (z >> 31n);
}

/** The seed (a BigInt) of unseeded episode `number` of `stream` (see `continued`): a hash of
 * the two numbers, distinct for every episode of a stream. */
export function continuationSeed(stream, number) {
  const key = BigInt(stream) & MASK64;
  return mix64(mix64(key ^ 0x243f6a8885a308d3n) ^ (BigInt(number) & MASK64));
}

/** The generator of unseeded episode `number` of `stream`, an episode the host numbered (the
 * batch export's `continued` start): `rng` (a new one when null) reseeded from those two
 * numbers alone, so the host can replay the episode in a fresh instance. */
export function continued(rng, stream, number) {
  const out = rng ?? new Rng(0);
  out.seed(continuationSeed(stream, number));
  return out;
}

function rotl(x, k) {
  return (x << k) | (x >>> (32 - k));
}
