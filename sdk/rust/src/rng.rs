//! A seeded random generator that draws exactly the numbers CPython's `random` module draws.
//!
//! GEM's games use Python's global `random` (Mersenne Twister, seeded with `random.seed(seed)`).
//! Drawing the same way means a geode game reset with seed `s` starts from the state GEM's
//! game starts from with seed `s`, so episodes can be compared one to one.

use serde::{Deserialize, Serialize};

const N: usize = 624;
const M: usize = 397;

/// MT19937 with CPython's seeding and integer/float/choice algorithms.
#[derive(Clone, Serialize, Deserialize)]
pub struct Rng {
    state: Vec<u32>,
    index: usize,
}

impl std::fmt::Debug for Rng {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rng")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl Rng {
    /// A generator in the state `random.seed(seed)` leaves CPython's generator in.
    pub fn seeded(seed: u64) -> Self {
        let mut rng = Rng {
            state: vec![0; N],
            index: N,
        };
        rng.seed(seed);
        rng
    }

    /// Reseeds like `random.seed(seed)` for a non-negative integer seed.
    pub fn seed(&mut self, seed: u64) {
        let low = seed as u32;
        let high = (seed >> 32) as u32;
        if high == 0 {
            self.init_by_array(&[low]);
        } else {
            self.init_by_array(&[low, high]);
        }
    }

    fn init_genrand(&mut self, s: u32) {
        self.state[0] = s;
        for i in 1..N {
            let prev = self.state[i - 1];
            self.state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        self.index = N;
    }

    fn init_by_array(&mut self, key: &[u32]) {
        self.init_genrand(19_650_218);
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            let prev = self.state[i - 1];
            self.state[i] = (self.state[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                self.state[0] = self.state[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = self.state[i - 1];
            self.state[i] = (self.state[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                self.state[0] = self.state[N - 1];
                i = 1;
            }
        }
        self.state[0] = 0x8000_0000;
    }

    fn twist(&mut self) {
        for k in 0..N {
            let y = (self.state[k] & 0x8000_0000) | (self.state[(k + 1) % N] & 0x7fff_ffff);
            let mut next = self.state[(k + M) % N] ^ (y >> 1);
            if y & 1 != 0 {
                next ^= 0x9908_b0df;
            }
            self.state[k] = next;
        }
        self.index = 0;
    }

    /// The next raw 32-bit output.
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `random.getrandbits(k)` for `k <= 64`.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
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
}
