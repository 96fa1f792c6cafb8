//! [`Runtime`]: the engine, the linker with every host import, and the compile cache, shared by
//! all plugins and env instances of a process.

use crate::bindings::env_world::EnvPlugin;
use crate::cache::{CompileCache, default_cache_dir};
use crate::dataset::Datasets;
use crate::engine::{EngineSettings, build_engine, start_epoch_ticker};
use crate::host_state::GuestState;
use std::sync::Arc;
use wasmtime::Engine;
use wasmtime::component::{HasSelf, Linker};

/// Shared runtime state. Cheap to clone (an `Arc`); send it to any thread.
#[derive(Clone)]
pub struct Runtime {
    inner: Arc<RuntimeInner>,
}

struct RuntimeInner {
    engine: Engine,
    linker: Linker<GuestState>,
    cache: CompileCache,
    datasets: Datasets,
    sandbox: crate::sandbox::SharedSandbox,
    math: crate::math::SharedGrader,
    _ticker: Arc<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime")
            .field("cache", &self.inner.cache)
            .finish_non_exhaustive()
    }
}

impl Runtime {
    /// A runtime with default engine settings and the default compile cache directory.
    pub fn new() -> anyhow::Result<Self> {
        Self::with_settings(
            &EngineSettings::default(),
            CompileCache::new(default_cache_dir()),
        )
    }

    /// A runtime with explicit engine settings and cache.
    pub fn with_settings(settings: &EngineSettings, cache: CompileCache) -> anyhow::Result<Self> {
        let engine = build_engine(settings)?;
        let mut linker = Linker::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
        EnvPlugin::add_to_linker::<GuestState, HasSelf<GuestState>>(&mut linker, |state| state)?;
        crate::bindings::wrapper_world::geode::env::inner::add_to_linker::<
            GuestState,
            HasSelf<GuestState>,
        >(&mut linker, |state| state)?;
        virtualize_sleep(&mut linker)?;
        add_members_import(&mut linker)?;
        let ticker = start_epoch_ticker(&engine);
        let sandbox = crate::sandbox::SharedSandbox::new(&engine, &cache);
        let math = crate::math::SharedGrader::new(&engine, &cache);
        Ok(Runtime {
            inner: Arc::new(RuntimeInner {
                engine,
                linker,
                cache,
                datasets: Datasets::default(),
                sandbox,
                math,
                _ticker: ticker,
            }),
        })
    }

    /// The shared engine.
    pub fn engine(&self) -> &Engine {
        &self.inner.engine
    }

    /// The linker holding WASI (granting nothing) and the geode host imports.
    pub(crate) fn linker(&self) -> &Linker<GuestState> {
        &self.inner.linker
    }

    /// The datasets shared with every instance (add data directories and load files here).
    pub fn datasets(&self) -> &Datasets {
        &self.inner.datasets
    }

    /// The compile cache.
    pub fn cache(&self) -> &CompileCache {
        &self.inner.cache
    }

    /// The code sandbox (loaded on first use), or why it cannot run on this build.
    pub fn sandbox(&self) -> crate::Result<crate::sandbox::Sandbox> {
        self.inner
            .sandbox
            .get()
            .map_err(crate::sandbox::sandbox_unavailable)
    }

    /// The math grader (loaded on first use), or why it cannot run on this build.
    pub fn math_grader(&self) -> crate::Result<crate::math::MathGrader> {
        self.inner
            .math
            .get()
            .map_err(crate::math::grader_unavailable)
    }

    /// The shared handle guests' `sandbox` import runs on.
    pub(crate) fn shared_sandbox(&self) -> &crate::sandbox::SharedSandbox {
        &self.inner.sandbox
    }
}

/// The `members` import of plugins that export `batch`: `begin(member)` arms that member's own
/// fuel and deadline and notes who runs, so a fault inside a batch is blamed on its member.
fn add_members_import(linker: &mut Linker<GuestState>) -> anyhow::Result<()> {
    let mut members = linker.instance("geode:env/members@0.1.0")?;
    members.func_wrap(
        "begin",
        |mut store: wasmtime::StoreContextMut<'_, GuestState>, (member,): (u32,)| {
            let budget = store.data().member_budget;
            let state = store.data_mut();
            state.running = Some(member);
            state.limiter.begin_turn(budget.memory_bytes);
            crate::limits::arm_budget(store, budget.fuel, budget.deadline);
            Ok(())
        },
    )?;
    Ok(())
}

/// The `wasi:clocks/monotonic-clock` version wasmtime-wasi provides (guests importing any
/// 0.2.x resolve to it).
const MONOTONIC_CLOCK: &str = "wasi:clocks/monotonic-clock@0.2.12";

/// Replaces WASI's real-time sleeps with virtual ones (see [`GuestState::virtual_sleep`]).
fn virtualize_sleep(linker: &mut Linker<GuestState>) -> anyhow::Result<()> {
    linker.allow_shadowing(true);
    let mut clock = linker.instance(MONOTONIC_CLOCK)?;
    clock.func_wrap("subscribe-duration", |mut store, (nanos,): (u64,)| {
        Ok((store.data_mut().virtual_sleep(nanos)?,))
    })?;
    clock.func_wrap("subscribe-instant", |mut store, (when,): (u64,)| {
        let state: &mut GuestState = store.data_mut();
        let now = state.clock.peek();
        Ok((state.virtual_sleep(when.saturating_sub(now))?,))
    })?;
    linker.allow_shadowing(false);
    Ok(())
}
