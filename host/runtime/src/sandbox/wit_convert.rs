//! The `sandbox` host import of `geode:env@0.1.0`: converting its records to and from the
//! Rust API's types.

use super::request::{RunOutcome, RunRequest, RunStatus};
use crate::bindings::env_world::geode::env::sandbox as wit;
use std::time::Duration;

impl From<wit::RunRequest> for RunRequest {
    fn from(request: wit::RunRequest) -> Self {
        RunRequest {
            language: request.language,
            code: request.code,
            stdin: request.stdin,
            fuel: request.fuel,
            timeout: request
                .timeout_ms
                .map(|ms| Duration::from_millis(ms.into())),
            memory_bytes: request.memory_bytes,
            output_bytes: request.output_bytes,
            seed: 0,
            mounts: Vec::new(),
        }
    }
}

impl From<RunStatus> for wit::RunStatus {
    fn from(status: RunStatus) -> Self {
        match status {
            RunStatus::Ok => wit::RunStatus::Ok,
            RunStatus::RuntimeError => wit::RunStatus::RuntimeError,
            RunStatus::OutOfFuel => wit::RunStatus::OutOfFuel,
            RunStatus::Deadline => wit::RunStatus::Deadline,
            RunStatus::Memory => wit::RunStatus::Memory,
            RunStatus::OutputLimit => wit::RunStatus::OutputLimit,
            RunStatus::Unsupported => wit::RunStatus::Unsupported,
        }
    }
}

impl From<RunOutcome> for wit::RunOutcome {
    fn from(outcome: RunOutcome) -> Self {
        wit::RunOutcome {
            status: outcome.status.into(),
            exit_code: outcome.exit_code,
            stdout: outcome.stdout,
            stderr: outcome.stderr,
            fuel_used: outcome.fuel_used,
            elapsed_us: u64::try_from(outcome.elapsed.as_micros()).unwrap_or(u64::MAX),
        }
    }
}
