//! Reading the sandbox-related keys of a tool or env configuration (a JSON object merged over
//! defaults), with GEM's units: `timeout` in seconds.

use geode_runtime::sandbox::{FUEL_PER_SECOND, RunRequest};
use geode_runtime::{Error, Result};
use serde_json::{Map, Value};
use std::time::Duration;

/// The run limits a configuration sets: `timeout` (seconds), `fuel` (null: `timeout` ×
/// [`FUEL_PER_SECOND`]), `memory_bytes`, `output_bytes`.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSettings {
    /// Wall-clock limit per run.
    pub timeout: Duration,
    /// Fuel per run.
    pub fuel: u64,
    /// Memory cap per run.
    pub memory_bytes: u64,
    /// Output cap per stream per run.
    pub output_bytes: u32,
}

impl RunSettings {
    /// Reads the settings from a merged configuration.
    pub fn from_config(id: &str, config: &Map<String, Value>) -> Result<Self> {
        let bad = |key: &str, message: &str| Error::BadConfig {
            id: id.to_owned(),
            key: key.to_owned(),
            message: message.to_owned(),
        };
        let timeout = config
            .get("timeout")
            .and_then(Value::as_f64)
            .filter(|t| *t > 0.0 && *t <= 600.0)
            .ok_or_else(|| bad("timeout", "expected seconds in (0, 600]"))?;
        let fuel = match config.get("fuel") {
            None | Some(Value::Null) => (timeout * FUEL_PER_SECOND as f64) as u64,
            Some(v) => v
                .as_u64()
                .ok_or_else(|| bad("fuel", "expected a non-negative integer or null"))?,
        };
        let memory_bytes = config
            .get("memory_bytes")
            .and_then(Value::as_u64)
            .ok_or_else(|| bad("memory_bytes", "expected a byte count"))?;
        let output_bytes = config
            .get("output_bytes")
            .and_then(Value::as_u64)
            .and_then(|b| u32::try_from(b).ok())
            .ok_or_else(|| bad("output_bytes", "expected a byte count below 4 GiB"))?;
        Ok(RunSettings {
            timeout: Duration::from_secs_f64(timeout),
            fuel,
            memory_bytes,
            output_bytes,
        })
    }

    /// A request for `code` on `stdin` under these settings.
    pub fn request(&self, code: &str, stdin: &str) -> RunRequest {
        RunRequest {
            fuel: Some(self.fuel),
            timeout: Some(self.timeout),
            memory_bytes: Some(self.memory_bytes),
            output_bytes: Some(self.output_bytes),
            ..RunRequest::python(code, stdin)
        }
    }
}
