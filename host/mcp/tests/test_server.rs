//! `geode-mcp-test-server` answers the MCP client of `tool:mcp` over stdio. (This test also makes
//! `cargo test` build the server, which the workspace's tool tests spawn.)

use geode_mcp::McpTool;
use geode_runtime::tool::Tool;
use serde_json::json;

#[test]
fn the_test_server_lists_and_adds() {
    let config = json!({"server": {"command": env!("CARGO_BIN_EXE_geode-mcp-test-server")}});
    let mut tool = McpTool::new(&config).unwrap();
    let names: Vec<&str> = tool
        .catalog()
        .unwrap()
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(names, ["add", "slow", "die", "fail", "wrapped"]);
    let action = "<tool_call><tool_name>add</tool_name><arguments>{\"a\": -4, \"b\": 1}</arguments></tool_call>";
    let out = tool.execute(action).unwrap().unwrap();
    assert_eq!((out.observation.as_str(), out.has_error), ("-3", false));
}
