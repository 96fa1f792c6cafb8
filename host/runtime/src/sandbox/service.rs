//! [`ComponentService`]: what every fresh-instance component of the host shares (the Python
//! runner here, the math grader in `geode-builtins`). One compiled component and one
//! pre-instantiated template; each call gets a new store with sealed WASI (no sockets or
//! environment, no host files: only the in-memory trees it mounts; virtual clocks; capped
//! output), a memory cap, a fuel budget and a wall-clock
//! deadline, and its store is dropped off the caller's path when a core is idle. Nothing a call
//! does survives it.

use super::reaper::Reaper;
use super::request::SandboxLimits;
use super::state::RunState;
use super::stop::{StopSignal, arm};
use crate::cache::CompileCache;
use crate::wasi_virtual::shadow_monotonic_clock;
use crate::workspace::{Mount, shadow_filesystem};
use std::sync::Arc;
use wasmtime::component::{InstancePre, Linker};
use wasmtime::{Engine, Store};

/// A component run in a fresh instance per call. `P` is its template (the `...Pre` type its
/// bindings generate). Cheap to clone; share it across threads.
pub struct ComponentService<P> {
    inner: Arc<Inner<P>>,
}

struct Inner<P> {
    engine: Engine,
    template: P,
    /// Drops finished stores off the caller's path.
    reaper: Reaper<Store<RunState>>,
}

impl<P> Clone for ComponentService<P> {
    fn clone(&self) -> Self {
        ComponentService {
            inner: self.inner.clone(),
        }
    }
}

impl<P> std::fmt::Debug for ComponentService<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentService").finish_non_exhaustive()
    }
}

/// What one call is given: its stdin, the file trees it sees, and the seed of its randomness.
#[derive(Debug, Clone, Copy, Default)]
pub struct CallInputs<'a> {
    /// Its standard input.
    pub stdin: &'a str,
    /// The trees it mounts.
    pub mounts: &'a [Mount],
    /// The seed of its randomness.
    pub seed: u64,
}

/// The store of one call, as [`ComponentService::call`] hands it to its `finish` step.
#[derive(Debug)]
pub struct Finished<'a, R> {
    /// What the call returned, or why it trapped.
    pub result: wasmtime::Result<R>,
    /// Fuel the call used.
    pub fuel_used: u64,
    /// The call's state: captured output, whether memory was refused, why it was interrupted.
    pub state: &'a RunState,
}

impl<P: Send + Sync + 'static> ComponentService<P> {
    /// Loads component `wasm` on `engine` (compiled once, then from `cache`), links sealed WASI
    /// with the virtual monotonic clock, and makes its template with `template` (for example
    /// `MyWorldPre::new`). The engine needs fuel and epoch interruption enabled and an epoch
    /// ticker running, as the runtime's engine has.
    pub fn load(
        engine: &Engine,
        cache: &CompileCache,
        wasm: &[u8],
        template: impl FnOnce(InstancePre<RunState>) -> wasmtime::Result<P>,
    ) -> wasmtime::Result<Self> {
        let component = cache.load(engine, wasm)?;
        let mut linker: Linker<RunState> = Linker::new(engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
        linker.allow_shadowing(true);
        shadow_monotonic_clock(&mut linker)?;
        shadow_filesystem(&mut linker)?;
        let template = template(linker.instantiate_pre(&component)?)?;
        Ok(ComponentService {
            inner: Arc::new(Inner {
                engine: engine.clone(),
                template,
                reaper: Reaper::new(),
            }),
        })
    }

    /// A fresh store for one call: its `inputs`, the memory and output caps of `limits`, its
    /// fuel (`None`: unlimited), and its timeout armed together with `stop`.
    pub fn store(
        &self,
        inputs: &CallInputs<'_>,
        limits: &SandboxLimits,
        stop: Arc<StopSignal>,
    ) -> Store<RunState> {
        let state = RunState::new(inputs.stdin, inputs.mounts, limits, inputs.seed);
        let mut store = Store::new(&self.inner.engine, state);
        store.limiter(|state| &mut state.limiter);
        store
            .set_fuel(limits.fuel.unwrap_or(u64::MAX))
            .expect("fuel is enabled on the engine");
        arm(&mut store, limits.timeout, stop);
        store
    }

    /// Runs `call` (instantiate the template, call an export) in a fresh [`store`](Self::store),
    /// hands what happened to `finish`, and disposes of the store.
    pub fn call<R, O>(
        &self,
        inputs: &CallInputs<'_>,
        limits: &SandboxLimits,
        stop: Arc<StopSignal>,
        call: impl FnOnce(&P, &mut Store<RunState>) -> wasmtime::Result<R>,
        finish: impl FnOnce(Finished<'_, R>) -> O,
    ) -> O {
        let _active = self.inner.reaper.enter();
        let mut store = self.store(inputs, limits, stop);
        let budget = limits.fuel.unwrap_or(u64::MAX);
        let result = call(&self.inner.template, &mut store);
        let fuel_used = budget - store.get_fuel().unwrap_or(0);
        let outcome = finish(Finished {
            result,
            fuel_used,
            state: store.data(),
        });
        self.inner.reaper.dispose(store);
        outcome
    }

    /// The template every call instantiates.
    pub fn template(&self) -> &P {
        &self.inner.template
    }
}
