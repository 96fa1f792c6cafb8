//! Agentic coding envs (`swe:*`) without containers: each episode gets a private in-memory
//! copy of a task's Python repository ([`geode_runtime::workspace`]), which the sandboxed
//! CPython sees at `/workspace`; the agent works through tools called in GEM's tool-call
//! format (file editor, python, pytest, search, submit), and the reward comes from the task's
//! hidden tests run in a fresh instance over the agent's tree with every test and test
//! configuration restored ([`grade`]).

mod config;
mod editor;
mod env;
pub mod grade;
mod patch;
mod provider;
mod search;
mod task;
mod taskset;
mod tools;

pub use config::{Budget, SweConfig, default_config};
pub use editor::History;
pub use env::{SweEnv, mounts, prompt};
pub use grade::{Verdict, grading_tree};
pub use patch::apply as apply_patch;
pub use provider::{ALL_TASKS_ID, SweProvider};
pub use search::search;
pub use task::{RowContext, SweTask, apply_gold};
pub use taskset::{load as load_tasks, shipped as shipped_tasks};
pub use tools::{clip, function_specs, instructions};
