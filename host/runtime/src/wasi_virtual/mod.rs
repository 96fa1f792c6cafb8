//! Virtualized WASI for every guest the host runs (env instances and sandbox runs): seeded
//! randomness, virtual clocks (`clock.rs`), and capped capture of stdout/stderr (`pipe.rs`,
//! `output.rs`). Together they make an episode replay bit for bit in any guest language. The
//! two users share one implementation of each; where they differ (the sleep limit, what happens
//! at the output cap) the difference is a setting.

mod clock;
mod output;
mod pipe;

pub use clock::{HasVirtualClock, SleptPastDeadline, VirtualClock, shadow_monotonic_clock};
pub use output::{GuestOutput, OutputSink};
pub use pipe::{CapturePipe, OutputLimitExceeded, Overflow};

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use wasmtime_wasi::WasiCtxBuilder;

/// A WASI context that grants a guest nothing but output sinks, randomness and clocks the host
/// controls: no files, no network, no environment variables, no arguments. Every guest's
/// context starts here (the caller may add an in-memory stdin).
pub fn sealed_wasi(
    stdout: impl OutputSink,
    stderr: impl OutputSink,
    random: SeededRandom,
    insecure_seed: u128,
    clock: VirtualClock,
) -> WasiCtxBuilder {
    let mut builder = WasiCtxBuilder::new();
    builder
        .stdout(GuestOutput(stdout))
        .stderr(GuestOutput(stderr))
        .secure_random(random.clone())
        .insecure_random(random)
        .insecure_random_seed(insecure_seed)
        .wall_clock(clock.clone())
        .monotonic_clock(clock)
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false);
    builder
}

/// A seedable random source shared between the host (which reseeds it) and the guest's WASI
/// `random` imports (which draw from it). SplitMix64: fast, and the same stream for the same seed.
#[derive(Clone, Debug, Default)]
pub struct SeededRandom(Arc<AtomicU64>);

impl SeededRandom {
    /// A source starting from `seed`.
    pub fn new(seed: u64) -> Self {
        SeededRandom(Arc::new(AtomicU64::new(seed)))
    }

    /// Restarts the stream from `seed`.
    pub fn reseed(&self, seed: u64) {
        self.0.store(seed, Ordering::Relaxed);
    }

    fn next(&self) -> u64 {
        let mut z = self
            .0
            .fetch_add(0x9e37_79b9_7f4a_7c15, Ordering::Relaxed)
            .wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

impl rand_core::TryRng for SeededRandom {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.next() as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.next())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            chunk.copy_from_slice(&self.next().to_le_bytes()[..chunk.len()]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_random_replays() {
        let a = SeededRandom::new(7);
        let first: Vec<u64> = (0..3).map(|_| a.next()).collect();
        a.reseed(7);
        let again: Vec<u64> = (0..3).map(|_| a.next()).collect();
        assert_eq!(first, again);
    }
}
