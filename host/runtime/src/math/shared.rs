//! [`SharedGrader`]: the runtime's math grader, loaded on first use (compiling it the first
//! time takes a while; later processes load cached machine code), so runtimes that never grade
//! math never pay for it.

use super::component::embedded;
use super::grader::MathGrader;
use crate::cache::CompileCache;
use std::sync::{Arc, OnceLock};
use wasmtime::Engine;

/// A grader built on first use and then shared by every clone.
#[derive(Clone)]
pub struct SharedGrader(Arc<Shared>);

struct Shared {
    engine: Engine,
    cache: CompileCache,
    cell: OnceLock<Result<MathGrader, String>>,
}

impl SharedGrader {
    /// A grader that will load the embedded component on `engine` when first asked for.
    pub fn new(engine: &Engine, cache: &CompileCache) -> Self {
        SharedGrader(Arc::new(Shared {
            engine: engine.clone(),
            cache: cache.clone(),
            cell: OnceLock::new(),
        }))
    }

    /// The grader, or why it cannot run (not built, or does not load).
    pub fn get(&self) -> Result<MathGrader, String> {
        let shared = &self.0;
        shared
            .cell
            .get_or_init(|| {
                let wasm = embedded()?;
                MathGrader::new(&shared.engine, &shared.cache, wasm)
                    .map_err(|e| format!("the math grader does not load: {e:#}"))
            })
            .clone()
    }
}
