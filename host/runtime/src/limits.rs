//! Per-env resource limits, the store limiter that enforces the memory ones, and the coarse
//! clock deadlines are read from (arming a store with them: [`crate::guest`]).

use std::time::Duration;
use wasmtime::ResourceLimiter;

/// Limits applied to every call into one env instance. `Limits::default()` suits text games;
/// raise them for envs that do heavy work per step.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// Fuel (roughly, wasm instructions) one call may burn; `None` for unlimited.
    pub fuel_per_call: Option<u64>,
    /// Wall-clock time one call may take; `None` for no deadline.
    pub deadline_per_call: Option<Duration>,
    /// Largest linear memory an instance may grow to, in bytes.
    pub max_memory_bytes: u64,
    /// Largest observation (and sampled action) an env may return, in bytes.
    pub max_observation_bytes: usize,
    /// Largest action the host passes in, in bytes.
    pub max_action_bytes: usize,
    /// Largest info JSON an env may return, in bytes.
    pub max_info_bytes: usize,
    /// Largest state snapshot an env may return, in bytes.
    pub max_state_bytes: usize,
    /// Most table elements (function references, resource slots) an instance may hold.
    pub max_table_elements: usize,
    /// Most resource handles (WASI streams, pollables...) an instance may hold at once.
    pub max_resource_handles: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            // About 0.1 s of guest CPU: room for puzzle generators (Sokoban's backward search
            // needs up to ~5e8 on its largest rooms) while an endless loop still ends fast.
            fuel_per_call: Some(1_000_000_000),
            deadline_per_call: Some(Duration::from_secs(2)),
            max_memory_bytes: 64 << 20,
            max_observation_bytes: 1 << 20,
            max_action_bytes: 1 << 20,
            max_info_bytes: 256 << 10,
            max_state_bytes: 16 << 20,
            max_table_elements: 100_000,
            max_resource_handles: 1_000,
        }
    }
}

/// A monotonic clock cheap enough to read at every call into a guest: the kernel's coarse clock
/// (a memory read, no time-stamp counter), which lags the real time by at most its resolution.
/// A deadline checked as `now >= start + limit + resolution` therefore never fires early.
pub(crate) mod coarse {
    use std::time::Duration;

    /// The time since an arbitrary fixed point.
    #[cfg(target_os = "linux")]
    pub fn now() -> Duration {
        read(libc::CLOCK_MONOTONIC_COARSE)
    }

    /// How far the clock may lag the real time.
    #[cfg(target_os = "linux")]
    pub fn resolution() -> Duration {
        static RESOLUTION: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
        *RESOLUTION.get_or_init(|| {
            let mut ts = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: `ts` is a valid timespec for the call to write.
            let ok = unsafe { libc::clock_getres(libc::CLOCK_MONOTONIC_COARSE, &mut ts) } == 0;
            match ok {
                true => Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32),
                false => Duration::from_millis(10),
            }
        })
    }

    #[cfg(target_os = "linux")]
    fn read(clock: libc::clockid_t) -> Duration {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid timespec for the call to write.
        unsafe { libc::clock_gettime(clock, &mut ts) };
        Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
    }

    /// The time since the first call (other systems: the standard monotonic clock).
    #[cfg(not(target_os = "linux"))]
    pub fn now() -> Duration {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START.get_or_init(std::time::Instant::now).elapsed()
    }

    /// The standard clock does not lag.
    #[cfg(not(target_os = "linux"))]
    pub fn resolution() -> Duration {
        Duration::ZERO
    }
}

/// Enforces the memory and table limits of one store and remembers whether it refused a growth,
/// so a trap that follows can be reported as a memory-limit error instead of a bare trap.
///
/// In a unit, members share one linear memory: besides the unit's cap, each batch call may grow
/// the memory by at most one member's own limit (see [`StoreLimiter::begin_turn`]), so a member
/// that allocates without bound is stopped by its own limit, as it would be alone.
#[derive(Debug)]
pub struct StoreLimiter {
    max_memory_bytes: usize,
    max_table_elements: usize,
    /// The linear memory's size after its last growth.
    memory_bytes: usize,
    /// The most the memory may reach in the running batch call.
    turn_cap: usize,
    /// Set when a memory growth was refused in the running call.
    pub memory_denied: bool,
}

impl StoreLimiter {
    /// A limiter for `limits`.
    pub fn new(limits: &Limits) -> Self {
        StoreLimiter {
            max_memory_bytes: usize::try_from(limits.max_memory_bytes).unwrap_or(usize::MAX),
            max_table_elements: limits.max_table_elements,
            memory_bytes: 0,
            turn_cap: usize::MAX,
            memory_denied: false,
        }
    }

    /// A batch call on a unit's members begins: from here the memory may grow by at most
    /// `member_bytes` (one member's cap), and no growth has been refused yet.
    pub(crate) fn begin_turn(&mut self, member_bytes: u64) {
        let allowance = usize::try_from(member_bytes).unwrap_or(usize::MAX);
        self.turn_cap = self.memory_bytes.saturating_add(allowance);
        self.memory_denied = false;
    }

    /// A call on one member's own resource begins: only the store's own cap applies.
    pub(crate) fn end_turn(&mut self) {
        self.turn_cap = usize::MAX;
        self.memory_denied = false;
    }
}

impl ResourceLimiter for StoreLimiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.max_memory_bytes.min(self.turn_cap) {
            self.memory_denied = true;
            return Ok(false);
        }
        self.memory_bytes = self.memory_bytes.max(desired);
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= self.max_table_elements)
    }

    fn instances(&self) -> usize {
        64
    }

    fn tables(&self) -> usize {
        64
    }

    fn memories(&self) -> usize {
        16
    }
}
