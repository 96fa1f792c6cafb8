//! Typed access to an env's configuration (a JSON object).

use crate::Error;
use serde_json::{Map, Value};

/// The configuration `create` receives: the id's defaults merged with the user's overrides.
#[derive(Debug, Clone, Default)]
pub struct Config(Map<String, Value>);

impl Config {
    /// Wraps a JSON object.
    pub fn new(map: Map<String, Value>) -> Self {
        Config(map)
    }

    /// Parses the configuration JSON the host passes to `create`.
    pub fn from_json(text: &str) -> Result<Self, Error> {
        match serde_json::from_str(text) {
            Ok(Value::Object(map)) => Ok(Config(map)),
            Ok(other) => Err(Error::BadConfig(format!(
                "expected a JSON object, got {other}"
            ))),
            Err(e) => Err(Error::BadConfig(format!("not JSON: {e}"))),
        }
    }

    /// Deserializes the whole configuration into a struct (serde names the offending field).
    pub fn parse<T: serde::de::DeserializeOwned>(&self) -> Result<T, Error> {
        serde_json::from_value(Value::Object(self.0.clone()))
            .map_err(|e| Error::BadConfig(e.to_string()))
    }

    /// An integer value, or `None` when the key is absent or null.
    pub fn opt_int(&self, key: &str) -> Result<Option<i64>, Error> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_i64()
                .map(Some)
                .ok_or_else(|| Error::bad_config(key, format!("expected an integer, got {v}"))),
        }
    }

    /// A seed: any non-negative integer up to `u64::MAX` (hosts reduce wider seeds to 64 bits),
    /// `default` when the key is absent or null.
    pub fn seed_or(&self, key: &str, default: u64) -> Result<u64, Error> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(v) => v.as_u64().ok_or_else(|| {
                Error::bad_config(key, format!("expected a non-negative integer, got {v}"))
            }),
        }
    }

    /// An integer value that must be present.
    pub fn int(&self, key: &str) -> Result<i64, Error> {
        self.opt_int(key)?
            .ok_or_else(|| Error::bad_config(key, "missing"))
    }

    /// A string value, or `None` when absent or null.
    pub fn opt_str(&self, key: &str) -> Result<Option<&str>, Error> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_str()
                .map(Some)
                .ok_or_else(|| Error::bad_config(key, format!("expected a string, got {v}"))),
        }
    }

    /// A boolean value, `default` when absent or null.
    pub fn bool_or(&self, key: &str, default: bool) -> Result<bool, Error> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(v) => v
                .as_bool()
                .ok_or_else(|| Error::bad_config(key, format!("expected a boolean, got {v}"))),
        }
    }

    /// The raw JSON value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }
}

/// `value`, the setting of `key`, as a `T` when it is at least `min`; otherwise the bad-config
/// error "must be at least {min}" (also when it does not fit in `T`).
pub fn at_least<T: TryFrom<i64>>(key: &str, value: i64, min: i64) -> Result<T, Error> {
    Some(value)
        .filter(|&v| v >= min)
        .and_then(|v| T::try_from(v).ok())
        .ok_or_else(|| Error::bad_config(key, format!("must be at least {min}")))
}

/// `value`, the setting of `key`, as a `T` when it lies in `low..=high`; otherwise the
/// bad-config error "must be between {low} and {high}" (also when it does not fit in `T`).
pub fn between<T: TryFrom<i64>>(key: &str, value: i64, low: i64, high: i64) -> Result<T, Error> {
    Some(value)
        .filter(|v| (low..=high).contains(v))
        .and_then(|v| T::try_from(v).ok())
        .ok_or_else(|| Error::bad_config(key, format!("must be between {low} and {high}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_name_the_key() {
        assert_eq!(at_least::<u64>("max_turns", 3, 1), Ok(3));
        assert_eq!(
            at_least::<u64>("max_turns", 0, 1),
            Err(Error::BadConfig(
                "config key `max_turns`: must be at least 1".into()
            ))
        );
        assert!(at_least::<u64>("max_turns", -5, -10).is_err());
        assert_eq!(between::<usize>("rows", 100, 1, 100), Ok(100));
        assert_eq!(
            between::<usize>("rows", 101, 1, 100),
            Err(Error::BadConfig(
                "config key `rows`: must be between 1 and 100".into()
            ))
        );
    }
}
