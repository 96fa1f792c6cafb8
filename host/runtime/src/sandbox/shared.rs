//! [`SharedSandbox`]: the runtime's sandbox, loaded on first use (the first load compiles
//! CPython, about 20 s on two cores; later processes load the cached machine code in ~0.2 s),
//! so runtimes that never run code never pay for it.

use super::component::embedded;
use super::runner::Sandbox;
use crate::cache::CompileCache;
use std::sync::{Arc, OnceLock};
use wasmtime::Engine;

/// A sandbox built on first use and then shared by every clone (a clone is one `Arc` bump:
/// every guest store holds one).
#[derive(Clone)]
pub struct SharedSandbox(Arc<Shared>);

struct Shared {
    engine: Engine,
    cache: CompileCache,
    cell: OnceLock<Result<Sandbox, String>>,
}

impl SharedSandbox {
    /// A sandbox that will load the embedded Python runner on `engine` when first asked for.
    pub fn new(engine: &Engine, cache: &CompileCache) -> Self {
        SharedSandbox(Arc::new(Shared {
            engine: engine.clone(),
            cache: cache.clone(),
            cell: OnceLock::new(),
        }))
    }

    /// The sandbox, or why it cannot run (the component was not built or does not load).
    pub fn get(&self) -> Result<Sandbox, String> {
        let shared = &self.0;
        shared
            .cell
            .get_or_init(|| {
                let wasm = embedded()?;
                Sandbox::new(&shared.engine, &shared.cache, wasm)
                    .map_err(|e| format!("the Python runner does not load: {e:#}"))
            })
            .clone()
    }
}
