//! [`mcp_provider`]: registers `tool:mcp` as an id the host provides.

use crate::config::{MCP_TOOL_ID, default_config};
use crate::tool::McpTool;
use geode_runtime::{EnvSpec, ToolProvider};

/// What listings show as the provider of `tool:mcp`.
pub const MCP_SOURCE: &str = "native (mcp)";

const ABOUT: &str = "Calls the tools of MCP servers (a spawned stdio command or a streamable-HTTP \
URL) from a <tool_call> in the action, arguments checked against each tool's schema (GEM's MCPTool)";

/// The provider of `tool:mcp`.
pub fn mcp_provider() -> ToolProvider {
    let spec = EnvSpec::new(MCP_TOOL_ID, ABOUT, &default_config());
    ToolProvider::new(MCP_SOURCE, spec, |_runtime, overrides| {
        Ok(Box::new(McpTool::new(overrides)?))
    })
}
