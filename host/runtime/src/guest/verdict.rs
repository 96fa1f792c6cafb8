//! Turning what a guest call returned into geode's typed errors: traps and limits, refusals,
//! contract violations of its outputs, and the guest's own last words on stderr.

use crate::Error;
use crate::bindings::env_world::geode::env::types::EnvError;
use crate::error::RefusalKind;
use crate::host_state::GuestState;
use crate::limits::Limits;
use wasmtime::Trap;

/// The typed error for a refusal (`env-error`) of call `call` by env `env`.
pub fn refused(env: &str, call: &'static str, refusal: EnvError) -> Error {
    let (kind, message) = match refusal {
        EnvError::BadConfig(m) => (RefusalKind::BadConfig, m),
        EnvError::UnknownId(m) => (RefusalKind::UnknownId, m),
        EnvError::InvalidState(m) => (RefusalKind::InvalidState, m),
        EnvError::BadState(m) => (RefusalKind::BadState, m),
        EnvError::Internal(m) => (RefusalKind::Internal, m),
    };
    Error::Refused {
        env: env.to_owned(),
        call,
        kind,
        message,
    }
}

/// The typed error that explains a failed guest call.
pub fn classify(
    env: &str,
    limits: &Limits,
    state: &GuestState,
    call: &'static str,
    error: wasmtime::Error,
) -> Error {
    let env = env.to_owned();
    match error.downcast_ref::<Trap>() {
        Some(Trap::OutOfFuel) => Error::OutOfFuel {
            env,
            call,
            budget: limits.fuel_per_call.unwrap_or(u64::MAX),
        },
        Some(Trap::Interrupt) => Error::Deadline {
            env,
            call,
            limit: limits.deadline_per_call.unwrap_or_default(),
        },
        Some(Trap::StackOverflow) => Error::StackOverflow { env, call },
        _ if state.limiter.memory_denied => Error::MemoryLimit {
            env,
            call,
            limit_bytes: limits.max_memory_bytes,
        },
        _ => {
            let message = panic_message(&state.stderr.text()).unwrap_or_else(|| error.to_string());
            Error::GuestTrap { env, call, message }
        }
    }
}

/// Checks one result a guest returned against the limits and the contract: the observation
/// fits, the reward is finite, and the info (when given; `None` skips an info already checked)
/// fits and is a JSON object. The error is a contract violation of `call`.
pub(crate) fn check_result(
    limits: &Limits,
    env: &str,
    call: &'static str,
    observation: &str,
    reward: f64,
    info: Option<&str>,
) -> Result<(), Error> {
    let violation = |message: String| Error::Contract {
        env: env.to_owned(),
        call,
        message,
    };
    let limit = limits.max_observation_bytes;
    if observation.len() > limit {
        return Err(violation(format!(
            "observation is {} bytes, over the limit of {limit}",
            observation.len()
        )));
    }
    if !reward.is_finite() {
        return Err(violation(format!(
            "reward must be a finite number, got {reward}"
        )));
    }
    if let Some(info) = info {
        let limit = limits.max_info_bytes;
        if info.len() > limit {
            return Err(violation(format!(
                "info is {} bytes, over the limit of {limit}",
                info.len()
            )));
        }
        crate::env::Info::check_json(info).map_err(violation)?;
    }
    Ok(())
}

/// The message of a Rust-style panic (`panicked at file:line:col:\nmessage`) or any other last
/// words the guest wrote to stderr.
fn panic_message(stderr: &str) -> Option<String> {
    let text = stderr.trim();
    if text.is_empty() {
        return None;
    }
    if let Some(at) = text.rfind("panicked at ") {
        let after = &text[at + "panicked at ".len()..];
        let (location, message) = after.split_once(":\n").unwrap_or((after, ""));
        let message = message
            .lines()
            .take_while(|l| !l.starts_with("note:"))
            .collect::<Vec<_>>()
            .join("\n");
        return Some(format!("panicked at {location}: {}", message.trim()));
    }
    Some(
        text.lines()
            .rev()
            .take(5)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

#[cfg(test)]
mod tests {
    use super::panic_message;

    #[test]
    fn extracts_rust_panic_messages() {
        let stderr = "\nthread '<unnamed>' panicked at src/lib.rs:10:5:\nthe board is on fire\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(
            panic_message(stderr).unwrap(),
            "panicked at src/lib.rs:10:5: the board is on fire"
        );
        assert_eq!(panic_message("  "), None);
    }
}
