//! [`McpTool`] (`tool:mcp`): GEM's `MCPTool`. The first `<tool_call>` of an action names a tool
//! of the configured servers and its JSON arguments; the arguments are checked against the
//! tool's input schema, the call is made with a timeout, and the result comes back as GEM
//! writes it. A call to an unknown tool, or with arguments that are not JSON, is no tool call
//! (GEM: not valid). A server that cannot be reached, dies or does not answer in time gives
//! `[Tool execution failed: …]` with `has_error`; the next attempt (GEM's `max_retries`) or the
//! next call starts it again.

use crate::catalog::CatalogEntry;
use crate::config::{MCP_TOOL_ID, McpConfig};
use crate::format::{call_failed, is_error, observation, tool_error};
use crate::instructions::instructions;
use crate::runtime::block_on;
use crate::session::{self, Failure, Session};
use geode_runtime::tool::{Tool, ToolOutput};
use geode_runtime::tool_call::parse_tool_call;
use geode_runtime::{Error, Result};
use rmcp::RoleClient;
use rmcp::service::Peer;
use serde_json::Value;
use std::future::Future;
use std::sync::Arc;

/// The MCP tool: a client of one or more servers.
pub struct McpTool {
    config: Arc<McpConfig>,
    /// One slot per configured server: its live session, if connected.
    sessions: Vec<Option<Session>>,
    /// The servers' tools, listed on first use.
    catalog: Option<Vec<CatalogEntry>>,
}

impl std::fmt::Debug for McpTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpTool")
            .field("servers", &self.config.servers)
            .field("catalog", &self.catalog)
            .finish_non_exhaustive()
    }
}

impl McpTool {
    /// A tool with `overrides` over the default configuration. With `validate_on_init` (the
    /// default) it connects and lists the tools now: an error if that fails or no tool is found.
    pub fn new(overrides: &Value) -> Result<Self> {
        McpTool::with_config(Arc::new(McpConfig::parse(overrides)?))
    }

    /// A tool of a checked configuration.
    pub fn with_config(config: Arc<McpConfig>) -> Result<Self> {
        let mut tool = McpTool {
            sessions: config.servers.iter().map(|_| None).collect(),
            config,
            catalog: None,
        };
        if tool.config.validate_on_init && tool.catalog()?.is_empty() {
            return Err(host_error(
                "checking the servers",
                format!("no tools available from {}", tool.describe_servers()),
            ));
        }
        Ok(tool)
    }

    /// The configuration.
    pub fn config(&self) -> &McpConfig {
        &self.config
    }

    /// The servers' tools (listed on first use).
    pub fn catalog(&mut self) -> Result<&[CatalogEntry]> {
        if self.catalog.is_none() {
            let prefixed = self.config.servers.len() > 1;
            let mut entries = Vec::new();
            for server in 0..self.config.servers.len() {
                let timeout = self.config.timeout;
                let tools = self
                    .with_retries(server, move |peer| session::list_tools(peer, timeout))
                    .map_err(|failure| {
                        let spec = &self.config.servers[server];
                        host_error(
                            &format!("listing the tools of {}", spec.describe()),
                            failure.to_string(),
                        )
                    })?;
                let name = &self.config.servers[server].name;
                entries.extend(
                    tools
                        .iter()
                        .map(|tool| CatalogEntry::from_listing(tool, server, name, prefixed)),
                );
            }
            self.catalog = Some(entries);
        }
        Ok(self.catalog.as_deref().unwrap_or_default())
    }

    /// Whether the server of slot `server` has a live session.
    pub fn is_connected(&self, server: usize) -> bool {
        self.sessions.get(server).is_some_and(Option::is_some)
    }

    fn describe_servers(&self) -> String {
        let servers: Vec<String> = self.config.servers.iter().map(|s| s.describe()).collect();
        servers.join(", ")
    }

    /// Runs `request` on server `server`, connecting first if needed; a failure that may pass
    /// drops the session and tries again on a new one, up to `max_retries` attempts.
    fn with_retries<T, F, Fut>(
        &mut self,
        server: usize,
        request: F,
    ) -> std::result::Result<T, Failure>
    where
        T: Send + 'static,
        F: Fn(Peer<RoleClient>) -> Fut,
        Fut: Future<Output = std::result::Result<T, Failure>> + Send + 'static,
    {
        let mut attempt = 1;
        loop {
            let outcome = self.peer(server).and_then(|peer| run(request(peer)));
            match outcome {
                Ok(value) => return Ok(value),
                Err(failure) => {
                    if failure.ends_session() {
                        self.sessions[server] = None;
                    }
                    if !failure.is_retryable() || attempt >= self.config.max_retries {
                        return Err(failure);
                    }
                }
            }
            attempt += 1;
            std::thread::sleep(self.config.delay_between_retries);
        }
    }

    /// The live session of server `server`, connecting if there is none.
    fn peer(&mut self, server: usize) -> std::result::Result<Peer<RoleClient>, Failure> {
        if let Some(session) = &self.sessions[server] {
            return Ok(session.peer());
        }
        let spec = self.config.servers[server].clone();
        let timeout = self.config.timeout;
        let session = run(async move { Session::connect(&spec, timeout).await })?;
        let peer = session.peer();
        self.sessions[server] = Some(session);
        Ok(peer)
    }

    /// Calls the catalog's entry `index` with `arguments`: the observation.
    fn call(&mut self, index: usize, arguments: serde_json::Map<String, Value>) -> String {
        let Some(catalog) = &self.catalog else {
            return call_failed("the tools were not listed");
        };
        let entry = &catalog[index];
        let (server, name, shown) = (entry.server, entry.remote_name.clone(), entry.name.clone());
        let output_schema = entry.output_schema.clone();
        let timeout = self.config.timeout;
        let result = self.with_retries(server, move |peer| {
            session::call_tool(peer, name.clone(), arguments.clone(), timeout)
        });
        match result {
            Ok(result) => observation(&result, output_schema.as_ref()),
            Err(failure) => call_failed(&format!("{shown}: {failure}")),
        }
    }
}

/// Runs `future` on the MCP runtime; a panic in it is a lost connection.
fn run<T: Send + 'static>(
    future: impl Future<Output = std::result::Result<T, Failure>> + Send + 'static,
) -> std::result::Result<T, Failure> {
    block_on(future).unwrap_or_else(|panic| Err(Failure::Lost(panic)))
}

fn host_error(context: &str, message: String) -> Error {
    Error::Io {
        context: format!("{MCP_TOOL_ID}: {context}"),
        source: std::io::Error::other(message),
    }
}

impl Tool for McpTool {
    fn id(&self) -> &str {
        MCP_TOOL_ID
    }

    fn tool_type(&self) -> &str {
        "mcp"
    }

    fn instructions(&mut self) -> Result<String> {
        let multi_server = self.config.servers.len() > 1;
        Ok(instructions(self.catalog()?, multi_server))
    }

    fn execute(&mut self, action: &str) -> Result<Option<ToolOutput>> {
        let Some(call) = parse_tool_call(action) else {
            return Ok(None);
        };
        let output = |observation: String| {
            Ok(Some(ToolOutput {
                has_error: is_error(&observation),
                observation,
                parsed_action: call.parsed_action.clone(),
            }))
        };
        let catalog = match self.catalog() {
            Ok(catalog) => catalog,
            Err(error) => return output(call_failed(&error.to_string())),
        };
        let Some(index) = catalog.iter().position(|e| e.name == call.name) else {
            return Ok(None);
        };
        if let Err(problem) = catalog[index].check_arguments(&call.arguments) {
            return output(tool_error(&problem));
        }
        let Value::Object(arguments) = call.arguments.clone() else {
            return output(tool_error("the arguments must be a JSON object"));
        };
        output(self.call(index, arguments))
    }

    fn spawn(&self) -> Result<Box<dyn Tool>> {
        Ok(Box::new(McpTool {
            config: self.config.clone(),
            sessions: self.config.servers.iter().map(|_| None).collect(),
            catalog: None,
        }))
    }
}
