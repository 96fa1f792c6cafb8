//! Reading the sandbox-related keys of a tool or env configuration (a JSON object merged over
//! defaults), with GEM's units: `timeout` in seconds.

use geode_runtime::sandbox::{FUEL_PER_SECOND, RunRequest};
use geode_runtime::{Error, Result};
use serde_json::{Map, Value};
use std::time::Duration;

/// Merges `overrides` (a JSON object or null) over `defaults`, refusing unknown keys and values
/// of another JSON type than the default's (`null` defaults accept numbers).
pub fn merge_config(id: &str, defaults: &Value, overrides: &Value) -> Result<Map<String, Value>> {
    let mut config = defaults.as_object().cloned().unwrap_or_default();
    let bad = |key: &str, message: String| Error::BadConfig {
        id: id.to_owned(),
        key: key.to_owned(),
        message,
    };
    let overrides = match overrides {
        Value::Null => return Ok(config),
        Value::Object(map) => map,
        other => {
            return Err(bad(
                "<root>",
                format!("overrides must be a JSON object, got {other}"),
            ));
        }
    };
    for (key, value) in overrides {
        let Some(default) = config.get(key) else {
            let known: Vec<&str> = config.keys().map(String::as_str).collect();
            return Err(bad(
                key,
                format!("unknown key; known keys: {}", known.join(", ")),
            ));
        };
        let same_kind = match (default, value) {
            (Value::Null, Value::Null | Value::Number(_)) => true,
            (Value::Number(_), Value::Number(_)) => true,
            (Value::Number(_), Value::Null) => key == "fuel",
            (d, v) => std::mem::discriminant(d) == std::mem::discriminant(v),
        };
        if !same_kind {
            return Err(bad(
                key,
                format!("expected a value like {default}, got {value}"),
            ));
        }
        config.insert(key.clone(), value.clone());
    }
    Ok(config)
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_keys_and_wrong_types_are_refused() {
        let defaults = json!({"timeout": 5, "fuel": null, "flag": false});
        let merged = merge_config("t", &defaults, &json!({"timeout": 2.5, "fuel": 10})).unwrap();
        assert_eq!(merged["timeout"], json!(2.5));
        let error = merge_config("t", &defaults, &json!({"timout": 1})).unwrap_err();
        assert!(error.to_string().contains("timout"), "{error}");
        assert!(merge_config("t", &defaults, &json!({"flag": 1})).is_err());
    }
}
