//! Virtualized WASI for guests: seeded randomness, deterministic clocks, and bounded capture of
//! stdout/stderr. Together they make an episode replay bit for bit in any guest language.

use crate::guest_output::{GuestOutput, OutputSink};
use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use wasmtime_wasi::p2::Pollable;
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtxBuilder};

/// A WASI context that grants a guest nothing but output sinks, randomness and clocks the host
/// controls: no files, no network, no environment variables, no arguments. Every guest's
/// context starts here (the caller may add an in-memory stdin).
pub fn sealed_wasi<C>(
    stdout: impl OutputSink,
    stderr: impl OutputSink,
    random: SeededRandom,
    insecure_seed: u128,
    clock: C,
) -> WasiCtxBuilder
where
    C: HostWallClock + HostMonotonicClock + Clone + 'static,
{
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

/// Guest time: starts at a fixed instant and moves only when the guest reads it (1 µs per
/// read), so it never leaks the host's time and replays identically.
#[derive(Clone, Debug, Default)]
pub struct VirtualClock(Arc<AtomicU64>);

/// 2025-01-01T00:00:00Z, the wall-clock time every guest starts at.
const WALL_CLOCK_START: Duration = Duration::from_secs(1_735_689_600);

impl VirtualClock {
    /// Sets the clock back to its start (done on every seeded reset).
    pub fn rewind(&self) {
        self.0.store(0, Ordering::Relaxed);
    }

    /// Moves guest time forward by `nanos` (a guest "sleep": instant, and replayable).
    pub fn advance(&self, nanos: u64) {
        self.0.fetch_add(nanos, Ordering::Relaxed);
    }

    /// The current guest monotonic time, without ticking.
    pub fn peek(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    fn tick(&self) -> u64 {
        self.0.fetch_add(1_000, Ordering::Relaxed) + 1_000
    }
}

impl wasmtime_wasi::HostMonotonicClock for VirtualClock {
    fn resolution(&self) -> u64 {
        1_000
    }

    fn now(&self) -> u64 {
        self.tick()
    }
}

impl wasmtime_wasi::HostWallClock for VirtualClock {
    fn resolution(&self) -> Duration {
        Duration::from_micros(1)
    }

    fn now(&self) -> Duration {
        WALL_CLOCK_START + Duration::from_nanos(self.tick())
    }
}

/// A sleep in virtual time: ready at once (the clock was already moved forward).
pub struct VirtualSleep;

#[wasmtime_wasi::async_trait]
impl Pollable for VirtualSleep {
    async fn ready(&mut self) {}
}

/// A guest output stream that keeps only the last `capacity` bytes and counts the rest, so a
/// guest flooding stdout/stderr costs it nothing but its own time and never errors.
#[derive(Clone, Debug)]
pub struct CapturePipe {
    inner: Arc<Mutex<Captured>>,
    /// Set by every write: lets `clear`, run before each guest call, skip the lock when the
    /// guest wrote nothing (the usual case).
    written: Arc<AtomicBool>,
}

#[derive(Debug, Default)]
struct Captured {
    tail: VecDeque<u8>,
    capacity: usize,
}

impl CapturePipe {
    /// A pipe keeping the last `capacity` bytes written.
    pub fn new(capacity: usize) -> Self {
        CapturePipe {
            inner: Arc::new(Mutex::new(Captured {
                capacity,
                ..Captured::default()
            })),
            written: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The kept tail, lossily decoded.
    pub fn tail(&self) -> String {
        let captured = self.inner.lock().expect("capture lock");
        let (a, b) = captured.tail.as_slices();
        let mut bytes = Vec::with_capacity(a.len() + b.len());
        bytes.extend_from_slice(a);
        bytes.extend_from_slice(b);
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Empties the pipe.
    pub fn clear(&self) {
        // A plain load first: most calls write nothing, and a swap would take the line
        // exclusively on every call.
        if !self.written.load(Ordering::Acquire) || !self.written.swap(false, Ordering::AcqRel) {
            return;
        }
        let mut captured = self.inner.lock().expect("capture lock");
        captured.tail.clear();
    }

    fn push(&self, bytes: &[u8]) {
        let mut captured = self.inner.lock().expect("capture lock");
        self.written.store(true, Ordering::Release);
        let keep = bytes.len().min(captured.capacity);
        let overflow = (captured.tail.len() + keep).saturating_sub(captured.capacity);
        captured.tail.drain(..overflow);
        captured.tail.extend(&bytes[bytes.len() - keep..]);
    }
}

impl OutputSink for CapturePipe {
    fn accept(&self, bytes: &[u8]) -> wasmtime::Result<()> {
        self.push(bytes);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_keeps_the_tail() {
        let pipe = CapturePipe::new(4);
        pipe.push(b"hello");
        pipe.push(b"!!");
        assert_eq!(pipe.tail(), "lo!!");
    }

    #[test]
    fn seeded_random_replays() {
        let a = SeededRandom::new(7);
        let first: Vec<u64> = (0..3).map(|_| a.next()).collect();
        a.reseed(7);
        let again: Vec<u64> = (0..3).map(|_| a.next()).collect();
        assert_eq!(first, again);
    }
}
