//! Virtual time for sandboxed programs: clocks that start at a fixed instant, move 1 µs per
//! read, and jump forward when the program sleeps instead of blocking the host thread. A wasm
//! epoch deadline cannot interrupt a guest blocked inside a host call, so `time.sleep(60)` must
//! never block: here it returns at once with the clock advanced by 60 s. A sleep that carries
//! the clock past the run's timeout stops the run with [`SleptPastDeadline`], as the wall-clock
//! deadline would have stopped a real sleep.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use wasmtime::component::Resource;
use wasmtime_wasi::p2::bindings::clocks::monotonic_clock;
use wasmtime_wasi::p2::{DynPollable, Pollable};

/// 2025-01-01T00:00:00Z, the wall-clock time every run starts at.
const WALL_CLOCK_START: Duration = Duration::from_secs(1_735_689_600);
/// How far one read of a clock moves it, in nanoseconds.
const READ_TICK_NS: u64 = 1_000;

/// The error a run traps with when it sleeps past its timeout.
#[derive(Debug, thiserror::Error)]
#[error("slept past the deadline of {0:?}")]
pub struct SleptPastDeadline(pub Duration);

/// The virtual clock of one run (monotonic nanoseconds since the run started).
#[derive(Clone, Debug)]
pub struct SandboxClock {
    now: Arc<AtomicU64>,
    deadline: Duration,
}

impl SandboxClock {
    /// A clock at zero for a run that may last `deadline`.
    pub fn new(deadline: Duration) -> Self {
        SandboxClock {
            now: Arc::new(AtomicU64::new(0)),
            deadline,
        }
    }

    fn read(&self) -> u64 {
        self.now.fetch_add(READ_TICK_NS, Ordering::Relaxed) + READ_TICK_NS
    }

    fn check(&self, now: u64) -> Result<(), SleptPastDeadline> {
        if u128::from(now) > self.deadline.as_nanos() {
            return Err(SleptPastDeadline(self.deadline));
        }
        Ok(())
    }

    /// Moves the clock forward by `ns` (a virtual sleep); fails past the deadline.
    pub fn advance(&self, ns: u64) -> Result<(), SleptPastDeadline> {
        let before = self
            .now
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                Some(t.saturating_add(ns))
            })
            .unwrap_or_default();
        self.check(before.saturating_add(ns))
    }

    /// Moves the clock forward to `instant` if it is in the future; fails past the deadline.
    pub fn advance_to(&self, instant: u64) -> Result<(), SleptPastDeadline> {
        let before = self.now.fetch_max(instant, Ordering::Relaxed);
        self.check(before.max(instant))
    }
}

impl wasmtime_wasi::HostMonotonicClock for SandboxClock {
    fn resolution(&self) -> u64 {
        READ_TICK_NS
    }

    fn now(&self) -> u64 {
        self.read()
    }
}

impl wasmtime_wasi::HostWallClock for SandboxClock {
    fn resolution(&self) -> Duration {
        Duration::from_nanos(READ_TICK_NS)
    }

    fn now(&self) -> Duration {
        WALL_CLOCK_START + Duration::from_nanos(self.read())
    }
}

/// A pollable that is always ready: what a virtual sleep subscribes to.
struct Elapsed;

#[wasmtime_wasi::async_trait]
impl Pollable for Elapsed {
    async fn ready(&mut self) {}
}

/// Access to a run's clock and resource table, for the monotonic-clock import.
pub trait HasSandboxClock: wasmtime_wasi::WasiView {
    /// The run's virtual clock.
    fn sandbox_clock(&self) -> &SandboxClock;
}

fn elapsed<T: HasSandboxClock>(state: &mut T) -> wasmtime::Result<Resource<DynPollable>> {
    let table = state.ctx().table;
    let ready = table.push(Elapsed)?;
    wasmtime_wasi::p2::subscribe(table, ready)
}

/// `wasi:clocks/monotonic-clock` over a [`SandboxClock`], with sleeps that complete at once.
pub struct VirtualMonotonic<'a, T>(pub &'a mut T);

impl<T: HasSandboxClock> monotonic_clock::Host for VirtualMonotonic<'_, T> {
    fn now(&mut self) -> wasmtime::Result<monotonic_clock::Instant> {
        Ok(self.0.sandbox_clock().read())
    }

    fn resolution(&mut self) -> wasmtime::Result<monotonic_clock::Duration> {
        Ok(READ_TICK_NS)
    }

    fn subscribe_instant(
        &mut self,
        when: monotonic_clock::Instant,
    ) -> wasmtime::Result<Resource<DynPollable>> {
        self.0.sandbox_clock().advance_to(when)?;
        elapsed(self.0)
    }

    fn subscribe_duration(
        &mut self,
        duration: monotonic_clock::Duration,
    ) -> wasmtime::Result<Resource<DynPollable>> {
        self.0.sandbox_clock().advance(duration)?;
        elapsed(self.0)
    }
}

/// Replaces the WASI monotonic clock of `linker` (which must allow shadowing) with the virtual one.
pub fn shadow_monotonic_clock<T: HasSandboxClock + 'static>(
    linker: &mut wasmtime::component::Linker<T>,
) -> wasmtime::Result<()> {
    struct Virtual<T>(std::marker::PhantomData<T>);
    impl<T: 'static> wasmtime::component::HasData for Virtual<T> {
        type Data<'a> = VirtualMonotonic<'a, T>;
    }
    monotonic_clock::add_to_linker::<T, Virtual<T>>(linker, |state| VirtualMonotonic(state))
}

#[cfg(test)]
mod tests {
    use super::SandboxClock;
    use std::time::Duration;
    use wasmtime_wasi::HostMonotonicClock;

    #[test]
    fn sleeping_moves_time_forward_until_the_deadline() {
        let clock = SandboxClock::new(Duration::from_secs(10));
        let before = clock.now();
        clock.advance(5_000_000_000).unwrap();
        assert!(clock.now() >= before + 5_000_000_000);
        clock.advance_to(1).unwrap();
        assert!(clock.now() > 5_000_000_000);
        assert!(clock.advance(6_000_000_000).is_err());
    }
}
