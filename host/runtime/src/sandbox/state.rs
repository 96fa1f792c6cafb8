//! [`RunState`]: what the store of one sandbox run owns. Its WASI context grants nothing but
//! stdin (an in-memory pipe), capped stdout/stderr, seeded randomness and virtual clocks.

use super::capture::CappedPipe;
use super::clock::{HasSandboxClock, SandboxClock};
use super::request::SandboxLimits;
use super::stop::{HasInterrupt, Interrupted};
use crate::limits::{Limits, StoreLimiter};
use crate::wasi_virtual::{SeededRandom, sealed_wasi};
use wasmtime::component::ResourceTable;
use wasmtime_wasi::p2::pipe::MemoryInputPipe;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

/// Most resource handles (streams, pollables) one run may hold at once.
const MAX_RESOURCE_HANDLES: usize = 10_000;

/// The per-run store state.
pub struct RunState {
    wasi: WasiCtx,
    table: ResourceTable,
    clock: SandboxClock,
    /// The memory cap, and whether a growth was refused.
    pub limiter: StoreLimiter,
    /// Captured stdout.
    pub stdout: CappedPipe,
    /// Captured stderr.
    pub stderr: CappedPipe,
    /// Why the run was interrupted, if it was.
    pub interrupted: Option<Interrupted>,
}

impl RunState {
    /// A state for one run with `stdin`, under `limits`, with randomness seeded by `seed`.
    pub fn new(stdin: &str, limits: &SandboxLimits, seed: u64) -> Self {
        let clock = SandboxClock::new(limits.timeout);
        let random = SeededRandom::new(seed);
        let cap = limits.output_bytes as usize;
        let stdout = CappedPipe::new(cap);
        let stderr = CappedPipe::new(cap);
        let wasi = sealed_wasi(
            stdout.clone(),
            stderr.clone(),
            random,
            u128::from(seed),
            clock.clone(),
        )
        .stdin(MemoryInputPipe::new(stdin.as_bytes().to_vec()))
        .build();
        let mut table = ResourceTable::new();
        table.set_max_capacity(MAX_RESOURCE_HANDLES);
        let memory = Limits {
            max_memory_bytes: limits.memory_bytes,
            ..Limits::default()
        };
        RunState {
            wasi,
            table,
            clock,
            limiter: StoreLimiter::new(&memory),
            stdout,
            stderr,
            interrupted: None,
        }
    }
}

impl HasInterrupt for RunState {
    fn interrupted(&mut self) -> &mut Option<Interrupted> {
        &mut self.interrupted
    }
}

impl WasiView for RunState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl HasSandboxClock for RunState {
    fn sandbox_clock(&self) -> &SandboxClock {
        &self.clock
    }
}
