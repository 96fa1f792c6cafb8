//! The statistics of a summary: the pass@k estimator, percentiles and a seeded cluster
//! bootstrap of a mean.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The unbiased pass@k estimator for a task sampled `n` times with `c` successes:
/// `1 - C(n-c, k) / C(n, k)`, computed as the product `1 - Π_{i=n-c+1..=n} (1 - k/i)`.
///
/// It is 1 when `n - c < k` (every draw of `k` samples holds a success) and 0 when `c == 0` or
/// `k == 0`. `c` above `n` counts as `n`; `k` above `n` has no meaning and gives 1 if any
/// sample succeeded.
pub fn pass_at_k(n: u64, c: u64, k: u64) -> f64 {
    let c = c.min(n);
    if c == 0 || k == 0 {
        return 0.0;
    }
    let failures = n - c;
    if failures < k {
        return 1.0;
    }
    let k = k as f64;
    let none_pass: f64 = (failures + 1..=n).map(|i| 1.0 - k / i as f64).product();
    1.0 - none_pass
}

/// TAU-bench's pass^k for a task sampled `n` times with `c` successes: the chance that `k`
/// samples drawn without replacement all succeed, `C(c, k) / C(n, k)`, computed as the product
/// `Π_{i=0..k} (c - i) / (n - i)`. It measures reliability (every try passes) where pass@k
/// measures reach (some try passes): 1 when every sample succeeded, 0 when fewer than `k` did.
/// `c` above `n` counts as `n`; `k` of 0 or above `n` gives 0.
pub fn pass_hat_k(n: u64, c: u64, k: u64) -> f64 {
    let c = c.min(n);
    if k == 0 || k > n || c < k {
        return 0.0;
    }
    (0..k).map(|i| (c - i) as f64 / (n - i) as f64).product()
}

/// The `q`-quantile (`q` in `[0, 1]`, clamped) of ascending `sorted` values, interpolated
/// linearly between the closest ranks (numpy's default). 0.0 for no values.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    let Some(&last) = sorted.last() else {
        return 0.0;
    };
    let q = if q.is_nan() { 0.0 } else { q.clamp(0.0, 1.0) };
    let rank = q * (sorted.len() - 1) as f64;
    let below = rank.floor() as usize;
    let above = rank.ceil() as usize;
    let lo = sorted.get(below).copied().unwrap_or(last);
    let hi = sorted.get(above).copied().unwrap_or(last);
    if below == above || lo == hi {
        lo
    } else {
        lo + (hi - lo) * (rank - below as f64)
    }
}

/// The mean of all values of all groups; 0.0 when there are none.
pub fn pooled_mean(groups: &[Vec<f64>]) -> f64 {
    mean_of(groups.iter())
}

/// A 95% percentile interval `(lo, hi)` of the mean of all values, by a cluster bootstrap:
/// each of `resamples` draws picks `groups.len()` groups (tasks) with replacement and takes the
/// mean over all values of the drawn groups.
///
/// The draws come from `ChaCha8Rng::seed_from_u64(seed)`, so the same groups in the same order
/// always give the same interval. Empty groups are left out; with no values the interval is
/// `(0.0, 0.0)`, and with no resamples it is the plain mean twice.
pub fn bootstrap_mean_ci(groups: &[Vec<f64>], resamples: usize, seed: u64) -> (f64, f64) {
    let groups: Vec<&Vec<f64>> = groups.iter().filter(|g| !g.is_empty()).collect();
    if groups.is_empty() {
        return (0.0, 0.0);
    }
    if resamples == 0 {
        let mean = mean_of(groups.iter().copied());
        return (mean, mean);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut means: Vec<f64> = (0..resamples)
        .map(|_| resample_mean(&groups, &mut rng))
        .collect();
    means.sort_by(f64::total_cmp);
    (percentile(&means, 0.025), percentile(&means, 0.975))
}

/// The mean over all values of `groups.len()` groups drawn with replacement.
fn resample_mean(groups: &[&Vec<f64>], rng: &mut ChaCha8Rng) -> f64 {
    let count = groups.len() as u64;
    mean_of((0..count).filter_map(|_| groups.get(rng.random_range(0..count) as usize).copied()))
}

/// The mean of all values of the given groups, 0.0 when there are none.
fn mean_of<'a>(groups: impl Iterator<Item = &'a Vec<f64>>) -> f64 {
    let (sum, count) = groups.fold((0.0, 0usize), |(sum, count), g| {
        (sum + g.iter().sum::<f64>(), count + g.len())
    });
    if count == 0 { 0.0 } else { sum / count as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn pass_at_k_known_values() {
        assert!(close(pass_at_k(5, 2, 1), 0.4));
        assert_eq!(pass_at_k(5, 2, 5), 1.0);
        assert_eq!(pass_at_k(5, 2, 4), 1.0); // 3 failures < 4 draws
        // n=5, c=2, k=2: 1 - C(3,2)/C(5,2) = 1 - 3/10.
        assert!(close(pass_at_k(5, 2, 2), 0.7));
        // n=10, c=3, k=3: 1 - C(7,3)/C(10,3) = 1 - 35/120.
        assert!(close(pass_at_k(10, 3, 3), 85.0 / 120.0));
        // k = 1 is the plain success rate.
        assert!(close(pass_at_k(7, 3, 1), 3.0 / 7.0));
    }

    #[test]
    fn pass_at_k_edges() {
        assert_eq!(pass_at_k(5, 0, 1), 0.0);
        assert_eq!(pass_at_k(5, 0, 5), 0.0);
        assert_eq!(pass_at_k(5, 5, 1), 1.0);
        assert_eq!(pass_at_k(0, 0, 1), 0.0);
        assert_eq!(pass_at_k(5, 2, 0), 0.0);
        assert_eq!(pass_at_k(3, 9, 1), 1.0);
        assert_eq!(pass_at_k(3, 0, 9), 0.0);
    }

    #[test]
    fn pass_at_k_large_n_is_stable() {
        // C(1000, 500) overflows f64; the product does not.
        let p = pass_at_k(1000, 1, 500);
        assert!(close(p, 0.5));
        let p = pass_at_k(1000, 10, 100);
        assert!(p > 0.0 && p < 1.0);
    }

    #[test]
    fn pass_hat_k_known_values() {
        // n=4, c=3: k=1 is the success rate, k=2 is C(3,2)/C(4,2) = 3/6, k=3 is 1/4.
        assert!(close(pass_hat_k(4, 3, 1), 0.75));
        assert!(close(pass_hat_k(4, 3, 2), 0.5));
        assert!(close(pass_hat_k(4, 3, 3), 0.25));
        assert_eq!(pass_hat_k(4, 3, 4), 0.0);
        assert_eq!(pass_hat_k(4, 4, 4), 1.0);
        assert_eq!(pass_hat_k(4, 0, 1), 0.0);
        assert_eq!(pass_hat_k(4, 2, 0), 0.0);
        assert_eq!(pass_hat_k(4, 9, 2), 1.0);
        assert_eq!(pass_hat_k(2, 2, 3), 0.0);
        // Never above pass@k.
        for c in 0..=8 {
            for k in 1..=8 {
                assert!(pass_hat_k(8, c, k) <= pass_at_k(8, c, k) + 1e-12);
            }
        }
    }

    #[test]
    fn percentile_interpolates() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile(&v, 0.0), 1.0);
        assert_eq!(percentile(&v, 1.0), 4.0);
        assert!(close(percentile(&v, 0.5), 2.5));
        assert!(close(percentile(&v, 0.9), 3.7));
        assert_eq!(percentile(&[7.0], 0.3), 7.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
        assert_eq!(percentile(&v, 2.0), 4.0);
        assert_eq!(percentile(&v, -1.0), 1.0);
    }

    #[test]
    fn bootstrap_is_seeded_and_brackets_the_mean() {
        let groups: Vec<Vec<f64>> = (0..20)
            .map(|t| vec![((t * 7919) % 101) as f64 / 7.0, (t % 5) as f64 / 3.0])
            .collect();
        let a = bootstrap_mean_ci(&groups, 1000, 7);
        let b = bootstrap_mean_ci(&groups, 1000, 7);
        assert_eq!(a, b);
        let mean = pooled_mean(&groups);
        assert!(a.0 < mean && mean < a.1, "{a:?} around {mean}");
        assert_ne!(bootstrap_mean_ci(&groups, 1000, 8), a);
    }

    #[test]
    fn bootstrap_degenerate_inputs() {
        assert_eq!(bootstrap_mean_ci(&[], 1000, 1), (0.0, 0.0));
        assert_eq!(bootstrap_mean_ci(&[vec![], vec![]], 1000, 1), (0.0, 0.0));
        assert_eq!(bootstrap_mean_ci(&[vec![2.0, 4.0]], 100, 1), (3.0, 3.0));
        assert_eq!(bootstrap_mean_ci(&[vec![1.0], vec![3.0]], 0, 1), (2.0, 2.0));
        let same = vec![vec![0.5]; 10];
        assert_eq!(bootstrap_mean_ci(&same, 200, 3), (0.5, 0.5));
    }

    #[test]
    fn bootstrap_weights_values_not_groups() {
        // One group of three 1s and one group of a single 0: the pooled mean is 0.75, and a
        // draw of both groups (either order) gives 0.75, not 0.5.
        let groups = vec![vec![1.0, 1.0, 1.0], vec![0.0]];
        let (lo, hi) = bootstrap_mean_ci(&groups, 2000, 1);
        assert_eq!((lo, hi), (0.0, 1.0));
        assert!(close(pooled_mean(&groups), 0.75));
    }
}
