//! A tool call's arguments, read with typed errors that name the argument.

use super::ToolError;
use serde_json::{Map, Value};

/// Longest piece of a caller's text echoed back in an error.
const ECHO_CHARS: usize = 80;

/// `text` cut to a length fit for an error message.
pub fn clip(text: &str) -> String {
    if text.chars().count() <= ECHO_CHARS {
        return text.to_owned();
    }
    let kept: String = text.chars().take(ECHO_CHARS).collect();
    format!("{kept}...")
}

/// The arguments of one call: a JSON object.
pub struct Args<'a>(&'a Map<String, Value>);

impl<'a> Args<'a> {
    /// `value` as arguments; anything but an object is refused.
    pub fn new(value: &'a Value) -> Result<Self, ToolError> {
        value.as_object().map(Args).ok_or_else(|| {
            ToolError::BadArguments(format!(
                "the arguments must be a JSON object, not {}",
                clip(&value.to_string())
            ))
        })
    }

    fn get(&self, key: &str) -> Result<&'a Value, ToolError> {
        self.0
            .get(key)
            .ok_or_else(|| ToolError::BadArguments(format!("missing argument `{key}`")))
    }

    /// Argument `key`, a string.
    pub fn text(&self, key: &str) -> Result<&'a str, ToolError> {
        match self.get(key)? {
            Value::String(s) => Ok(s),
            other => Err(ToolError::BadArguments(format!(
                "argument `{key}` must be a string, not {}",
                clip(&other.to_string())
            ))),
        }
    }

    /// Argument `key`, a list of strings.
    pub fn strings(&self, key: &str) -> Result<Vec<&'a str>, ToolError> {
        let bad = |other: &Value| {
            ToolError::BadArguments(format!(
                "argument `{key}` must be a list of strings, not {}",
                clip(&other.to_string())
            ))
        };
        match self.get(key)? {
            Value::Array(items) => items
                .iter()
                .map(|v| v.as_str().ok_or_else(|| bad(v)))
                .collect(),
            other => Err(bad(other)),
        }
    }
}

impl<'a> Args<'a> {
    /// Argument `key`, whatever its type.
    pub fn value(&self, key: &str) -> Result<&'a Value, ToolError> {
        self.get(key)
    }

    /// Argument `key`, an integer.
    pub fn int(&self, key: &str) -> Result<i64, ToolError> {
        let value = self.get(key)?;
        value.as_i64().ok_or_else(|| {
            ToolError::BadArguments(format!(
                "argument `{key}` must be an integer, not {}",
                clip(&value.to_string())
            ))
        })
    }

    /// Argument `key`, a number.
    pub fn number(&self, key: &str) -> Result<&'a Value, ToolError> {
        match self.get(key)? {
            number @ Value::Number(_) => Ok(number),
            other => Err(ToolError::BadArguments(format!(
                "argument `{key}` must be a number, not {}",
                clip(&other.to_string())
            ))),
        }
    }

    /// Argument `key`, a list of objects, each read as arguments of its own (an error names the
    /// list and the item).
    pub fn objects(&self, key: &str) -> Result<Vec<Args<'a>>, ToolError> {
        let bad = |what: String| {
            ToolError::BadArguments(format!("argument `{key}` must be a list of objects{what}"))
        };
        let Value::Array(items) = self.get(key)? else {
            return Err(bad(String::new()));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                item.as_object()
                    .map(Args)
                    .ok_or_else(|| bad(format!(": item {i} is {}", clip(&item.to_string()))))
            })
            .collect()
    }

    /// The object these arguments were read from.
    pub fn object(&self) -> &'a Map<String, Value> {
        self.0
    }
}
