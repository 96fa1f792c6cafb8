//! Merging user overrides into an id's default configuration, with checked keys and types.

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

/// `defaults` with `overrides` applied. Every override key must exist in `defaults` and its value
/// must have the default's type (an integer where the default is one; `null` is always allowed,
/// and any type is allowed where the default is `null`).
pub fn merge(
    id: &str,
    defaults: &Map<String, Value>,
    overrides: &Map<String, Value>,
) -> Result<Map<String, Value>> {
    let mut merged = defaults.clone();
    for (key, value) in overrides {
        let Some(default) = defaults.get(key) else {
            let known: Vec<&str> = defaults.keys().map(String::as_str).collect();
            let message = if known.is_empty() {
                "unknown key; this env takes no configuration".to_owned()
            } else {
                format!("unknown key; known keys are {}", known.join(", "))
            };
            return Err(Error::BadConfig {
                id: id.to_owned(),
                key: key.clone(),
                message,
            });
        };
        if !compatible(default, value) {
            return Err(Error::BadConfig {
                id: id.to_owned(),
                key: key.clone(),
                message: format!("expected {}, got {} ({value})", kind(default), kind(value)),
            });
        }
        merged.insert(key.clone(), value.clone());
    }
    Ok(merged)
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
        let err = merge("e", &defaults, &map(json!({"max_turn": 3})))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`max_turn`") && err.contains("known keys are"),
            "{err}"
        );
        let err = merge("e", &defaults, &map(json!({"max_turns": "9"})))
            .unwrap_err()
            .to_string();
        assert!(err.contains("expected an integer, got a string"), "{err}");
        let err = merge("e", &defaults, &map(json!({"max_turns": 1.5})))
            .unwrap_err()
            .to_string();
        assert!(err.contains("expected an integer, got a number"), "{err}");
        let ok = merge(
            "e",
            &defaults,
            &map(json!({"ratio": 1, "free": [1], "max_turns": 9})),
        )
        .unwrap();
        assert_eq!(ok["max_turns"], 9);
        assert_eq!(ok["free"], json!([1]));
    }
}
