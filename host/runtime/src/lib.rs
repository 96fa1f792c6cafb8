//! # geode-runtime
//!
//! The host side of geode: loads reinforcement-learning environments compiled as WebAssembly
//! components (the `geode:env@0.1.0` contract in `wit/`), runs each in its own sandboxed
//! instance under fuel, memory and deadline limits, and exposes GEM's env API to Rust.
//!
//! This crate holds the mechanisms only and compiles no guest: it loads the plugins it is
//! given. geode's own content (the plugins in `plugins/`, the CPython components, GEM's code
//! and math envs) is the `geode-builtins` crate, whose `geode_builtins::standard(runtime)`
//! returns the registry the CLI and Python use.
//!
//! ```no_run
//! use geode_runtime::{Env, Registry, Runtime};
//!
//! let mut registry = Registry::empty(Runtime::new()?);
//! registry.add_file(std::path::Path::new("my_env.wasm"))?;
//! let mut env = registry.make("my:Env-v0", &serde_json::json!({}))?;
//! let first = env.reset(Some(42))?;
//! println!("{}", first.observation);
//! let step = env.step("\\boxed{25}")?;
//! println!("reward {} done {}", step.reward, step.done());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod bindings;
mod cache;
mod component_env;
pub mod config;
pub mod conformance;
mod dataset;
mod engine;
mod env;
mod error;
mod guest;
mod host_state;
mod lending;
mod limits;
pub mod multiagent;
mod options;
mod plugin;
mod provider;
mod registry;
mod runtime;
pub mod sandbox;
mod stack;
pub mod tool;
pub mod tool_call;
mod unit;
pub mod vector;
mod wasi_virtual;
pub mod workspace;
mod wrapper_spec;
pub mod wrappers;

pub use bindings::{CONTRACT_VERSION, ENV_EXPORT, MULTIAGENT_EXPORT};
pub use cache::{
    CompileCache, PRECOMPILED_DIR_NAME, Precompiled, default_cache_dir, default_precompiled_dirs,
    shipped_precompiled_dir,
};
pub use component_env::ComponentEnv;
pub use dataset::{Dataset, Datasets};
pub use engine::EngineSettings;
pub use env::{Env, Info, InfoStr, ResetOutput, StepOutput};
pub use error::{Error, RefusalKind, Result};
pub use lending::EnvLender;
pub use limits::Limits;
pub use multiagent::{ComponentMultiAgentEnv, MultiAgentEnv, MultiAgentVec};
pub use options::MakeOptions;
pub use plugin::{EnvSpec, Plugin, PluginKind, PluginSource};
pub use provider::{Entry, MakeTool, NativeProvider, Provider, ToolProvider};
pub use registry::{DATA_PATH_VAR, DATASET_KEY, PLUGIN_PATH_VAR, Registry};
pub use runtime::Runtime;
pub use stack::{VecSpec, auto_group_size};
pub use unit::MemberEnv;
pub use vector::{
    Actions, AsyncPool, AutoresetMode, Completed, Slot, SlotStep, UnitStep, Units, VectorEnv,
    VectorStep,
};
pub use wrapper_spec::WrapperSpec;
