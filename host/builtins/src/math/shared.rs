//! The math grader of a runtime, loaded on first use (compiling it the first time takes a
//! while; later processes load cached machine code), so runtimes that never grade math never
//! pay for it. It is kept as one of the runtime's extensions: one grader per runtime.

use super::grader::MathGrader;
use crate::components::math_grader_component;
use geode_runtime::{Error, Result, Runtime};
use std::sync::OnceLock;

/// The grader slot kept in each runtime's extensions.
#[derive(Default)]
struct SharedGrader(OnceLock<std::result::Result<MathGrader, String>>);

/// The math grader of `runtime` (loaded on first use), or why it cannot run on this build.
pub fn grader(runtime: &Runtime) -> Result<MathGrader> {
    let shared = runtime.extension(|_| SharedGrader::default());
    shared
        .0
        .get_or_init(|| {
            let wasm = math_grader_component()?;
            MathGrader::new(runtime.engine(), runtime.cache(), wasm)
                .map_err(|e| format!("the math grader does not load: {e:#}"))
        })
        .clone()
        .map_err(|reason| Error::Internal(format!("math grader unavailable: {reason}")))
}
