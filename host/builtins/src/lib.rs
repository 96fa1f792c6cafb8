//! # geode-builtins
//!
//! geode's own content on top of `geode-runtime`: the plugins in `plugins/` (GEM's games, QA
//! and logic envs, `tool:calculator`, `wrapper:answer-format`) compiled to components with their
//! dataset samples, the CPython runner the code sandbox runs programs in, GEM's code envs and
//! `tool:python` ([`gem`]), and the math envs with their sandboxed CPython grader ([`math`]).
//! Its build script compiles all of them; a program that loads only its own plugins depends on
//! `geode-runtime` alone and compiles none of this.
//!
//! ```no_run
//! use geode_runtime::{Env, Runtime};
//!
//! let registry = geode_builtins::standard(Runtime::new()?)?;
//! let mut env = registry.make("game:GuessTheNumber-v0-hard", &serde_json::json!({}))?;
//! let first = env.reset(Some(42))?;
//! println!("{}", first.observation);
//! let step = env.step("\\boxed{25}")?;
//! println!("reward {} done {}", step.reward, step.done());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod components;
mod episodes;
pub mod gem;
pub mod math;
mod precompile;
mod rows;
pub mod swe;
mod walk;

pub use components::{
    math_grader_component, python_runner_component, python_runner_numpy_component,
    shipped_components,
};
pub use precompile::{PrecompileEntry, precompile};

use geode_runtime::{PluginSource, Registry, Result, Runtime};
use std::sync::Arc;

include!(concat!(env!("OUT_DIR"), "/builtin_plugins.rs"));

/// Gives `runtime` geode's Python runners (the plain one, and the one with numpy for programs
/// that need it), so its code sandbox (`Runtime::sandbox`, the `sandbox` import of plugins) can
/// run programs. [`registry`] does this too.
pub fn install(runtime: &Runtime) {
    runtime.set_python_numpy_runner(python_runner_numpy_component().map(Into::into));
    runtime.set_python_runner(python_runner_component().map(Into::into));
}

/// The built-in plugins (with the datasets they read; a dataset of the same name already loaded
/// on `runtime` is kept) and the host's own ids (the code envs, `tool:python`, the math envs,
/// and `tool:search` and `tool:mcp` under the features of those names), on `runtime` with
/// geode's Python runner [installed](install).
pub fn registry(runtime: Runtime) -> Result<Registry> {
    install(&runtime);
    for (name, source, rows) in datasets() {
        runtime.datasets().insert_jsonl(name, source, rows)?;
    }
    let mut registry = Registry::empty(runtime);
    for (name, wasm) in plugins() {
        registry.add_bytes(PluginSource::Builtin((*name).to_owned()), wasm)?;
    }
    registry.add_native(Arc::new(gem::GemProvider))?;
    registry.add_native(Arc::new(gem::python_tool_provider()))?;
    registry.add_native(Arc::new(math::MathProvider))?;
    registry.add_native(Arc::new(swe::SweProvider))?;
    #[cfg(feature = "search")]
    registry.add_native(Arc::new(geode_search::search_provider()))?;
    #[cfg(not(feature = "search"))]
    registry.leave_out("tool:search", FEATURE_SEARCH);
    #[cfg(feature = "mcp")]
    registry.add_native(Arc::new(geode_mcp::mcp_provider()))?;
    #[cfg(not(feature = "mcp"))]
    registry.leave_out("tool:mcp", FEATURE_MCP);
    Ok(registry)
}

/// Why a build without the `search` feature has no `tool:search`.
#[cfg(not(feature = "search"))]
const FEATURE_SEARCH: &str = "the `search` feature of geode-builtins and of the `geode` \
                              command, on by default";
/// Why a build without the `mcp` feature has no `tool:mcp`.
#[cfg(not(feature = "mcp"))]
const FEATURE_MCP: &str = "the `mcp` feature of geode-builtins and of the `geode` command, \
                           on by default";

/// The standard registry, as the `geode` command and the Python package build it: the
/// [built-ins](registry), then the data directories of `GEODE_DATA_PATH` and the plugins on
/// `GEODE_PLUGIN_PATH` ([`Registry::add_from_env`]).
pub fn standard(runtime: Runtime) -> Result<Registry> {
    let mut registry = registry(runtime)?;
    registry.add_from_env()?;
    Ok(registry)
}
