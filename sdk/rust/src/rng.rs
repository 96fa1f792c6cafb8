//! The random generator every env draws from, owned by the SDK (one per instance).
//!
//! It runs one of two engines:
//! - **Python** ([`Rng::seeded`], [`Rng::seed`]): Mersenne Twister with CPython's seeding and
//!   integer/float/choice algorithms, so it draws exactly the numbers CPython's `random` module
//!   draws. GEM's games use Python's global `random` seeded with `random.seed(seed)`; drawing the
//!   same way means a geode game reset with seed `s` starts from the state GEM's game starts
//!   from with seed `s`, so episodes can be compared one to one. A user seed always selects it.
//! - **Fast** ([`Rng::continued`]): xoshiro256** keyed by an unseeded episode's
//!   `(stream, number)` (see [`EpisodeStart::Continued`](crate::EpisodeStart::Continued)). It
//!   is a pure function of those two numbers, so the host can replay the episode in a fresh
//!   instance, and it starts in a few nanoseconds instead of the microsecond or two the
//!   624-word Mersenne Twister initialisation costs.
//!
//! Every draw method works on both engines; on the Python engine each is bit-exact with CPython.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

const N: usize = 624;
const M: usize = 397;

/// The SDK's random generator: CPython's Mersenne Twister after a user seed, a fast
/// counter-keyed generator for unseeded episodes the host numbers (see the module docs).
#[derive(Clone)]
pub struct Rng {
    engine: Engine,
}

#[derive(Clone)]
enum Engine {
    /// CPython's `random`: MT19937 and its position in the current block.
    Python { state: Box<[u32; N]>, index: usize },
    /// xoshiro256** (never all zero).
    Fast { s: [u64; 4] },
}

impl std::fmt::Debug for Rng {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.engine {
            Engine::Python { index, .. } => f
                .debug_struct("Rng")
                .field("engine", &"python")
                .field("index", index)
                .finish_non_exhaustive(),
            Engine::Fast { .. } => f
                .debug_struct("Rng")
                .field("engine", &"fast")
                .finish_non_exhaustive(),
        }
    }
}

/// SplitMix64's output function: a bijective 64-bit mix.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One SplitMix64 step.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    mix(*state)
}

/// The xoshiro256** state for `(stream, number)`: two independent 64-bit hashes of the pair,
/// each expanded by SplitMix64, so every state word depends on both numbers.
fn fast_state(stream: u64, number: u64) -> [u64; 4] {
    let mut x = mix(mix(stream ^ 0x243f_6a88_85a3_08d3) ^ number);
    let mut y =
        mix(mix(stream ^ 0x1319_8a2e_0370_7344).wrapping_add(number) ^ 0xa409_3822_299f_31d0);
    let s = [
        splitmix(&mut x),
        splitmix(&mut y),
        splitmix(&mut x),
        splitmix(&mut y),
    ];
    if s == [0; 4] {
        [0x9e37_79b9_7f4a_7c15, 0, 0, 0]
    } else {
        s
    }
}

impl Rng {
    /// A generator in the state `random.seed(seed)` leaves CPython's generator in.
    pub fn seeded(seed: u64) -> Self {
        let mut rng = Rng {
            engine: Engine::Python {
                state: Box::new([0; N]),
                index: N,
            },
        };
        rng.seed(seed);
        rng
    }

    /// The fast generator of the unseeded episode `number` of `stream`: a pure function of the
    /// two numbers (the same pair draws the same numbers), cheap to create. Its draws are not
    /// CPython's; [`Rng::seed`] switches back to CPython's generator.
    pub fn continued(stream: u64, number: u64) -> Self {
        Rng {
            engine: Engine::Fast {
                s: fast_state(stream, number),
            },
        }
    }

    /// Whether this is the fast generator of [`Rng::continued`] (not CPython's).
    pub fn is_continued(&self) -> bool {
        matches!(self.engine, Engine::Fast { .. })
    }

    /// Reseeds like `random.seed(seed)` for a non-negative integer seed (switching to CPython's
    /// generator if this was a [`Rng::continued`] one).
    pub fn seed(&mut self, seed: u64) {
        let low = seed as u32;
        let high = (seed >> 32) as u32;
        if let Engine::Fast { .. } = self.engine {
            self.engine = Engine::Python {
                state: Box::new([0; N]),
                index: N,
            };
        }
        let Engine::Python { state, index } = &mut self.engine else {
            unreachable!("the engine was just made CPython's")
        };
        if high == 0 {
            init_by_array(state, &[low]);
        } else {
            init_by_array(state, &[low, high]);
        }
        *index = N;
    }

    /// The next raw 32-bit output.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        match &mut self.engine {
            Engine::Python { state, index } => {
                if *index >= N {
                    twist(state);
                    *index = 0;
                }
                let mut y = state[*index];
                *index += 1;
                y ^= y >> 11;
                y ^= (y << 7) & 0x9d2c_5680;
                y ^= (y << 15) & 0xefc6_0000;
                y ^ (y >> 18)
            }
            Engine::Fast { s } => (xoshiro(s) >> 32) as u32,
        }
    }

    /// `random.getrandbits(k)` for `k <= 64`.
    #[inline]
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        debug_assert!(k <= 64, "getrandbits({k}): at most 64 bits");
        if let Engine::Fast { s } = &mut self.engine {
            return if k == 0 { 0 } else { xoshiro(s) >> (64 - k) };
        }
        match k {
            0 => 0,
            1..=32 => u64::from(self.next_u32() >> (32 - k)),
            _ => {
                let low = u64::from(self.next_u32());
                let high = u64::from(self.next_u32() >> (64 - k));
                low | (high << 32)
            }
        }
    }

    /// A uniform integer in `0..n` (`random._randbelow`); 0 when `n` is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let bits = 64 - n.leading_zeros();
        loop {
            let r = self.getrandbits(bits);
            if r < n {
                return r;
            }
        }
    }

    /// `random.randint(low, high)`: a uniform integer in `low..=high`.
    pub fn randint(&mut self, low: i64, high: i64) -> i64 {
        assert!(low <= high, "randint: empty range {low}..={high}");
        let span = (high - low) as u64 + 1;
        low + self.below(span) as i64
    }

    /// `random.randrange(start, stop)`: a uniform integer in `start..stop`.
    pub fn randrange(&mut self, start: i64, stop: i64) -> i64 {
        assert!(start < stop, "randrange: empty range {start}..{stop}");
        start + self.below((stop - start) as u64) as i64
    }

    /// `random.random()`: a float in `[0, 1)` with 53 random bits.
    pub fn random(&mut self) -> f64 {
        if let Engine::Fast { s } = &mut self.engine {
            return (xoshiro(s) >> 11) as f64 / 9_007_199_254_740_992.0;
        }
        let a = u64::from(self.next_u32() >> 5);
        let b = u64::from(self.next_u32() >> 6);
        (a as f64 * 67_108_864.0 + b as f64) / 9_007_199_254_740_992.0
    }

    /// `random.choice(items)`; `None` for an empty slice.
    pub fn choice<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            return None;
        }
        let i = self.below(items.len() as u64) as usize;
        items.get(i)
    }

    /// `random.shuffle(items)`, in place.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// One xoshiro256** output.
#[inline(always)]
fn xoshiro(s: &mut [u64; 4]) -> u64 {
    let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
    let t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = s[3].rotate_left(45);
    result
}

fn init_genrand(state: &mut [u32; N], s: u32) {
    state[0] = s;
    for i in 1..N {
        let prev = state[i - 1];
        state[i] = 1_812_433_253u32
            .wrapping_mul(prev ^ (prev >> 30))
            .wrapping_add(i as u32);
    }
}

fn init_by_array(state: &mut [u32; N], key: &[u32]) {
    init_genrand(state, 19_650_218);
    let (mut i, mut j) = (1usize, 0usize);
    for _ in 0..N.max(key.len()) {
        let prev = state[i - 1];
        state[i] = (state[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
            .wrapping_add(key[j])
            .wrapping_add(j as u32);
        i += 1;
        j += 1;
        if i >= N {
            state[0] = state[N - 1];
            i = 1;
        }
        if j >= key.len() {
            j = 0;
        }
    }
    for _ in 0..N - 1 {
        let prev = state[i - 1];
        state[i] =
            (state[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
        i += 1;
        if i >= N {
            state[0] = state[N - 1];
            i = 1;
        }
    }
    state[0] = 0x8000_0000;
}

fn twist(state: &mut [u32; N]) {
    for k in 0..N {
        let y = (state[k] & 0x8000_0000) | (state[(k + 1) % N] & 0x7fff_ffff);
        let mut next = state[(k + M) % N] ^ (y >> 1);
        if y & 1 != 0 {
            next ^= 0x9908_b0df;
        }
        state[k] = next;
    }
}

/// How a generator is written in snapshots: `{"state": [624 words], "index": i}` for CPython's
/// (the format of earlier SDK versions), `{"fast": [4 words]}` for the fast one.
#[derive(Serialize)]
struct ReprOut<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    state: Option<&'a [u32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    index: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fast: Option<&'a [u64; 4]>,
}

/// [`ReprOut`], read back.
#[derive(Deserialize)]
struct ReprIn {
    #[serde(default)]
    state: Option<Vec<u32>>,
    #[serde(default)]
    index: Option<usize>,
    #[serde(default)]
    fast: Option<[u64; 4]>,
}

impl Serialize for Rng {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let repr = match &self.engine {
            Engine::Python { state, index } => ReprOut {
                state: Some(&state[..]),
                index: Some(*index),
                fast: None,
            },
            Engine::Fast { s } => ReprOut {
                state: None,
                index: None,
                fast: Some(s),
            },
        };
        repr.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Rng {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let engine = match ReprIn::deserialize(deserializer)? {
            ReprIn {
                state: Some(state),
                index: Some(index),
                fast: None,
            } => {
                let state: Box<[u32; N]> =
                    state
                        .into_boxed_slice()
                        .try_into()
                        .map_err(|s: Box<[u32]>| {
                            D::Error::custom(format!(
                                "a generator state has {N} words, not {}",
                                s.len()
                            ))
                        })?;
                if index > N {
                    return Err(D::Error::custom(format!(
                        "a generator index is at most {N}, not {index}"
                    )));
                }
                Engine::Python { state, index }
            }
            ReprIn {
                state: None,
                index: None,
                fast: Some(s),
            } if s != [0; 4] => Engine::Fast { s },
            _ => {
                return Err(D::Error::custom(
                    "expected a generator as {\"state\", \"index\"} or {\"fast\"} (not all zero)",
                ));
            }
        };
        Ok(Rng { engine })
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    // Values printed by CPython 3.11: `random.seed(s); [random.randint(1, 50) for _ in range(5)]`.
    #[test]
    fn matches_cpython_randint() {
        let mut rng = Rng::seeded(42);
        let got: Vec<i64> = (0..5).map(|_| rng.randint(1, 50)).collect();
        assert_eq!(got, vec![41, 8, 2, 48, 18]);
        let mut rng = Rng::seeded(0);
        let got: Vec<i64> = (0..5).map(|_| rng.randint(1, 10)).collect();
        assert_eq!(got, vec![7, 7, 1, 5, 9]);
    }

    #[test]
    fn matches_cpython_random_float() {
        let mut rng = Rng::seeded(1);
        assert_eq!(rng.random(), 0.13436424411240122);
        let mut rng = Rng::seeded(1 << 40);
        let expected = 0.1036394562812375;
        assert_eq!(rng.random(), expected);
    }

    fn draws(rng: &mut Rng) -> Vec<u64> {
        let mut out = vec![
            u64::from(rng.next_u32()),
            rng.getrandbits(7),
            rng.getrandbits(64),
        ];
        out.extend((0..20).map(|_| rng.below(1000)));
        out.push(rng.randint(-5, 5) as u64);
        out.push(rng.randrange(10, 12) as u64);
        out.push(rng.random().to_bits());
        out.push(*rng.choice(&[1u64, 2, 3]).unwrap());
        let mut items = [1u64, 2, 3, 4, 5, 6, 7, 8];
        rng.shuffle(&mut items);
        out.extend(items);
        out
    }

    #[test]
    fn continued_is_a_pure_function_of_stream_and_number() {
        let a = draws(&mut Rng::continued(7, 3));
        assert_eq!(a, draws(&mut Rng::continued(7, 3)));
        assert_ne!(a, draws(&mut Rng::continued(7, 4)));
        assert_ne!(a, draws(&mut Rng::continued(8, 3)));
        assert_ne!(
            draws(&mut Rng::continued(0, 1)),
            draws(&mut Rng::continued(1, 0))
        );
        // Neighbouring episodes start far apart: their first draws share no structure.
        let firsts: std::collections::BTreeSet<u32> =
            (0..1000).map(|n| Rng::continued(5, n).next_u32()).collect();
        assert_eq!(firsts.len(), 1000);
    }

    #[test]
    fn continued_draws_stay_in_range() {
        let mut rng = Rng::continued(1, 2);
        assert!(rng.is_continued());
        for _ in 0..10_000 {
            assert!(rng.below(37) < 37);
            assert!((3..=9).contains(&rng.randint(3, 9)));
            assert!(rng.getrandbits(5) < 32);
            let x = rng.random();
            assert!((0.0..1.0).contains(&x));
        }
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.getrandbits(0), 0);
        let mut seen = [false; 6];
        for _ in 0..600 {
            seen[rng.below(6) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn seeding_a_continued_generator_restores_cpython() {
        let mut rng = Rng::continued(1, 2);
        rng.next_u32();
        rng.seed(42);
        assert!(!rng.is_continued());
        assert_eq!(draws(&mut rng), draws(&mut Rng::seeded(42)));
    }

    #[test]
    fn snapshots_keep_either_engine() {
        for mut rng in [Rng::seeded(9), Rng::continued(9, 1)] {
            rng.below(10);
            let text = serde_json::to_string(&rng).unwrap();
            let mut copy: Rng = serde_json::from_str(&text).unwrap();
            assert_eq!(draws(&mut rng), draws(&mut copy));
        }
        let text = serde_json::to_string(&Rng::seeded(3)).unwrap();
        assert!(text.starts_with("{\"state\":[") && text.contains("\"index\":624"));
        for bad in [
            r#"{"state":[1,2],"index":0}"#,
            r#"{"fast":[0,0,0,0]}"#,
            r#"{"fast":[1,2,3,4],"index":3}"#,
            r#"{}"#,
        ] {
            assert!(serde_json::from_str::<Rng>(bad).is_err(), "{bad}");
        }
        let mut state = serde_json::to_value(Rng::seeded(3)).unwrap();
        state["index"] = 625.into();
        assert!(serde_json::from_value::<Rng>(state).is_err());
    }
}
