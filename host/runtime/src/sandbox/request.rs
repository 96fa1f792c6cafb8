//! What a sandbox run is asked to do and how it ended: [`RunRequest`], [`RunOutcome`],
//! [`RunStatus`], and the [`SandboxLimits`] a request falls back to or is clamped to.

use crate::workspace::Mount;
use std::time::Duration;

/// Fuel per second of allowed run time when a configuration leaves `fuel` null: about what
/// CPython burns per second in a tight loop on one core, so the deterministic budget and the
/// wall-clock timeout end a busy program at about the same point on an idle machine.
pub const FUEL_PER_SECOND: u64 = 10_000_000_000;

/// One program to run in a fresh interpreter instance.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRequest {
    /// The language of `code`; `"python"` is the only one this host provides.
    pub language: String,
    /// The program.
    pub code: String,
    /// Its standard input.
    pub stdin: String,
    /// Deterministic CPU budget in wasm fuel units; `None` takes the sandbox default.
    pub fuel: Option<u64>,
    /// Wall-clock backstop; `None` takes the sandbox default.
    pub timeout: Option<Duration>,
    /// Cap on the interpreter's linear memory in bytes; `None` takes the sandbox default.
    pub memory_bytes: Option<u64>,
    /// Cap on each of stdout and stderr in bytes; `None` takes the sandbox default.
    pub output_bytes: Option<u32>,
    /// Seed of the program's randomness (`random`, `os.urandom`): the same seed replays.
    pub seed: u64,
    /// The file trees the program sees (none by default: then it sees no files at all).
    pub mounts: Vec<Mount>,
}

impl RunRequest {
    /// A Python program with `stdin` and the sandbox's default limits.
    pub fn python(code: impl Into<String>, stdin: impl Into<String>) -> Self {
        RunRequest {
            language: "python".to_owned(),
            code: code.into(),
            stdin: stdin.into(),
            fuel: None,
            timeout: None,
            memory_bytes: None,
            output_bytes: None,
            seed: 0,
            mounts: Vec::new(),
        }
    }

    /// What its call is given (stdin, trees, seed).
    pub fn inputs(&self) -> super::CallInputs<'_> {
        super::CallInputs {
            stdin: &self.stdin,
            mounts: &self.mounts,
            seed: self.seed,
        }
    }

    /// The same request with `mount` among the trees the program sees.
    pub fn with_mount(mut self, mount: Mount) -> Self {
        self.mounts.push(mount);
        self
    }

    /// The same request with a wall-clock timeout.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The same request with a fuel budget.
    pub fn with_fuel(mut self, fuel: u64) -> Self {
        self.fuel = Some(fuel);
        self
    }

    /// The same request with a memory cap.
    pub fn with_memory_bytes(mut self, bytes: u64) -> Self {
        self.memory_bytes = Some(bytes);
        self
    }

    /// The same request with an output cap.
    pub fn with_output_bytes(mut self, bytes: u32) -> Self {
        self.output_bytes = Some(bytes);
        self
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RunStatus {
    /// The program ran to completion (possibly with a non-zero exit code from `sys.exit`).
    Ok,
    /// An uncaught exception (`stderr` holds the traceback) or a crash of the interpreter.
    RuntimeError,
    /// The fuel budget ran out.
    OutOfFuel,
    /// The wall-clock deadline passed.
    Deadline,
    /// The program ran out of memory: an uncaught `MemoryError` (an allocation over the cap,
    /// or one no 32-bit heap can hold) or a trap after the cap refused a growth.
    Memory,
    /// stdout or stderr went over its cap.
    OutputLimit,
    /// The language is not available on this host (or the runner failed to load).
    Unsupported,
}

impl RunStatus {
    /// A short snake_case name, as used in infos (`ok`, `runtime_error`, `out_of_fuel`...).
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

/// The result of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    /// How it ended.
    pub status: RunStatus,
    /// `sys.exit(n)`'s code; 0 when the program ended normally, 1 after an uncaught exception,
    /// -1 when the run was stopped by a limit.
    pub exit_code: i32,
    /// Captured stdout (at most the output cap).
    pub stdout: String,
    /// Captured stderr (at most the output cap); tracebacks and limit explanations land here.
    pub stderr: String,
    /// Fuel units consumed.
    pub fuel_used: u64,
    /// Wall-clock time of the run, instantiation included.
    pub elapsed: Duration,
    /// True when a raised [`StopSignal`](super::StopSignal) ended the run or kept it from
    /// starting (status [`RunStatus::Deadline`]): another run of the same answer failed first.
    pub stopped: bool,
    /// True when the program ended the process itself (`os._exit`) instead of returning to
    /// the runner: whatever it was running did not finish (a grader reads this as "no verdict").
    pub exited: bool,
}

impl RunOutcome {
    /// True when the program completed with exit code 0 (GEM's notion of success).
    pub fn success(&self) -> bool {
        self.status == RunStatus::Ok && self.exit_code == 0
    }

    /// An outcome for a run that could not start.
    pub fn unsupported(message: impl Into<String>) -> Self {
        RunOutcome {
            status: RunStatus::Unsupported,
            exit_code: -1,
            stdout: String::new(),
            stderr: message.into(),
            fuel_used: 0,
            elapsed: Duration::ZERO,
            stopped: false,
            exited: false,
        }
    }
}

/// Limits of a run: the defaults a request's `None` fields take, or the ceiling its explicit
/// values are clamped to.
#[derive(Debug, Clone, PartialEq)]
pub struct SandboxLimits {
    /// Fuel budget; `None` for unlimited.
    pub fuel: Option<u64>,
    /// Wall-clock deadline.
    pub timeout: Duration,
    /// Linear memory cap, in bytes.
    pub memory_bytes: u64,
    /// Cap on each of stdout and stderr, in bytes.
    pub output_bytes: u32,
}

impl SandboxLimits {
    /// The defaults: 10 s (GEM's default timeout) and the fuel of 10 s of a tight loop
    /// ([`FUEL_PER_SECOND`](FUEL_PER_SECOND)), 256 MiB of memory, 1 MiB of output per
    /// stream.
    pub fn default_run() -> Self {
        SandboxLimits {
            fuel: Some(10 * FUEL_PER_SECOND),
            timeout: Duration::from_secs(10),
            memory_bytes: 256 << 20,
            output_bytes: 1 << 20,
        }
    }

    /// The most any request may ask for: 10 minutes, 1 GiB, 64 MiB of output.
    pub fn ceiling() -> Self {
        SandboxLimits {
            fuel: None,
            timeout: Duration::from_secs(600),
            memory_bytes: 1 << 30,
            output_bytes: 64 << 20,
        }
    }

    /// The limits of `request`: its explicit values clamped to `ceiling`, the rest from `self`.
    pub fn resolve(&self, request: &RunRequest, ceiling: &SandboxLimits) -> SandboxLimits {
        let fuel = match (request.fuel.or(self.fuel), ceiling.fuel) {
            (Some(f), Some(c)) => Some(f.min(c)),
            (Some(f), None) => Some(f),
            (None, c) => c,
        };
        SandboxLimits {
            fuel,
            timeout: request.timeout.unwrap_or(self.timeout).min(ceiling.timeout),
            memory_bytes: request
                .memory_bytes
                .unwrap_or(self.memory_bytes)
                .min(ceiling.memory_bytes),
            output_bytes: request
                .output_bytes
                .unwrap_or(self.output_bytes)
                .min(ceiling.output_bytes),
        }
    }
}

impl Default for SandboxLimits {
    fn default() -> Self {
        Self::default_run()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_clamped_to_the_ceiling() {
        let defaults = SandboxLimits::default_run();
        let ceiling = SandboxLimits::ceiling();
        let asked = RunRequest::python("", "")
            .with_timeout(Duration::from_secs(100_000))
            .with_memory_bytes(1 << 40);
        let got = defaults.resolve(&asked, &ceiling);
        assert_eq!(got.timeout, ceiling.timeout);
        assert_eq!(got.memory_bytes, ceiling.memory_bytes);
        assert_eq!(got.output_bytes, defaults.output_bytes);
        assert_eq!(got.fuel, defaults.fuel);
    }
}
