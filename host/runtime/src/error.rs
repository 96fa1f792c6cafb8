//! The typed errors of the geode runtime.
//!
//! Every failure a caller can act on has its own variant: a limit that was hit, a plugin that
//! broke the contract, a plugin that refused a call, or bad input from the caller.

use std::time::Duration;

/// Result alias used across the runtime.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// How a plugin refused a call (the contract's `env-error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalKind {
    /// The configuration was malformed or out of range.
    BadConfig,
    /// `create` was called with an id the plugin does not provide.
    UnknownId,
    /// The call is not allowed in the env's current state.
    InvalidState,
    /// A state snapshot could not be decoded.
    BadState,
    /// Any other failure the plugin reported.
    Internal,
}

/// Everything that can go wrong when loading or running environments.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The guest used up the fuel (deterministic CPU budget) of one call.
    #[error("env `{env}`: {call} ran out of fuel (budget {budget} units per call)")]
    OutOfFuel {
        /// The env id.
        env: String,
        /// The guest call that failed (`reset`, `step`...).
        call: &'static str,
        /// Fuel units allowed per call.
        budget: u64,
    },

    /// The guest ran past the wall-clock deadline of one call.
    #[error("env `{env}`: {call} exceeded its deadline of {limit:?}")]
    Deadline {
        /// The env id.
        env: String,
        /// The guest call that failed (`reset`, `step`...).
        call: &'static str,
        /// The limit that was passed.
        limit: Duration,
    },

    /// The guest tried to grow its memory past the limit.
    #[error("env `{env}`: {call} hit the memory limit of {limit_bytes} bytes")]
    MemoryLimit {
        /// The env id.
        env: String,
        /// The guest call that failed (`reset`, `step`...).
        call: &'static str,
        /// The memory limit in bytes.
        limit_bytes: u64,
    },

    /// The guest overflowed its call stack.
    #[error("env `{env}`: {call} overflowed the wasm stack")]
    StackOverflow {
        /// The env id.
        env: String,
        /// The guest call that failed (`reset`, `step`...).
        call: &'static str,
    },

    /// The guest trapped or panicked; `message` carries the guest's own words when it gave any.
    #[error("env `{env}`: {call} trapped: {message}")]
    GuestTrap {
        /// The env id.
        env: String,
        /// The guest call that failed (`reset`, `step`...).
        call: &'static str,
        /// What went wrong, in words.
        message: String,
    },

    /// The guest returned something the contract forbids (an info that is not a JSON object,
    /// an output over its size limit, a spec that does not parse).
    #[error("env `{env}`: contract violation in {call}: {message}")]
    Contract {
        /// The env id.
        env: String,
        /// The guest call that failed (`reset`, `step`...).
        call: &'static str,
        /// What went wrong, in words.
        message: String,
    },

    /// Replaying an episode after a fault of its unit gave other outputs than the episode gave
    /// before: the plugin's envs share state with each other (or read something besides their
    /// seed and actions), so they cannot share an instance safely. Run the plugin with
    /// `group_size` 1.
    #[error("env `{env}`: plugin is not deterministic: {message}")]
    NonDeterministic {
        /// The env id.
        env: String,
        /// Which output differed on replay.
        message: String,
    },

    /// The plugin refused the call with a typed error.
    #[error("env `{env}`: {call} refused ({kind:?}): {message}")]
    Refused {
        /// The env id.
        env: String,
        /// The guest call that failed (`reset`, `step`...).
        call: &'static str,
        /// How the plugin refused.
        kind: RefusalKind,
        /// What went wrong, in words.
        message: String,
    },

    /// A configuration override was rejected before reaching the plugin.
    #[error("env `{id}`: bad config key `{key}`: {message}")]
    BadConfig {
        /// The id as given.
        id: String,
        /// The configuration key (`<root>` for the whole object).
        key: String,
        /// What went wrong, in words.
        message: String,
    },

    /// No loaded plugin provides this id.
    #[error("unknown env id `{id}`{}", unknown_detail(.suggestions, .left_out))]
    UnknownEnv {
        /// The id as given.
        id: String,
        /// Known ids close to it, best first.
        suggestions: Vec<String>,
        /// Why this build leaves the id out, when it is one this build knows it left out (see
        /// [`Registry::leave_out`](crate::Registry::leave_out)).
        left_out: Option<String>,
    },

    /// Bytes given as a plugin are not a loadable geode component.
    #[error("{source_name} is not a geode plugin: {reason}")]
    NotAPlugin {
        /// Where the bytes came from.
        source_name: String,
        /// Why they do not load.
        reason: String,
    },

    /// Two plugins provide the same id.
    #[error("env id `{id}` is provided by both {first} and {second}")]
    DuplicateId {
        /// The id as given.
        id: String,
        /// The provider that registered it first.
        first: String,
        /// The provider that tried to register it again.
        second: String,
    },

    /// Input from the caller is larger than the env's limit allows.
    #[error("env `{env}`: {what} is {len} bytes, over the limit of {limit} bytes")]
    InputTooLarge {
        /// The env id.
        env: String,
        /// What was too large (`action`, `state`...).
        what: &'static str,
        /// Its size in bytes.
        len: usize,
        /// The limit that was passed.
        limit: usize,
    },

    /// The call is not possible in the env's state (stepped before reset, after a trap...).
    #[error("env `{env}`: {message}")]
    InvalidState {
        /// The env id.
        env: String,
        /// What went wrong, in words.
        message: String,
    },

    /// The caller passed arguments that cannot work (an index out of range, lengths that differ).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),

    /// A file system or other host-side failure.
    #[error("{context}: {source}")]
    Io {
        /// What the host was doing.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },

    /// An unexpected host-side failure (a bug in geode if it ever shows).
    #[error("internal error: {0}")]
    Internal(String),
}

fn unknown_detail(suggestions: &[String], left_out: &Option<String>) -> String {
    match left_out {
        Some(why) => format!(": this build leaves it out ({why})"),
        None => suggest(suggestions),
    }
}

fn suggest(suggestions: &[String]) -> String {
    if suggestions.is_empty() {
        String::from(" (run `geode list` to see the available ids)")
    } else {
        format!(
            "; did you mean {}?",
            suggestions
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

impl Error {
    /// True when the error came from the guest hitting a limit or trapping: the instance that
    /// raised it has been discarded, and the next `reset` builds a fresh one.
    pub fn is_trap(&self) -> bool {
        matches!(
            self,
            Error::OutOfFuel { .. }
                | Error::Deadline { .. }
                | Error::MemoryLimit { .. }
                | Error::StackOverflow { .. }
                | Error::GuestTrap { .. }
                | Error::Contract { .. }
                | Error::NonDeterministic { .. }
        )
    }
}
