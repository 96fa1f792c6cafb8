//! The tools of a coding episode: how a call is read (GEM's
//! `<tool_call><tool_name>…</tool_name><arguments>{…}</arguments></tool_call>`), what each
//! does, how they are described to the agent (text in the prompt, JSON-schema functions for
//! chat-completions function calling), and how long outputs are cut.

use serde_json::{Value, json};

/// The tools, as chat-completions function specs.
pub fn function_specs() -> Vec<Value> {
    let function = |name: &str, description: &str, parameters: Value| {
        json!({"type": "function", "function": {
            "name": name, "description": description, "parameters": parameters}})
    };
    vec![
        function(
            "str_replace_editor",
            "View, create and edit files of the repository at /workspace. `view` shows a file with line numbers (or a directory two levels deep); `create` writes a new file; `str_replace` replaces `old_str`, which must occur exactly once, with `new_str`; `insert` adds `new_str` after line `insert_line` (0: at the top); `undo_edit` reverts the file's last edit.",
            json!({"type": "object", "properties": {
                "command": {"type": "string", "enum": ["view", "create", "str_replace", "insert", "undo_edit"]},
                "path": {"type": "string", "description": "A path under /workspace (absolute or relative to it)."},
                "file_text": {"type": "string", "description": "For `create`: the file's contents."},
                "old_str": {"type": "string", "description": "For `str_replace`: the exact text to replace."},
                "new_str": {"type": "string", "description": "For `str_replace` and `insert`: the new text."},
                "insert_line": {"type": "integer", "description": "For `insert`: the line after which to insert."},
                "view_range": {"type": "array", "items": {"type": "integer"}, "description": "For `view` of a file: [first, last] lines, last -1 for the end."}
            }, "required": ["command", "path"]}),
        ),
        function(
            "python",
            "Run Python 3.14 in /workspace: a file (`path`) or a program (`code`), with command-line `args` and `stdin`. Returns the exit status, stdout and stderr.",
            json!({"type": "object", "properties": {
                "code": {"type": "string"},
                "path": {"type": "string"},
                "args": {"type": "array", "items": {"type": "string"}},
                "stdin": {"type": "string"}
            }}),
        ),
        function(
            "pytest",
            "Run pytest in /workspace with `args` as on its command line (for example [\"tests/test_x.py\", \"-x\", \"-k\", \"name\"]).",
            json!({"type": "object", "properties": {
                "args": {"type": "array", "items": {"type": "string"}}
            }}),
        ),
        function(
            "search",
            "Search the repository: lines matching the regular expression `pattern`, in files matching `glob` if given; or, with only `glob`, the files whose paths match it. `path` limits the search to a directory.",
            json!({"type": "object", "properties": {
                "pattern": {"type": "string"},
                "glob": {"type": "string"},
                "path": {"type": "string"}
            }}),
        ),
        function(
            "submit",
            "Submit the repository as it is now; the hidden tests then decide the reward and the episode ends.",
            json!({"type": "object", "properties": {}}),
        ),
    ]
}

/// The tools' instructions in the prompt.
pub fn instructions() -> String {
    let mut text = String::from(
        "You can call these tools. Call one per turn by writing\n\
         <tool_call><tool_name>NAME</tool_name><arguments>{JSON arguments}</arguments></tool_call>\n\n",
    );
    for spec in function_specs() {
        let f = &spec["function"];
        text.push_str(&format!(
            "- {}: {}\n  arguments: {}\n",
            f["name"].as_str().unwrap_or_default(),
            f["description"].as_str().unwrap_or_default(),
            f["parameters"]["properties"]
        ));
    }
    text
}

/// `text` cut to `max_chars` characters, with a marker saying how much was cut.
pub fn clip(text: &str, max_chars: usize) -> String {
    let total = text.chars().count();
    if total <= max_chars {
        return text.to_owned();
    }
    let kept: String = text.chars().take(max_chars).collect();
    format!(
        "{kept}\n<response clipped: {} more characters not shown>",
        total - max_chars
    )
}

/// The arguments of a call: an object (a missing one is empty).
pub fn arguments(value: &Value) -> Result<&serde_json::Map<String, Value>, String> {
    value
        .as_object()
        .ok_or_else(|| "the arguments must be a JSON object".to_owned())
}

/// Argument `key` as a string, if given.
pub fn text<'a>(
    args: &'a serde_json::Map<String, Value>,
    key: &str,
) -> Result<Option<&'a str>, String> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("`{key}` must be a string, not {other}")),
    }
}

/// Argument `key` as a list of strings (empty when not given).
pub fn strings(args: &serde_json::Map<String, Value>, key: &str) -> Result<Vec<String>, String> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| format!("`{key}` must be a list of strings"))
            })
            .collect(),
        Some(Value::String(s)) => Ok(s.split_whitespace().map(str::to_owned).collect()),
        Some(other) => Err(format!("`{key}` must be a list of strings, not {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_outputs_are_cut_with_a_marker() {
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(
            clip("abcdef", 2),
            "ab\n<response clipped: 4 more characters not shown>"
        );
    }

    #[test]
    fn every_tool_is_in_the_instructions() {
        let text = instructions();
        for name in ["str_replace_editor", "python", "pytest", "search", "submit"] {
            assert!(text.contains(&format!("- {name}:")), "{name}");
        }
    }
}
