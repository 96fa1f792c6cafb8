//! The numpy runner: a second Python runner component with numpy linked in beside CPython
//! (`plugins/python-runner/build.sh --with-numpy`). A run costs about twice as much in it (more
//! libraries to instantiate), so only programs that need numpy go there: those that name it, and
//! any that failed in the plain runner for want of it. The component is compiled the first time
//! a program needs it (once per machine: the compile cache keeps it).

use super::bindings::PythonRunnerPre;
use super::request::{RunOutcome, RunStatus};
use super::service::ComponentService;
use super::state::RunState;
use crate::cache::CompileCache;
use std::borrow::Cow;
use std::sync::OnceLock;
use wasmtime::Engine;

/// The numpy runner's component, loaded on first use.
pub(crate) struct NumpyRunner {
    engine: Engine,
    cache: CompileCache,
    wasm: Cow<'static, [u8]>,
    service: OnceLock<Result<ComponentService<PythonRunnerPre<RunState>>, String>>,
}

impl NumpyRunner {
    /// A runner that will load `wasm` on `engine` when a program first needs it.
    pub(crate) fn new(engine: &Engine, cache: &CompileCache, wasm: Cow<'static, [u8]>) -> Self {
        NumpyRunner {
            engine: engine.clone(),
            cache: cache.clone(),
            wasm,
            service: OnceLock::new(),
        }
    }

    /// The loaded runner, or why it does not load.
    pub(crate) fn service(&self) -> Result<&ComponentService<PythonRunnerPre<RunState>>, &str> {
        self.service
            .get_or_init(|| {
                ComponentService::load(&self.engine, &self.cache, &self.wasm, PythonRunnerPre::new)
                    .map_err(|e| format!("the numpy runner does not load: {e:#}"))
            })
            .as_ref()
            .map_err(String::as_str)
    }
}

/// Whether `code` names numpy (an import, `__import__("numpy")`...): it runs in the numpy
/// runner from the start.
pub(crate) fn names_numpy(code: &str) -> bool {
    code.contains("numpy")
}

/// Whether a run in the plain runner failed because numpy is not there (an import the text did
/// not show, such as a name built at run time): it runs again in the numpy runner.
pub(crate) fn missed_numpy(outcome: &RunOutcome) -> bool {
    outcome.status == RunStatus::RuntimeError && outcome.stderr.contains("No module named 'numpy")
}
