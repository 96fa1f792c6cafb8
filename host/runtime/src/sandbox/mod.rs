//! Safe code execution: untrusted Python programs run in CPython compiled to a WebAssembly
//! component (`plugins/python-runner`), one fresh instance per run, under a fuel budget, a
//! wall-clock deadline, a memory cap and output caps. Nothing survives a run; the program sees
//! no files, sockets, environment variables or processes, only its stdin. The whole standard
//! library that works under WASI is there; modules that reach outside fail when used.
//!
//! This module is the service only; what uses it (the code envs, `tool:python`) is in
//! `geode-builtins` (`geode_builtins::gem`), and plugins reach it through the contract's
//! `sandbox` import. The runner component comes from the caller
//! ([`Runtime::set_python_runner`](crate::Runtime::set_python_runner)).
//! [`ComponentService`] is the fresh-instance machinery, shared with other components run the
//! same way (the math grader).
//!
//! ```no_run
//! use geode_runtime::sandbox::{RunRequest, RunStatus};
//! use geode_runtime::Runtime;
//!
//! let runtime = Runtime::new()?;
//! let runner = std::fs::read("target/python-runner/python_runner.wasm")?;
//! runtime.set_python_runner(Ok(runner.into()));
//! let sandbox = runtime.sandbox()?;
//! let outcome = sandbox.run(&RunRequest::python("print(sum(map(int, input().split())))", "2 3\n"));
//! assert_eq!(outcome.status, RunStatus::Ok);
//! assert_eq!(outcome.stdout, "5\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bindings;
mod numpy;
mod reaper;
mod request;
mod runner;
mod service;
mod shared;
mod state;
mod stop;
mod wit_convert;

pub use crate::wasi_virtual::OutputLimitExceeded;
pub use request::{FUEL_PER_SECOND, RunOutcome, RunRequest, RunStatus, SandboxLimits};
pub use runner::{Footprint, Sandbox};
pub use service::{CallInputs, ComponentService, Finished};
pub(crate) use shared::SharedSandbox;
pub use state::RunState;
pub use stop::{AnswerBudget, CHECK_INTERVAL, RunningGuard, StopSignal};

/// The error for a runtime whose sandbox cannot run.
pub(crate) fn sandbox_unavailable(reason: String) -> crate::Error {
    crate::Error::Internal(format!("code sandbox unavailable: {reason}"))
}
