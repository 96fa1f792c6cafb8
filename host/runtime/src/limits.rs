//! Per-env resource limits and the store limiter that enforces the memory ones.

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

impl Limits {
    /// Gives `store` a full fuel budget and a fresh deadline for its next call.
    pub fn arm<T>(&self, store: &mut wasmtime::Store<T>) {
        store
            .set_fuel(self.fuel_per_call.unwrap_or(u64::MAX))
            .expect("fuel is enabled on the engine");
        store.set_epoch_deadline(
            self.deadline_per_call
                .map(crate::engine::deadline_ticks)
                .unwrap_or(u64::MAX / 2),
        );
    }
}

/// Enforces the memory and table limits of one store and remembers whether it refused a growth,
/// so a trap that follows can be reported as a memory-limit error instead of a bare trap.
#[derive(Debug)]
pub struct StoreLimiter {
    max_memory_bytes: usize,
    max_table_elements: usize,
    /// Set when a memory growth was refused.
    pub memory_denied: bool,
}

impl StoreLimiter {
    /// A limiter for `limits`.
    pub fn new(limits: &Limits) -> Self {
        StoreLimiter {
            max_memory_bytes: usize::try_from(limits.max_memory_bytes).unwrap_or(usize::MAX),
            max_table_elements: limits.max_table_elements,
            memory_denied: false,
        }
    }
}

impl ResourceLimiter for StoreLimiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.max_memory_bytes {
            self.memory_denied = true;
            return Ok(false);
        }
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
