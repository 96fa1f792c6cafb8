//! [`McpProvider`]: registers `tool:mcp` as an id the host provides.

use crate::config::{MCP_TOOL_ID, default_config};
use crate::tool::McpTool;
use geode_runtime::tool::Tool;
use geode_runtime::{EnvSpec, Error, Limits, NativeProvider, PluginKind, Result, Runtime};
use serde_json::Value;

/// What listings show as the provider of `tool:mcp`.
pub const MCP_SOURCE: &str = "native (mcp)";

const ABOUT: &str = "Calls the tools of MCP servers (a spawned stdio command or a streamable-HTTP \
URL) from a <tool_call> in the action, arguments checked against each tool's schema (GEM's MCPTool)";

/// Provides `tool:mcp`.
#[derive(Debug, Clone, Copy, Default)]
pub struct McpProvider;

impl NativeProvider for McpProvider {
    fn name(&self) -> &str {
        MCP_SOURCE
    }

    fn specs(&self) -> Vec<(PluginKind, EnvSpec)> {
        let spec = EnvSpec {
            id: MCP_TOOL_ID.to_owned(),
            default_config: default_config().as_object().cloned().unwrap_or_default(),
            description: ABOUT.to_owned(),
        };
        vec![(PluginKind::Tool, spec)]
    }

    fn make_env(
        &self,
        _runtime: &Runtime,
        id: &str,
        _overrides: &Value,
        _limits: &Limits,
    ) -> Result<Box<dyn geode_runtime::Env>> {
        Err(Error::Internal(format!("{MCP_SOURCE} has no env `{id}`")))
    }

    fn make_tool(
        &self,
        _runtime: &Runtime,
        id: &str,
        overrides: &Value,
        _limits: &Limits,
    ) -> Result<Box<dyn Tool>> {
        if id != MCP_TOOL_ID {
            return Err(Error::Internal(format!("{MCP_SOURCE} has no tool `{id}`")));
        }
        Ok(Box::new(McpTool::new(overrides)?))
    }
}
