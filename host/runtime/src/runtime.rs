//! [`Runtime`]: the engine, the linker with every host import, and the compile cache, shared by
//! all plugins and env instances of a process.

use crate::bindings::env_world::EnvPlugin;
use crate::cache::{CompileCache, default_cache_dir};
use crate::dataset::Datasets;
use crate::engine::{EngineSettings, build_engine, start_epoch_ticker};
use crate::host_state::GuestState;
use std::any::{Any, TypeId};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
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
    extensions: Extensions,
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
        // Sleeps move the guest's virtual clock instead of blocking.
        linker.allow_shadowing(true);
        crate::wasi_virtual::shadow_monotonic_clock(&mut linker)?;
        linker.allow_shadowing(false);
        let ticker = start_epoch_ticker(&engine);
        let sandbox = crate::sandbox::SharedSandbox::new(&engine, &cache);
        Ok(Runtime {
            inner: Arc::new(RuntimeInner {
                engine,
                linker,
                cache,
                datasets: Datasets::default(),
                sandbox,
                extensions: Extensions::default(),
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

    /// The code sandbox (loaded on first use), or why it cannot run (no runner was given, or
    /// it does not load).
    pub fn sandbox(&self) -> crate::Result<crate::sandbox::Sandbox> {
        self.inner
            .sandbox
            .get()
            .map_err(crate::sandbox::sandbox_unavailable)
    }

    /// Gives the code sandbox its Python runner component (`plugins/python-runner`, which
    /// `geode_builtins::install` provides), or the reason there is none (`Err`, reported when
    /// code is run). Until then the sandbox is unavailable. The first call wins: returns false
    /// when a runner was already given.
    pub fn set_python_runner(&self, runner: Result<Cow<'static, [u8]>, String>) -> bool {
        self.inner.sandbox.provide(runner)
    }

    /// Gives the code sandbox its Python runner with numpy (`plugins/python-runner/build.sh
    /// --with-numpy`, which `geode_builtins::install` provides), where programs that need
    /// numpy run; without it they fail to import numpy. Set it before the sandbox is first
    /// used. The first call wins: returns false when one was already given.
    pub fn set_python_numpy_runner(&self, runner: Result<Cow<'static, [u8]>, String>) -> bool {
        self.inner.sandbox.provide_numpy(runner)
    }

    /// The runtime's shared value of type `T`, made by `init` the first time it is asked for:
    /// where a crate that adds native providers keeps per-runtime state (`geode-builtins`
    /// keeps its math grader here). `T` must not hold this runtime (that would be a cycle).
    pub fn extension<T: Any + Send + Sync>(&self, init: impl FnOnce(&Runtime) -> T) -> Arc<T> {
        let key = TypeId::of::<T>();
        let found = self.inner.extensions.lock().get(&key).cloned();
        let value = match found {
            Some(value) => value,
            // Made outside the lock, so `init` may ask for other extensions.
            None => {
                let made: Arc<dyn Any + Send + Sync> = Arc::new(init(self));
                let mut map = self.inner.extensions.lock();
                map.entry(key).or_insert(made).clone()
            }
        };
        value
            .downcast()
            .expect("extensions are keyed by their type")
    }

    /// The shared handle guests' `sandbox` import runs on.
    pub(crate) fn shared_sandbox(&self) -> &crate::sandbox::SharedSandbox {
        &self.inner.sandbox
    }
}

/// Per-runtime values by type (see [`Runtime::extension`]).
#[derive(Default)]
struct Extensions(Mutex<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>);

impl Extensions {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<TypeId, Arc<dyn Any + Send + Sync>>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
