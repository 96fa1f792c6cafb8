//! The MCP tool's instructions, as GEM's `MCPTool` words them (the agent's prompt must match
//! GEM's): how to write a `<tool_call>`, then every tool of the servers, sorted by name, one
//! `{"type": "function", "function": {name, description, parameters}}` line each inside
//! `<tools>…</tools>`.

use crate::catalog::CatalogEntry;
use crate::pyfmt::py_json_dumps;
use serde_json::Value;

const HEADER: &str = "# Tool-Use Instructions\n\n\
In this environment you have access to a set of tools you can use to answer the user's question.\n\n\
You only have access to the tools provided below. You can only use one tool per message, and will receive the result of that tool in the user's next response. You use tools step-by-step to accomplish a given task, with each tool-use informed by the result of the previous tool-use.\n\n\
Tool-use is formatted using XML-style tags. The tool-use is enclosed in <tool_call></tool_call> and each parameter is similarly enclosed within its own set of tags.\n\n\
## Parameters\n\
- tool_name: (required) The name of the tool to execute\n\
- arguments: (required) A JSON object containing the tool's input parameters, following the tool's input schema. Quotes within strings must be properly escaped. Ensure the JSON is valid.\n\n\
## Usage Example\n\
<tool_call>\n\
<tool_name>tool_name_here</tool_name>\n\
<arguments>\n\
{\n  \"param1\": \"value1\",\n  \"param2\": \"value2 \\\"escaped string\\\"\"\n}\n\
</arguments>\n\
</tool_call>\n\n\
## Available Tools\n\
Here are the functions available within <tools></tools> XML tags:\n\n";

/// The instructions for `entries` (in any order); `multi_server` marks each description with
/// its server's name, as GEM does when several servers are configured.
pub fn instructions(entries: &[CatalogEntry], multi_server: bool) -> String {
    let mut sorted: Vec<&CatalogEntry> = entries.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let lines: Vec<String> = sorted
        .iter()
        .map(|entry| {
            let description = match (multi_server, entry.description.is_empty()) {
                (false, _) => entry.description.clone(),
                (true, false) => format!("[{}] {}", entry.server_name, entry.description),
                (true, true) => format!(
                    "[{0}] Tool from {0} server",
                    entry.server_name
                ),
            };
            format!(
                "{{\"type\": \"function\", \"function\": {{\"name\": {}, \"description\": {}, \"parameters\": {}}}}}",
                py_json_dumps(&Value::String(entry.name.clone())),
                py_json_dumps(&Value::String(description)),
                py_json_dumps(&entry.input_schema)
            )
        })
        .collect();
    format!("{HEADER}<tools>\n{}\n</tools>", lines.join("\n"))
}
