//! What the agent sees after a call, as GEM's `MCPTool` writes it: a successful result's text,
//! `[Tool execution error: …]` when the server reports the call failed, `[Tool execution
//! failed: …]` when the call could not be made or finished. A result is read as JSON (MCP's
//! `CallToolResult`), so the rules hold whichever SDK version decoded it.

use serde_json::Value;

/// The start of the observation of a call the server reported as failed.
pub const TOOL_ERROR_PREFIX: &str = "[Tool execution error";
/// The start of the observation of a call that could not be made or did not finish.
pub const CALL_FAILED_PREFIX: &str = "[Tool execution failed";
/// The observation of a successful call with no content.
pub const NO_OUTPUT: &str = "Tool execution completed with no output";

/// `[Tool execution error: MESSAGE]`.
pub fn tool_error(message: &str) -> String {
    format!("{TOOL_ERROR_PREFIX}: {message}]")
}

/// `[Tool execution failed: MESSAGE]`.
pub fn call_failed(message: &str) -> String {
    format!("{CALL_FAILED_PREFIX}: {message}]")
}

/// Whether GEM counts `observation` as a failed call (it looks at the prefix only).
pub fn is_error(observation: &str) -> bool {
    observation.starts_with(TOOL_ERROR_PREFIX) || observation.starts_with(CALL_FAILED_PREFIX)
}

/// The observation of a call's `result` (a `CallToolResult` as JSON) from a tool whose output
/// schema is `output_schema`:
///
/// - `isError`: the content blocks' texts joined by spaces, inside `[Tool execution error: …]`;
/// - a FastMCP wrapped result (output schema marked `x-fastmcp-wrap-result`): the structured
///   `result` as Python's `str` writes it, as FastMCP's typed data reaches GEM;
/// - otherwise the content blocks, one per line: a text block's text, `Binary data: N bytes`
///   for an image or audio block (N: the length of its base64 text), other blocks as JSON;
/// - no content at all: [`NO_OUTPUT`].
pub fn observation(result: &Value, output_schema: Option<&Value>) -> String {
    let blocks = result["content"].as_array().map_or(&[][..], Vec::as_slice);
    if result["isError"] == Value::Bool(true) {
        let texts: Vec<String> = blocks
            .iter()
            .map(|block| match block["text"].as_str() {
                Some(text) => text.to_owned(),
                None => block.to_string(),
            })
            .collect();
        return tool_error(&texts.join(" "));
    }
    let wrapped = output_schema.is_some_and(|s| s["x-fastmcp-wrap-result"] == Value::Bool(true));
    if wrapped && let Some(value) = result["structuredContent"].get("result") {
        return crate::pyfmt::py_str(value);
    }
    if blocks.is_empty() {
        return match &result["structuredContent"] {
            Value::Null => NO_OUTPUT.to_owned(),
            structured => structured.to_string(),
        };
    }
    let parts: Vec<String> = blocks.iter().map(block_text).collect();
    parts.join("\n")
}

fn block_text(block: &Value) -> String {
    if let Some(text) = block["text"].as_str() {
        return text.to_owned();
    }
    if let Some(data) = block["data"].as_str() {
        return format!("Binary data: {} bytes", data.len());
    }
    block.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn results_read_as_gem_reads_them() {
        let text = json!({"content": [{"type": "text", "text": "5"}, {"type": "image", "data": "aGk=", "mimeType": "image/png"}]});
        assert_eq!(observation(&text, None), "5\nBinary data: 4 bytes");
        let failed = json!({"isError": true, "content": [{"type": "text", "text": "bad"}, {"type": "text", "text": "input"}]});
        assert_eq!(
            observation(&failed, None),
            "[Tool execution error: bad input]"
        );
        assert!(is_error(&observation(&failed, None)));
        assert_eq!(observation(&json!({"content": []}), None), NO_OUTPUT);
        let schema = json!({"type": "object", "x-fastmcp-wrap-result": true});
        let wrapped = json!({"content": [{"type": "text", "text": "[1, 2]"}], "structuredContent": {"result": [1, "a", true]}});
        assert_eq!(observation(&wrapped, Some(&schema)), "[1, 'a', True]");
        assert_eq!(
            observation(&wrapped, None),
            "[1, 2]",
            "without the marker the text is used"
        );
    }
}
