//! [`SharedSandbox`]: the runtime's sandbox, loaded on first use (the first load compiles
//! CPython, about 20 s on two cores; later processes load the cached machine code in ~0.2 s),
//! so runtimes that never run code never pay for it. The runner component comes from whoever
//! set the runtime up (`Runtime::set_python_runner`): this crate builds no guest.

use super::runner::Sandbox;
use crate::cache::CompileCache;
use std::borrow::Cow;
use std::sync::{Arc, OnceLock};
use wasmtime::Engine;

/// Why the sandbox is missing when nobody gave the runtime a runner.
const NO_RUNNER: &str = "no Python runner component was given to this runtime \
    (geode_builtins::install gives it geode's; Runtime::set_python_runner another)";

/// A sandbox built on first use and then shared by every clone (a clone is one `Arc` bump:
/// every guest store holds one).
#[derive(Clone)]
pub struct SharedSandbox(Arc<Shared>);

struct Shared {
    engine: Engine,
    cache: CompileCache,
    /// The runner component, or why there is none.
    runner: OnceLock<Result<Cow<'static, [u8]>, String>>,
    /// The runner component with numpy, or why there is none.
    numpy_runner: OnceLock<Result<Cow<'static, [u8]>, String>>,
    cell: OnceLock<Result<Sandbox, String>>,
}

impl SharedSandbox {
    /// A sandbox that will load its runner on `engine` when first asked for.
    pub fn new(engine: &Engine, cache: &CompileCache) -> Self {
        SharedSandbox(Arc::new(Shared {
            engine: engine.clone(),
            cache: cache.clone(),
            runner: OnceLock::new(),
            numpy_runner: OnceLock::new(),
            cell: OnceLock::new(),
        }))
    }

    /// Sets the runner component (or why there is none); false when one was already set.
    pub fn provide(&self, runner: Result<Cow<'static, [u8]>, String>) -> bool {
        self.0.runner.set(runner).is_ok()
    }

    /// Sets the runner component with numpy (or why there is none); false when one was
    /// already set. Takes effect if set before the sandbox is first used.
    pub fn provide_numpy(&self, runner: Result<Cow<'static, [u8]>, String>) -> bool {
        self.0.numpy_runner.set(runner).is_ok()
    }

    /// The sandbox, or why it cannot run (no runner, or it does not load).
    pub fn get(&self) -> Result<Sandbox, String> {
        let shared = &self.0;
        // Not cached while no runner is set: one may still come.
        let runner = shared.runner.get().ok_or_else(|| NO_RUNNER.to_owned())?;
        shared
            .cell
            .get_or_init(|| {
                let wasm = runner.as_deref().map_err(Clone::clone)?;
                let sandbox = Sandbox::new(&shared.engine, &shared.cache, wasm)
                    .map_err(|e| format!("the Python runner does not load: {e:#}"))?;
                Ok(match shared.numpy_runner.get() {
                    Some(Ok(numpy)) => {
                        sandbox.with_numpy_runner(&shared.engine, &shared.cache, numpy.clone())
                    }
                    Some(Err(reason)) => sandbox.without_numpy_runner(format!(
                        "geode: numpy is not available here: {reason}"
                    )),
                    None => sandbox,
                })
            })
            .clone()
    }
}
