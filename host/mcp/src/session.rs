//! One live connection to one server over rmcp: connecting (spawning a stdio server or opening a
//! streamable-HTTP session), listing tools and calling one, each bounded by a timeout. Dropping a
//! [`Session`] closes it; a stdio server is stopped (stdin closed, then killed if it lingers).

use crate::config::{ServerSpec, Transport};
use rmcp::model::CallToolRequestParams;
use rmcp::service::{Peer, RunningService, ServiceError};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;
use std::collections::HashMap;
use std::time::Duration;

/// Why a request did not produce a result.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The server could not be started or reached, or did not complete the handshake.
    Unreachable(String),
    /// The connection broke: the server died or closed it.
    Lost(String),
    /// No answer within the timeout.
    TimedOut(Duration),
    /// The server answered with a protocol error (e.g. it does not know the tool).
    Refused(String),
}

impl Failure {
    /// Whether another attempt over a new connection may succeed (GEM retries connection
    /// failures and timeouts).
    pub fn is_retryable(&self) -> bool {
        !matches!(self, Failure::Refused(_))
    }

    /// Whether the connection should be dropped (it broke, or a request is stuck on it).
    pub fn ends_session(&self) -> bool {
        !matches!(self, Failure::Refused(_))
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Unreachable(message) => write!(f, "cannot connect: {message}"),
            Failure::Lost(message) => {
                write!(f, "the connection to the server was lost ({message})")
            }
            Failure::TimedOut(limit) => {
                write!(f, "no answer within {} s (timeout)", limit.as_secs_f64())
            }
            Failure::Refused(message) => f.write_str(message),
        }
    }
}

/// A live connection.
pub struct Session {
    service: RunningService<RoleClient, ()>,
}

impl Session {
    /// Connects to `spec` within `timeout`. Must run on the MCP runtime.
    pub async fn connect(spec: &ServerSpec, timeout: Duration) -> Result<Session, Failure> {
        let connecting = async {
            match &spec.transport {
                Transport::Stdio {
                    command,
                    args,
                    env,
                    cwd,
                } => {
                    let mut process = tokio::process::Command::new(command);
                    process.args(args).envs(env).kill_on_drop(true);
                    if let Some(cwd) = cwd {
                        process.current_dir(cwd);
                    }
                    let transport = TokioChildProcess::new(process).map_err(|e| {
                        Failure::Unreachable(format!("cannot start `{command}`: {e}"))
                    })?;
                    ().serve(transport)
                        .await
                        .map_err(|e| Failure::Unreachable(e.to_string()))
                }
                Transport::Http { url, headers } => {
                    let mut custom = HashMap::new();
                    for (name, value) in headers {
                        let parsed = (
                            http::HeaderName::try_from(name.as_str()),
                            http::HeaderValue::try_from(value.as_str()),
                        );
                        let (Ok(name), Ok(value)) = parsed else {
                            return Err(Failure::Unreachable(format!("bad header `{name}`")));
                        };
                        custom.insert(name, value);
                    }
                    let config = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                        .custom_headers(custom);
                    ().serve(StreamableHttpClientTransport::from_config(config))
                        .await
                        .map_err(|e| Failure::Unreachable(e.to_string()))
                }
            }
        };
        match tokio::time::timeout(timeout, connecting).await {
            Ok(service) => Ok(Session { service: service? }),
            Err(_) => Err(Failure::Unreachable(format!(
                "no handshake within {} s (timeout)",
                timeout.as_secs_f64()
            ))),
        }
    }

    /// A handle to send requests with (usable while the session lives).
    pub fn peer(&self) -> Peer<RoleClient> {
        self.service.peer().clone()
    }
}

/// Every tool the server offers (all pages), as JSON, within `timeout`.
pub async fn list_tools(peer: Peer<RoleClient>, timeout: Duration) -> Result<Vec<Value>, Failure> {
    let tools = bounded(timeout, peer.list_all_tools()).await?;
    Ok(tools
        .iter()
        .map(|tool| serde_json::to_value(tool).unwrap_or_default())
        .collect())
}

/// Calls tool `name` with `arguments` (a JSON object) within `timeout`; the `CallToolResult` as
/// JSON.
pub async fn call_tool(
    peer: Peer<RoleClient>,
    name: String,
    arguments: serde_json::Map<String, Value>,
    timeout: Duration,
) -> Result<Value, Failure> {
    let params = CallToolRequestParams::new(name).with_arguments(arguments);
    let result = bounded(timeout, peer.call_tool(params)).await?;
    serde_json::to_value(&result).map_err(|e| Failure::Refused(e.to_string()))
}

async fn bounded<T>(
    timeout: Duration,
    request: impl Future<Output = Result<T, ServiceError>>,
) -> Result<T, Failure> {
    match tokio::time::timeout(timeout, request).await {
        Err(_) => Err(Failure::TimedOut(timeout)),
        Ok(Ok(value)) => Ok(value),
        Ok(Err(ServiceError::McpError(error))) => Err(Failure::Refused(error.message.to_string())),
        Ok(Err(ServiceError::Timeout { timeout })) => Err(Failure::TimedOut(timeout)),
        Ok(Err(error)) => Err(Failure::Lost(error.to_string())),
    }
}
