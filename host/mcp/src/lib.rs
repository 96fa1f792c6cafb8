//! # geode-mcp
//!
//! `tool:mcp`, GEM's `MCPTool` on the host: an MCP client (the official Rust SDK, rmcp) of one
//! or more servers, each a command spawned and spoken to over stdio or a streamable-HTTP URL.
//!
//! - The instructions ([`instructions`]) list the servers' tools with their JSON schemas.
//! - An action's first `<tool_call><tool_name>…</tool_name><arguments>{…}</arguments></tool_call>`
//!   ([`action`]) is checked against the tool's input schema ([`catalog`]), called with a timeout
//!   ([`session`]) and its result written as GEM writes it ([`format`](mod@format)).
//! - A server that cannot be reached, dies or hangs gives `[Tool execution failed: …]` with
//!   `has_error` within the timeout (per attempt; GEM's `max_retries`), and is started again on
//!   the next attempt. Dropping a tool stops its stdio servers.
//!
//! Every connection runs on one small tokio runtime of the process ([`runtime`]); the tool's
//! calls block the calling thread only. `geode-mcp-test-server` is a stdio server for tests.
//!
//! Register the tool with `registry.add_native(Arc::new(mcp_provider()))`.

#![deny(missing_docs)]

pub use geode_runtime::tool_call as action;
pub mod catalog;
pub mod config;
pub mod format;
pub mod instructions;
mod provider;
pub mod pyfmt;
pub mod runtime;
pub mod session;
mod tool;

pub use config::{MCP_TOOL_ID, McpConfig, ServerSpec, Transport};
pub use provider::{MCP_SOURCE, mcp_provider};
pub use tool::McpTool;
