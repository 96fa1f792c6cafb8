//! [`VirtualClock`]: guest time, for env instances and sandbox runs alike. It starts at a fixed
//! instant (wall clock 2025-01-01T00:00:00Z), moves 1 µs per read, and jumps forward when the
//! guest sleeps instead of blocking the host thread, so it never leaks the host's time and an
//! episode replays identically. (A wasm epoch deadline cannot interrupt a guest blocked inside a
//! host call, so `sleep(60)` must never block.)
//!
//! The one policy where the users differ is the sleep limit: env instances have none (their
//! limits are fuel and the real deadline), while a sandbox run's clock is made with
//! [`VirtualClock::with_sleep_limit`] (its timeout), and a sleep that carries it past that limit
//! stops the run with [`SleptPastDeadline`], as the wall-clock deadline would have stopped a
//! real sleep.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use wasmtime::component::{HasData, Linker, Resource};
use wasmtime_wasi::p2::bindings::clocks::monotonic_clock;
use wasmtime_wasi::p2::{DynPollable, Pollable};

/// 2025-01-01T00:00:00Z, the wall-clock time every guest starts at.
const WALL_CLOCK_START: Duration = Duration::from_secs(1_735_689_600);
/// How far one read of a clock moves it, in nanoseconds.
const READ_TICK_NS: u64 = 1_000;

/// The error a guest traps with when it sleeps past its clock's sleep limit.
#[derive(Debug, thiserror::Error)]
#[error("slept past the deadline of {0:?}")]
pub struct SleptPastDeadline(pub Duration);

/// A guest's virtual clock (monotonic nanoseconds since its start). Clones share the time.
#[derive(Clone, Debug, Default)]
pub struct VirtualClock {
    now: Arc<AtomicU64>,
    /// Sleeping past this much guest time stops the guest (`None`: sleeps are never refused).
    sleep_limit: Option<Duration>,
}

impl VirtualClock {
    /// A clock at zero whose sleeps are never refused (env instances).
    pub fn new() -> Self {
        Self::default()
    }

    /// A clock at zero for a run that may last `limit` (sandbox runs): a sleep past it fails.
    pub fn with_sleep_limit(limit: Duration) -> Self {
        VirtualClock {
            now: Arc::default(),
            sleep_limit: Some(limit),
        }
    }

    /// Sets the clock back to its start (done on every seeded reset).
    pub fn rewind(&self) {
        self.now.store(0, Ordering::Relaxed);
    }

    /// Reads the clock, moving it one tick.
    fn read(&self) -> u64 {
        self.now.fetch_add(READ_TICK_NS, Ordering::Relaxed) + READ_TICK_NS
    }

    fn check(&self, now: u64) -> Result<(), SleptPastDeadline> {
        match self.sleep_limit {
            Some(limit) if u128::from(now) > limit.as_nanos() => Err(SleptPastDeadline(limit)),
            _ => Ok(()),
        }
    }

    /// Moves the clock forward by `ns` (a virtual sleep); fails past the sleep limit.
    pub fn advance(&self, ns: u64) -> Result<(), SleptPastDeadline> {
        let before = self
            .now
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                Some(t.saturating_add(ns))
            })
            .unwrap_or_default();
        self.check(before.saturating_add(ns))
    }

    /// Moves the clock forward to `instant` if it is in the future; fails past the sleep limit.
    pub fn advance_to(&self, instant: u64) -> Result<(), SleptPastDeadline> {
        let before = self.now.fetch_max(instant, Ordering::Relaxed);
        self.check(before.max(instant))
    }
}

impl wasmtime_wasi::HostMonotonicClock for VirtualClock {
    fn resolution(&self) -> u64 {
        READ_TICK_NS
    }

    fn now(&self) -> u64 {
        self.read()
    }
}

impl wasmtime_wasi::HostWallClock for VirtualClock {
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

/// Access to a store's virtual clock and resource table, for the monotonic-clock import.
pub trait HasVirtualClock: wasmtime_wasi::WasiView {
    /// The guest's virtual clock.
    fn virtual_clock(&self) -> &VirtualClock;
}

fn elapsed<T: HasVirtualClock>(state: &mut T) -> wasmtime::Result<Resource<DynPollable>> {
    let table = state.ctx().table;
    let ready = table.push(Elapsed)?;
    wasmtime_wasi::p2::subscribe(table, ready)
}

/// `wasi:clocks/monotonic-clock` over a [`VirtualClock`], with sleeps that complete at once.
struct VirtualMonotonic<'a, T>(&'a mut T);

impl<T: HasVirtualClock> monotonic_clock::Host for VirtualMonotonic<'_, T> {
    fn now(&mut self) -> wasmtime::Result<monotonic_clock::Instant> {
        Ok(self.0.virtual_clock().read())
    }

    fn resolution(&mut self) -> wasmtime::Result<monotonic_clock::Duration> {
        Ok(READ_TICK_NS)
    }

    fn subscribe_instant(
        &mut self,
        when: monotonic_clock::Instant,
    ) -> wasmtime::Result<Resource<DynPollable>> {
        self.0.virtual_clock().advance_to(when)?;
        elapsed(self.0)
    }

    fn subscribe_duration(
        &mut self,
        duration: monotonic_clock::Duration,
    ) -> wasmtime::Result<Resource<DynPollable>> {
        self.0.virtual_clock().advance(duration)?;
        elapsed(self.0)
    }
}

/// Replaces the WASI monotonic clock of `linker` (which must allow shadowing) with the virtual
/// one, so sleeps move guest time instead of blocking.
pub fn shadow_monotonic_clock<T: HasVirtualClock + 'static>(
    linker: &mut Linker<T>,
) -> wasmtime::Result<()> {
    struct Virtual<T>(std::marker::PhantomData<T>);
    impl<T: 'static> HasData for Virtual<T> {
        type Data<'a> = VirtualMonotonic<'a, T>;
    }
    monotonic_clock::add_to_linker::<T, Virtual<T>>(linker, |state| VirtualMonotonic(state))
}

#[cfg(test)]
mod tests {
    use super::VirtualClock;
    use std::time::Duration;
    use wasmtime_wasi::HostMonotonicClock;

    #[test]
    fn a_sandbox_clock_refuses_sleeps_past_its_limit() {
        let clock = VirtualClock::with_sleep_limit(Duration::from_secs(10));
        let before = clock.now();
        clock.advance(5_000_000_000).unwrap();
        assert!(clock.now() >= before + 5_000_000_000);
        clock.advance_to(1).unwrap();
        assert!(clock.now() > 5_000_000_000);
        assert!(clock.advance(6_000_000_000).is_err());
        assert!(clock.advance_to(u64::MAX).is_err());
    }

    #[test]
    fn an_env_clock_sleeps_any_length_and_rewinds() {
        let clock = VirtualClock::new();
        clock.advance(3_600_000_000_000).unwrap();
        clock.advance_to(7_200_000_000_000).unwrap();
        assert_eq!(clock.now(), 7_200_000_001_000);
        clock.rewind();
        assert_eq!(clock.now(), 1_000);
        assert_eq!(clock.now(), 2_000);
    }
}
