//! JSON values written as Python writes them, for text GEM builds with Python: `json.dumps`
//! (the tool list of the instructions) and `str` (a FastMCP result). Object keys come in
//! serde_json's order (sorted), which may differ from the server's.

use serde_json::{Number, Value};
use std::fmt::Write;

/// `json.dumps(value)` with Python's defaults: `", "` and `": "` separators, non-ASCII
/// characters escaped.
pub fn py_json_dumps(value: &Value) -> String {
    let mut out = String::new();
    dumps_into(&mut out, value);
    out
}

fn dumps_into(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&py_number(n)),
        Value::String(s) => json_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                dumps_into(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                json_string(out, key);
                out.push_str(": ");
                dumps_into(out, item);
            }
            out.push('}');
        }
    }
}

fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// `str(value)` of the Python object `value` decodes to: a string is itself, anything else is
/// its `repr` (`True`, `None`, `{'a': [1, 2.5]}`).
pub fn py_str(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => py_repr(other),
    }
}

fn py_repr(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(b) => if *b { "True" } else { "False" }.into(),
        Value::Number(n) => py_number(n),
        Value::String(s) => repr_string(s),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(py_repr).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let items: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", repr_string(k), py_repr(v)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// A number as Python's `repr` writes it: floats always show a fraction or an exponent.
fn py_number(n: &Number) -> String {
    if n.is_f64()
        && let Some(f) = n.as_f64()
    {
        if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e16 {
            return format!("{f:.1}");
        }
        let text = format!("{f:e}");
        return match text.split_once('e') {
            Some((mantissa, exp)) if f.abs() >= 1e16 || f.abs() < 1e-4 => {
                let (sign, digits) = exp.strip_prefix('-').map_or(("+", exp), |d| ("-", d));
                format!("{mantissa}e{sign}{digits:0>2}")
            }
            _ => f.to_string(),
        };
    }
    n.to_string()
}

fn repr_string(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::from(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dumps_matches_python() {
        let value = json!({"b": [1, 2.5, null, true], "a": "é \"q\"\n", "c": {}});
        assert_eq!(
            py_json_dumps(&value),
            r#"{"a": "\u00e9 \"q\"\n", "b": [1, 2.5, null, true], "c": {}}"#
        );
        assert_eq!(py_json_dumps(&json!("😀")), r#""\ud83d\ude00""#);
        assert_eq!(py_json_dumps(&json!(3.0)), "3.0");
    }

    #[test]
    fn str_matches_python() {
        assert_eq!(py_str(&json!("plain")), "plain");
        assert_eq!(
            py_str(&json!({"k": ["it's", "a\"b", null, false, 1e20, 0.5]})),
            r#"{'k': ["it's", 'a"b', None, False, 1e+20, 0.5]}"#
        );
    }
}
