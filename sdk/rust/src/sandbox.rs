//! Run untrusted code from a plugin through the host's `sandbox` import: each call gets a fresh,
//! isolated interpreter instance (nothing survives it) under a CPU budget, a wall-clock
//! deadline, a memory cap and output caps. A limit left unset takes the host's default; the
//! host also clamps every limit to its own ceiling.
//!
//! ```ignore
//! use geode_sdk::sandbox::{self, RunRequest, RunStatus};
//! use std::time::Duration;
//!
//! let outcome = sandbox::run(
//!     &RunRequest::python("print(sum(map(int, input().split())))")
//!         .stdin("2 3\n")
//!         .timeout(Duration::from_secs(2)),
//! );
//! assert_eq!(outcome.status, RunStatus::Ok);
//! assert_eq!(outcome.stdout, "5\n");
//! ```

use std::time::Duration;

/// What to run, and the limits to run it under. Build one with [`RunRequest::python`] and the
/// chained setters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRequest {
    /// The language of `code`; `"python"` is the one every host provides.
    pub language: String,
    /// The program.
    pub code: String,
    /// Everything the program reads from stdin.
    pub stdin: String,
    /// Deterministic CPU budget, in fuel units (`None`: the host's default).
    pub fuel: Option<u64>,
    /// Wall-clock backstop (`None`: the host's default); sent in whole milliseconds.
    pub timeout: Option<Duration>,
    /// Cap on the interpreter's memory, in bytes (`None`: the host's default).
    pub memory_bytes: Option<u64>,
    /// Cap on each of stdout and stderr, in bytes (`None`: the host's default).
    pub output_bytes: Option<u32>,
}

impl RunRequest {
    /// A Python program with empty stdin and the host's default limits.
    pub fn python(code: impl Into<String>) -> Self {
        Self::new("python", code)
    }

    /// A program in `language` with empty stdin and the host's default limits.
    pub fn new(language: impl Into<String>, code: impl Into<String>) -> Self {
        RunRequest {
            language: language.into(),
            code: code.into(),
            stdin: String::new(),
            fuel: None,
            timeout: None,
            memory_bytes: None,
            output_bytes: None,
        }
    }

    /// Sets what the program reads from stdin.
    pub fn stdin(mut self, stdin: impl Into<String>) -> Self {
        self.stdin = stdin.into();
        self
    }

    /// Sets the CPU budget, in fuel units.
    pub fn fuel(mut self, fuel: u64) -> Self {
        self.fuel = Some(fuel);
        self
    }

    /// Sets the wall-clock deadline.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Sets the memory cap, in bytes.
    pub fn memory_bytes(mut self, bytes: u64) -> Self {
        self.memory_bytes = Some(bytes);
        self
    }

    /// Sets the cap on each of stdout and stderr, in bytes.
    pub fn output_bytes(mut self, bytes: u32) -> Self {
        self.output_bytes = Some(bytes);
        self
    }

    /// The timeout as the import carries it: whole milliseconds, rounded up, saturating.
    fn timeout_ms(&self) -> Option<u32> {
        self.timeout
            .map(|t| u32::try_from(t.as_nanos().div_ceil(1_000_000)).unwrap_or(u32::MAX))
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RunStatus {
    /// The program ran to completion (possibly with a non-zero exit code).
    Ok,
    /// An uncaught exception; `stderr` holds the traceback.
    RuntimeError,
    /// The CPU budget ran out.
    OutOfFuel,
    /// The wall-clock deadline passed.
    Deadline,
    /// The memory cap was hit.
    Memory,
    /// stdout or stderr went over its cap.
    OutputLimit,
    /// The language is not available here (or the code ran outside a geode host).
    Unsupported,
}

impl RunStatus {
    /// The status in snake case (`"ok"`, `"out_of_fuel"`, ...), as geode writes it in infos.
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Ok => "ok",
            RunStatus::RuntimeError => "runtime_error",
            RunStatus::OutOfFuel => "out_of_fuel",
            RunStatus::Deadline => "deadline",
            RunStatus::Memory => "memory",
            RunStatus::OutputLimit => "output_limit",
            RunStatus::Unsupported => "unsupported",
        }
    }
}

/// What a run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOutcome {
    /// How it ended.
    pub status: RunStatus,
    /// The program's exit code (`sys.exit(n)`); 0 when it ended normally, −1 when cut off.
    pub exit_code: i32,
    /// Everything it printed (up to the output cap).
    pub stdout: String,
    /// Its error output, with the host's explanation appended when a limit ended the run.
    pub stderr: String,
    /// Fuel units consumed.
    pub fuel_used: u64,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
}

impl RunOutcome {
    /// True when the program ran to completion with exit code 0.
    pub fn succeeded(&self) -> bool {
        self.status == RunStatus::Ok && self.exit_code == 0
    }
}

/// Runs `request` in a fresh sandboxed interpreter and waits for it. Never fails: every way a
/// run can end is a [`RunStatus`]. Outside a wasm plugin (native unit tests) there is no host,
/// and the outcome is [`RunStatus::Unsupported`].
pub fn run(request: &RunRequest) -> RunOutcome {
    glue::run(request)
}

/// The import call, on wasm only.
#[cfg(target_arch = "wasm32")]
mod glue {
    use super::{RunOutcome, RunRequest, RunStatus};
    use crate::bindings::geode::env::sandbox as host;
    use std::time::Duration;

    pub(super) fn run(request: &RunRequest) -> RunOutcome {
        let outcome = host::run(&host::RunRequest {
            language: request.language.clone(),
            code: request.code.clone(),
            stdin: request.stdin.clone(),
            fuel: request.fuel,
            timeout_ms: request.timeout_ms(),
            memory_bytes: request.memory_bytes,
            output_bytes: request.output_bytes,
        });
        RunOutcome {
            status: match outcome.status {
                host::RunStatus::Ok => RunStatus::Ok,
                host::RunStatus::RuntimeError => RunStatus::RuntimeError,
                host::RunStatus::OutOfFuel => RunStatus::OutOfFuel,
                host::RunStatus::Deadline => RunStatus::Deadline,
                host::RunStatus::Memory => RunStatus::Memory,
                host::RunStatus::OutputLimit => RunStatus::OutputLimit,
                host::RunStatus::Unsupported => RunStatus::Unsupported,
            },
            exit_code: outcome.exit_code,
            stdout: outcome.stdout,
            stderr: outcome.stderr,
            fuel_used: outcome.fuel_used,
            elapsed: Duration::from_micros(outcome.elapsed_us),
        }
    }
}

/// Natively there is no host to run code on.
#[cfg(not(target_arch = "wasm32"))]
mod glue {
    use super::{RunOutcome, RunRequest, RunStatus};
    use std::time::Duration;

    pub(super) fn run(request: &RunRequest) -> RunOutcome {
        let _ = request.timeout_ms();
        RunOutcome {
            status: RunStatus::Unsupported,
            exit_code: -1,
            stdout: String::new(),
            stderr: "the sandbox import is only available inside a geode plugin (wasm32)"
                .to_owned(),
            fuel_used: 0,
            elapsed: Duration::ZERO,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builder_sets_every_limit() {
        let request = RunRequest::python("print(input())")
            .stdin("hi\n")
            .fuel(5_000_000)
            .timeout(Duration::from_micros(1_500))
            .memory_bytes(64 << 20)
            .output_bytes(4096);
        assert_eq!(request.language, "python");
        assert_eq!(request.stdin, "hi\n");
        assert_eq!(request.fuel, Some(5_000_000));
        assert_eq!(request.timeout_ms(), Some(2), "rounded up to whole ms");
        assert_eq!(request.memory_bytes, Some(64 << 20));
        assert_eq!(request.output_bytes, Some(4096));
        let forever = RunRequest::python("").timeout(Duration::from_secs(u64::MAX / 4));
        assert_eq!(forever.timeout_ms(), Some(u32::MAX));
        assert_eq!(RunRequest::python("").timeout_ms(), None);
    }

    #[test]
    fn natively_there_is_no_host() {
        let outcome = run(&RunRequest::python("print(1)"));
        assert_eq!(outcome.status, RunStatus::Unsupported);
        assert!(!outcome.succeeded());
        assert!(
            outcome
                .stderr
                .contains("only available inside a geode plugin")
        );
    }
}
