//! What an assistant's action is: a tool call (GEM's
//! `<tool_call><tool_name>NAME</tool_name><arguments>{...}</arguments></tool_call>`, or a
//! chat-completions function call as JSON), or a message to the customer (any other text, or
//! TAU-bench's `respond` action).

use serde_json::{Map, Value};

/// One parsed assistant action.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// Run tool `name` with `arguments`.
    Tool {
        /// The tool's name.
        name: String,
        /// Its arguments (any JSON; the tool checks their shape).
        arguments: Value,
    },
    /// Say this to the customer.
    Message(String),
    /// A tool call that cannot be read; the reason goes back to the assistant.
    Malformed(String),
}

/// Reads `action`.
pub fn parse(action: &str) -> Call {
    if let Some(call) = tagged(action) {
        return call;
    }
    let trimmed = action.trim();
    if trimmed.starts_with('{')
        && let Ok(Value::Object(object)) = serde_json::from_str::<Value>(trimmed)
        && let Some(call) = json_call(&object)
    {
        return call;
    }
    Call::Message(trimmed.to_owned())
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(close)? + start;
    Some(&text[start..end])
}

/// GEM's tagged tool call, if the action has one.
fn tagged(action: &str) -> Option<Call> {
    let block = between(action, "<tool_call>", "</tool_call>")?;
    let Some(name) = between(block, "<tool_name>", "</tool_name>") else {
        return Some(Call::Malformed("the tool call has no <tool_name>".into()));
    };
    let text = between(block, "<arguments>", "</arguments>")
        .unwrap_or("")
        .trim();
    Some(match arguments(text) {
        Ok(arguments) => Call::Tool {
            name: name.trim().to_owned(),
            arguments,
        },
        Err(why) => Call::Malformed(why),
    })
}

fn arguments(text: &str) -> Result<Value, String> {
    if text.is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    serde_json::from_str(text).map_err(|e| format!("the tool call's arguments are not JSON ({e})"))
}

/// A JSON action: `{"tool_calls": [{"function": {"name", "arguments"}}]}` (a chat-completions
/// assistant message), `{"name", "arguments"}` (one function call), or TAU-bench's
/// `{"name", "kwargs"}` (with `respond` a message).
fn json_call(object: &Map<String, Value>) -> Option<Call> {
    if let Some(calls) = object.get("tool_calls").and_then(Value::as_array) {
        let function = calls.first().map(|c| c.get("function").unwrap_or(c))?;
        return Some(function_call(function.as_object()?));
    }
    object.get("name")?.as_str()?;
    Some(function_call(object))
}

fn function_call(function: &Map<String, Value>) -> Call {
    let Some(name) = function.get("name").and_then(Value::as_str) else {
        return Call::Malformed("the function call has no name".into());
    };
    let given = function.get("arguments").or_else(|| function.get("kwargs"));
    let arguments = match given {
        None | Some(Value::Null) => Ok(Value::Object(Map::new())),
        Some(Value::String(text)) => arguments(text.trim()),
        Some(other) => Ok(other.clone()),
    };
    match arguments {
        Ok(arguments) if name == "respond" => {
            match arguments.get("content").and_then(Value::as_str) {
                Some(content) => Call::Message(content.to_owned()),
                None => Call::Malformed("`respond` needs a string `content`".into()),
            }
        }
        Ok(arguments) => Call::Tool {
            name: name.to_owned(),
            arguments,
        },
        Err(why) => Call::Malformed(why),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, arguments: Value) -> Call {
        Call::Tool {
            name: name.into(),
            arguments,
        }
    }

    #[test]
    fn reads_every_form() {
        let gem = "Let me look.\n<tool_call><tool_name> get_order_details </tool_name><arguments>{\"order_id\": \"#W1\"}</arguments></tool_call>";
        assert_eq!(
            parse(gem),
            tool("get_order_details", json!({"order_id": "#W1"}))
        );
        let chat = r##"{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_order_details", "arguments": "{\"order_id\": \"#W1\"}"}}]}"##;
        assert_eq!(
            parse(chat),
            tool("get_order_details", json!({"order_id": "#W1"}))
        );
        let tau = r##"{"name": "get_order_details", "kwargs": {"order_id": "#W1"}}"##;
        assert_eq!(
            parse(tau),
            tool("get_order_details", json!({"order_id": "#W1"}))
        );
        let respond = r#"{"name": "respond", "kwargs": {"content": "Done."}}"#;
        assert_eq!(parse(respond), Call::Message("Done.".into()));
        assert_eq!(
            parse("  Hello there  "),
            Call::Message("Hello there".into())
        );
        assert_eq!(
            parse(r#"{"not": "a call"}"#),
            Call::Message(r#"{"not": "a call"}"#.into())
        );
        assert_eq!(
            parse("<tool_call><tool_name>list_all_product_types</tool_name></tool_call>"),
            tool("list_all_product_types", json!({}))
        );
    }

    #[test]
    fn unreadable_calls_are_malformed() {
        assert!(matches!(
            parse("<tool_call><tool_name>x</tool_name><arguments>{oops</arguments></tool_call>"),
            Call::Malformed(_)
        ));
        assert!(matches!(
            parse("<tool_call><arguments>{}</arguments></tool_call>"),
            Call::Malformed(_)
        ));
        assert!(matches!(
            parse(r#"{"name": "respond", "kwargs": {}}"#),
            Call::Malformed(_)
        ));
    }
}
