//! [`Permutation`]: a seeded shuffle of `0..n` that stores nothing per element, so an env over
//! a dataset of millions of rows costs a few bytes, not 8 bytes per row (1,024 envs over one
//! dataset must not hold 1,024 copies of its order).

/// SplitMix64: a seeded, portable stream for problem choice and shuffling.
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Feistel rounds; four make a good enough shuffle for picking problems.
const ROUNDS: usize = 4;

/// A bijection of `0..n` drawn from a seed: a balanced Feistel network over the smallest
/// power-of-four domain holding `n`, cycle-walked back into `0..n`. Each lookup is O(1) on
/// average (the domain is less than 4n, so under four walks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Permutation {
    n: u64,
    half_bits: u32,
    keys: [u64; ROUNDS],
}

impl Permutation {
    /// The permutation of `0..n` for `seed`.
    pub fn new(n: usize, seed: u64) -> Self {
        let n = n as u64;
        let bits = (u64::BITS - n.saturating_sub(1).leading_zeros()).max(2);
        let mut state = seed;
        Permutation {
            n,
            half_bits: bits.div_ceil(2),
            keys: std::array::from_fn(|_| splitmix(&mut state)),
        }
    }

    /// How many elements it permutes.
    pub fn len(&self) -> usize {
        self.n as usize
    }

    /// Whether it permutes nothing.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The element at position `index` (`index < len()`).
    pub fn at(&self, index: usize) -> usize {
        assert!((index as u64) < self.n, "position {index} of {}", self.n);
        let mut x = index as u64;
        loop {
            x = self.feistel(x);
            if x < self.n {
                return x as usize;
            }
        }
    }

    fn feistel(&self, x: u64) -> u64 {
        let mask = (1u64 << self.half_bits) - 1;
        let (mut left, mut right) = (x >> self.half_bits, x & mask);
        for key in self.keys {
            let mut state = right ^ key;
            let mixed = splitmix(&mut state) & mask;
            (left, right) = (right, left ^ mixed);
        }
        (left << self.half_bits) | right
    }
}

#[cfg(test)]
mod tests {
    use super::Permutation;
    use std::collections::BTreeSet;

    #[test]
    fn every_size_is_a_permutation() {
        for n in 1..300 {
            let p = Permutation::new(n, n as u64 * 7);
            let seen: BTreeSet<usize> = (0..n).map(|i| p.at(i)).collect();
            assert_eq!(seen, (0..n).collect(), "n = {n}");
        }
    }

    #[test]
    fn seeds_replay_and_differ() {
        let order = |seed| {
            (0..1000)
                .map(|i| Permutation::new(1000, seed).at(i))
                .collect::<Vec<_>>()
        };
        assert_eq!(order(3), order(3));
        assert_ne!(order(3), order(4));
        assert_ne!(order(3), (0..1000).collect::<Vec<_>>());
    }

    #[test]
    fn huge_datasets_cost_nothing_per_row() {
        let p = Permutation::new(50_000_000, 1);
        assert!(p.at(49_999_999) < 50_000_000);
        assert!(std::mem::size_of::<Permutation>() <= 64);
    }
}
