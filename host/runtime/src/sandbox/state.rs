//! [`RunState`]: what the store of one fresh-instance call owns (a sandbox run, a grading
//! call). Its WASI context grants nothing but stdin (an in-memory pipe), capped stdout/stderr
//! that trap at their cap, seeded randomness, a virtual clock that refuses sleeps past the
//! call's timeout, and the in-memory file trees the call mounts (none unless it asks).

use super::request::SandboxLimits;
use super::stop::{HasInterrupt, Interrupted};
use crate::limits::{Limits, StoreLimiter};
use crate::wasi_virtual::{
    CapturePipe, HasVirtualClock, Overflow, SeededRandom, VirtualClock, sealed_wasi,
};
use crate::workspace::{HasMounts, Mount};
use wasmtime::component::ResourceTable;
use wasmtime_wasi::p2::pipe::MemoryInputPipe;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

/// Most resource handles (streams, pollables) one run may hold at once.
const MAX_RESOURCE_HANDLES: usize = 10_000;

/// The store state of one call.
pub struct RunState {
    wasi: WasiCtx,
    table: ResourceTable,
    clock: VirtualClock,
    /// The file trees the call sees.
    mounts: Vec<Mount>,
    /// The memory cap, and whether a growth was refused.
    pub(crate) limiter: StoreLimiter,
    /// Captured stdout.
    pub(crate) stdout: CapturePipe,
    /// Captured stderr.
    pub(crate) stderr: CapturePipe,
    /// Why the run was interrupted, if it was.
    pub(crate) interrupted: Option<Interrupted>,
}

impl std::fmt::Debug for RunState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunState")
            .field("memory_denied", &self.memory_denied())
            .field("interrupted", &self.interrupted)
            .finish_non_exhaustive()
    }
}

impl RunState {
    /// A state for one run with `stdin` and the file trees `mounts`, under `limits`, with
    /// randomness seeded by `seed`.
    pub fn new(stdin: &str, mounts: &[Mount], limits: &SandboxLimits, seed: u64) -> Self {
        let clock = VirtualClock::with_sleep_limit(limits.timeout);
        let random = SeededRandom::new(seed);
        let cap = limits.output_bytes as usize;
        let stdout = CapturePipe::new(cap, Overflow::Trap);
        let stderr = CapturePipe::new(cap, Overflow::Trap);
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
            mounts: mounts.to_vec(),
            limiter: StoreLimiter::new(&memory),
            stdout,
            stderr,
            interrupted: None,
        }
    }

    /// Whether the memory cap refused a growth.
    pub fn memory_denied(&self) -> bool {
        self.limiter.memory_denied
    }

    /// What the call wrote to stdout (at most the cap).
    pub fn stdout(&self) -> String {
        self.stdout.text()
    }

    /// What the call wrote to stderr (at most the cap).
    pub fn stderr(&self) -> String {
        self.stderr.text()
    }

    /// Whether stdout or stderr went over the cap (the call then trapped).
    pub fn output_overflowed(&self) -> bool {
        self.stdout.overflowed() || self.stderr.overflowed()
    }

    /// Whether the call's stop signal ended it (rather than its own deadline).
    pub fn stopped(&self) -> bool {
        self.interrupted == Some(Interrupted::Stopped)
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

impl HasMounts for RunState {
    fn mounts(&mut self) -> (&[Mount], &mut ResourceTable) {
        (&self.mounts, &mut self.table)
    }
}

impl HasVirtualClock for RunState {
    fn virtual_clock(&self) -> &VirtualClock {
        &self.clock
    }
}
