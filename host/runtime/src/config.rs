//! Merging user overrides into an id's default configuration, with checked keys and types: the
//! one check every configurable thing (plugins, native envs, host tools) goes through.

use crate::{Error, Result};
use serde_json::{Map, Value};

/// The JSON kind of a value, as users would name it in an error.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn compatible(default: &Value, given: &Value) -> bool {
    match (default, given) {
        (Value::Null, _) | (_, Value::Null) => true,
        (Value::Number(d), Value::Number(g)) => {
            !(d.is_i64() || d.is_u64()) || g.is_i64() || g.is_u64()
        }
        (d, g) => std::mem::discriminant(d) == std::mem::discriminant(g),
    }
}

/// `defaults` with `overrides` (a JSON object, or null for none) applied. Every override key must
/// exist in `defaults` and its value must have the default's type: an integer where the default
/// is one (so a default that may be fractional is written as a float, `10.0`); `null` is always
/// allowed, and any type is allowed where the default is `null`, so the reader of such a key
/// checks its type. Errors name `id` and the key.
pub fn merge(
    id: &str,
    defaults: &Map<String, Value>,
    overrides: &Value,
) -> Result<Map<String, Value>> {
    let bad = |key: &str, message: String| Error::BadConfig {
        id: id.to_owned(),
        key: key.to_owned(),
        message,
    };
    let overrides = match overrides {
        Value::Null => return Ok(defaults.clone()),
        Value::Object(map) => map,
        other => {
            return Err(bad(
                "<root>",
                format!("overrides must be a JSON object, got {other}"),
            ));
        }
    };
    let mut merged = defaults.clone();
    for (key, value) in overrides {
        let Some(default) = defaults.get(key) else {
            let known: Vec<&str> = defaults.keys().map(String::as_str).collect();
            let message = if known.is_empty() {
                "unknown key; this env takes no configuration".to_owned()
            } else {
                format!("unknown key; known keys are {}", known.join(", "))
            };
            return Err(bad(key, message));
        };
        if !compatible(default, value) {
            return Err(bad(
                key,
                format!("expected {}, got {} ({value})", kind(default), kind(value)),
            ));
        }
        merged.insert(key.clone(), value.clone());
    }
    Ok(merged)
}

/// [`merge`] over `defaults` given as a JSON value (an object; anything else counts as no keys).
pub fn merge_value(id: &str, defaults: &Value, overrides: &Value) -> Result<Map<String, Value>> {
    let empty = Map::new();
    merge(id, defaults.as_object().unwrap_or(&empty), overrides)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn rejects_unknown_keys_and_wrong_types() {
        let defaults = map(json!({"max_turns": 7, "ratio": 0.5, "name": "x", "free": null}));
        let err = merge("e", &defaults, &json!({"max_turn": 3}))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`max_turn`") && err.contains("known keys are"),
            "{err}"
        );
        let err = merge("e", &defaults, &json!({"max_turns": "9"}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("expected an integer, got a string"), "{err}");
        let err = merge("e", &defaults, &json!({"max_turns": 1.5}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("expected an integer, got a number"), "{err}");
        let ok = merge(
            "e",
            &defaults,
            &json!({"ratio": 1, "free": [1], "max_turns": 9}),
        )
        .unwrap();
        assert_eq!(ok["max_turns"], 9);
        assert_eq!(ok["free"], json!([1]));
    }

    #[test]
    fn null_overrides_are_the_defaults_and_other_roots_are_refused() {
        let defaults = map(json!({"max_turns": 7}));
        assert_eq!(merge("e", &defaults, &Value::Null).unwrap(), defaults);
        match merge("e", &defaults, &json!([1])) {
            Err(Error::BadConfig { key, message, .. }) => {
                assert_eq!(key, "<root>");
                assert!(message.contains("must be a JSON object"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }
}
