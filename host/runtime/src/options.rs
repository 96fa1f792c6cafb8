//! [`MakeOptions`]: everything `Registry::make` takes besides the id.

use crate::limits::Limits;
use crate::wrapper_spec::WrapperSpec;
use serde_json::Value;
use std::path::PathBuf;

/// How to make one env: config overrides, limits, wrappers and extra data directories.
///
/// `Registry::make(id, &json!({...}))` converts overrides alone into options with everything
/// else at its default.
#[derive(Debug, Clone, Default)]
pub struct MakeOptions {
    /// Merged over the id's default configuration (a JSON object, or null for none).
    pub overrides: Value,
    /// Fuel, memory and deadline limits of every guest call.
    pub limits: Limits,
    /// Wrapper layers, the first wrapping the env itself.
    pub wrappers: Vec<WrapperSpec>,
    /// Directories added to the runtime's data directories before the env is made (dataset
    /// files named by a `dataset` key are read from them).
    pub data_dirs: Vec<PathBuf>,
}

impl MakeOptions {
    /// Options with these overrides.
    pub fn overrides(overrides: Value) -> Self {
        MakeOptions {
            overrides,
            ..MakeOptions::default()
        }
    }

    /// The same options with `limits`.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The same options with `wrappers`.
    pub fn with_wrappers(mut self, wrappers: impl Into<Vec<WrapperSpec>>) -> Self {
        self.wrappers = wrappers.into();
        self
    }
}

impl From<Value> for MakeOptions {
    fn from(overrides: Value) -> Self {
        MakeOptions::overrides(overrides)
    }
}

impl From<&Value> for MakeOptions {
    fn from(overrides: &Value) -> Self {
        MakeOptions::overrides(overrides.clone())
    }
}
