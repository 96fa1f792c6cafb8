//! Errors a plugin reports to the host (as the contract's `env-error`, never as a trap).

// The one `env-error` type of every world (the tool and wrapper bindings reuse it).
use crate::bindings::geode::env::types::EnvError;

/// A refusal the host turns into a typed error for the caller.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// A configuration value is wrong; the message names the key.
    BadConfig(String),
    /// `create` got an id this plugin does not provide.
    UnknownId(String),
    /// The call is not allowed in the current state.
    InvalidState(String),
    /// A state snapshot could not be decoded.
    BadState(String),
    /// Anything else.
    Internal(String),
}

impl Error {
    /// A bad-config error for `key`.
    pub fn bad_config(key: &str, why: impl std::fmt::Display) -> Self {
        Error::BadConfig(format!("config key `{key}`: {why}"))
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::BadConfig(m) => write!(f, "bad config: {m}"),
            Error::UnknownId(m) => write!(f, "unknown id: {m}"),
            Error::InvalidState(m) => write!(f, "invalid state: {m}"),
            Error::BadState(m) => write!(f, "bad state: {m}"),
            Error::Internal(m) => write!(f, "{m}"),
        }
    }
}

impl From<Error> for EnvError {
    fn from(e: Error) -> Self {
        match e {
            Error::BadConfig(m) => EnvError::BadConfig(m),
            Error::UnknownId(m) => EnvError::UnknownId(m),
            Error::InvalidState(m) => EnvError::InvalidState(m),
            Error::BadState(m) => EnvError::BadState(m),
            Error::Internal(m) => EnvError::Internal(m),
        }
    }
}

/// An error the host reported, e.g. from the env a wrapper wraps.
impl From<EnvError> for Error {
    fn from(e: EnvError) -> Self {
        match e {
            EnvError::BadConfig(m) => Error::BadConfig(m),
            EnvError::UnknownId(m) => Error::UnknownId(m),
            EnvError::InvalidState(m) => Error::InvalidState(m),
            EnvError::BadState(m) => Error::BadState(m),
            EnvError::Internal(m) => Error::Internal(m),
        }
    }
}
