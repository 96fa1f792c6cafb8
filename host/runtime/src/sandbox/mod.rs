//! Safe code execution: untrusted Python programs run in CPython compiled to a WebAssembly
//! component (`plugins/python-runner`), one fresh instance per run, under a fuel budget, a
//! wall-clock deadline, a memory cap and output caps. Nothing survives a run; the program sees
//! no files, sockets, environment variables or processes, only its stdin. The whole standard
//! library that works under WASI is there; modules that reach outside fail when used.
//!
//! On top of it: [`PythonTool`] (`tool:python`, GEM's `PythonCodeTool`) and [`CodeEnv`]
//! (`code:CodeContest`, `code:Taco8k`, `code:PrimeIntellect15k`, `eval:CodeContest`).
//!
//! ```no_run
//! use geode_runtime::sandbox::{RunRequest, RunStatus};
//! use geode_runtime::Runtime;
//!
//! let runtime = Runtime::new()?;
//! let sandbox = runtime.sandbox()?;
//! let outcome = sandbox.run(&RunRequest::python("print(sum(map(int, input().split())))", "2 3\n"));
//! assert_eq!(outcome.status, RunStatus::Ok);
//! assert_eq!(outcome.stdout, "5\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bindings;
mod capture;
mod clock;
mod code_env;
mod code_tests;
mod component;
mod extract;
mod gem;
mod hooks;
mod python_tool;
mod reaper;
mod request;
mod runner;
mod settings;
mod shared;
mod state;
mod stop;
mod wit_convert;

pub use capture::OutputLimitExceeded;
pub(crate) use clock::shadow_monotonic_clock;
pub use code_env::{CODE_ENV_IDS, CodeEnv, FORMAT_ERROR_REWARD, SAMPLE_DATASET, TERMINAL_STATE};
pub use code_tests::{TestCase, Verdict, parse_tests, select_tests};
pub use component::embedded as embedded_python_runner;
pub use extract::{PythonCall, first_python_block, last_fenced_block};
pub use gem::{BASE_IMPORTS, run_python};
pub use hooks::NATIVE_SOURCE;
pub(crate) use hooks::sandbox_unavailable;
pub use python_tool::{PYTHON_TOOL_ID, PythonTool};
pub(crate) use reaper::Reaper;
pub use request::{RunOutcome, RunRequest, RunStatus, SandboxLimits};
pub use runner::{Footprint, Sandbox};
pub(crate) use settings::merge_config;
pub use settings::{FUEL_PER_SECOND, RunSettings};
pub(crate) use shared::SharedSandbox;
pub(crate) use state::RunState;
pub(crate) use stop::arm;
pub use stop::{CHECK_INTERVAL, StopSignal};
