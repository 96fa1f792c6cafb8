//! GEM's tool call in an action (the format of its MCP tool, shared by the coding envs): the first
//! `<tool_call><tool_name>NAME</tool_name><arguments>JSON</arguments></tool_call>` (whitespace
//! allowed between the tags). Empty arguments are `{}`; arguments that are not JSON make the
//! action no tool call, as in GEM.

use regex::Regex;
use serde_json::{Map, Value};
use std::sync::LazyLock;

static TOOL_CALL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?s)<tool_call>\s*<tool_name>([^<]+)</tool_name>\s*<arguments>(.*?)</arguments>\s*</tool_call>",
    )
    .expect("a valid pattern")
});

/// A tool call found in an action.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The tool's name, trimmed.
    pub name: String,
    /// The parsed arguments (any JSON value; the input schema decides what is allowed).
    pub arguments: Value,
    /// The whole `<tool_call>…</tool_call>` block.
    pub parsed_action: String,
}

/// The first tool call of `action`, if it has one with JSON arguments.
pub fn parse_tool_call(action: &str) -> Option<ToolCall> {
    let found = TOOL_CALL.captures(action)?;
    let text = found[2].trim();
    let arguments = if text.is_empty() {
        Value::Object(Map::new())
    } else {
        serde_json::from_str(text).ok()?
    };
    Some(ToolCall {
        name: found[1].trim().to_owned(),
        arguments,
        parsed_action: found[0].to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_call_is_parsed() {
        let action = "<think>add</think>\n<tool_call>\n<tool_name> add </tool_name>\n<arguments>\n{\"a\": 1}\n</arguments>\n</tool_call> then <tool_call><tool_name>b</tool_name><arguments></arguments></tool_call>";
        let call = parse_tool_call(action).unwrap();
        assert_eq!(call.name, "add");
        assert_eq!(call.arguments, json!({"a": 1}));
        assert!(
            call.parsed_action
                .starts_with("<tool_call>\n<tool_name> add")
        );
        assert!(call.parsed_action.ends_with("</arguments>\n</tool_call>"));
    }

    #[test]
    fn empty_arguments_are_an_empty_object_and_bad_json_is_no_call() {
        let empty = "<tool_call><tool_name>now</tool_name><arguments> </arguments></tool_call>";
        assert_eq!(parse_tool_call(empty).unwrap().arguments, json!({}));
        let bad = "<tool_call><tool_name>add</tool_name><arguments>{a: 1}</arguments></tool_call>";
        assert_eq!(parse_tool_call(bad), None);
        assert_eq!(parse_tool_call("<answer>3</answer>"), None);
        assert_eq!(
            parse_tool_call(
                "<tool_call><tool_name></tool_name><arguments>{}</arguments></tool_call>"
            ),
            None
        );
    }
}
