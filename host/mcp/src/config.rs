//! The configuration of `tool:mcp`, checked key by key. `server` takes what GEM's `MCPTool`
//! takes as its `config`: a URL (streamable HTTP), one server entry (`{"command", "args",
//! "env", "cwd"}` for stdio, `{"url", "headers", "auth"}` for HTTP), or GEM's
//! `{"mcpServers": {name: entry, ...}}`. The other keys are GEM's: `auth` and `headers` (for a
//! URL `server`), `max_retries`, `delay_between_retries`, `validate_on_init`, and `timeout`
//! (GEM's `execution_timeout`).

use geode_runtime::config::merge_value;
use geode_runtime::{Error, Result};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::time::Duration;

/// The id of the MCP tool.
pub const MCP_TOOL_ID: &str = "tool:mcp";

/// The name GEM gives the server of a one-server configuration.
pub const DEFAULT_SERVER_NAME: &str = "default";

/// The MCP tool's default configuration (GEM's `MCPTool` defaults); `server` has no default.
pub fn default_config() -> Value {
    json!({
        "server": null,
        "auth": null,
        "headers": null,
        "timeout": 30.0,
        "max_retries": 3,
        "delay_between_retries": 1.0,
        "validate_on_init": true,
    })
}

/// How the client reaches a server.
#[derive(Debug, Clone, PartialEq)]
pub enum Transport {
    /// A command the client spawns and speaks to over its stdin and stdout.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables added to the inherited environment.
        env: BTreeMap<String, String>,
        /// The working directory (the caller's when `None`).
        cwd: Option<String>,
    },
    /// A streamable-HTTP endpoint.
    Http {
        /// The endpoint, e.g. `http://127.0.0.1:8000/mcp`.
        url: String,
        /// Headers sent with every request.
        headers: BTreeMap<String, String>,
    },
}

/// One configured server.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerSpec {
    /// Its name: the prefix of its tools' names when several servers are configured.
    pub name: String,
    /// How to reach it.
    pub transport: Transport,
}

impl ServerSpec {
    /// A short description for error messages.
    pub fn describe(&self) -> String {
        match &self.transport {
            Transport::Stdio { command, .. } => {
                format!("stdio server '{}' ({command})", self.name)
            }
            Transport::Http { url, .. } => format!("HTTP server '{}' at {url}", self.name),
        }
    }
}

/// A checked configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct McpConfig {
    /// The servers, in name order.
    pub servers: Vec<ServerSpec>,
    /// The longest a connection, a listing or a call may take.
    pub timeout: Duration,
    /// Attempts per call when the server cannot be reached, dies or times out.
    pub max_retries: u32,
    /// The pause between two attempts.
    pub delay_between_retries: Duration,
    /// Connect and list the tools when the tool is made (an error if that fails or lists none).
    pub validate_on_init: bool,
}

impl McpConfig {
    /// Merges `overrides` (a JSON object or null) over [`default_config`] and checks it.
    pub fn parse(overrides: &Value) -> Result<Self> {
        let config = merge_value(MCP_TOOL_ID, &default_config(), overrides)?;
        let timeout = seconds(&config, "timeout", false)?;
        let delay_between_retries = seconds(&config, "delay_between_retries", true)?;
        let max_retries = match config["max_retries"].as_u64() {
            Some(n) if n > 0 => u32::try_from(n).unwrap_or(u32::MAX),
            _ => {
                return Err(bad(
                    "max_retries",
                    format!("must be a positive integer, got {}", config["max_retries"]),
                ));
            }
        };
        let top_headers = string_map(&config["headers"], "headers")?;
        let auth = match &config["auth"] {
            Value::Null => None,
            Value::String(token) => Some(token.clone()),
            other => {
                return Err(bad(
                    "auth",
                    format!("must be a string or null, got {other}"),
                ));
            }
        };
        let servers = match &config["server"] {
            Value::Null => {
                return Err(bad(
                    "server",
                    "is required: a URL, a server entry or {\"mcpServers\": {...}}".into(),
                ));
            }
            Value::String(url) => {
                let mut headers = top_headers;
                if let Some(token) = auth {
                    headers.insert("Authorization".into(), format!("Bearer {token}"));
                }
                let transport = Transport::Http {
                    url: url.clone(),
                    headers,
                };
                vec![ServerSpec {
                    name: DEFAULT_SERVER_NAME.into(),
                    transport,
                }]
            }
            Value::Object(entry) => {
                if auth.is_some() || !top_headers.is_empty() {
                    return Err(bad(
                        "auth",
                        "auth and headers go with a URL server; give a server entry its own \"headers\"".into(),
                    ));
                }
                match entry.get("mcpServers") {
                    Some(Value::Object(named)) if entry.len() == 1 && !named.is_empty() => named
                        .iter()
                        .map(|(name, entry)| server_entry(name, entry))
                        .collect::<Result<_>>()?,
                    Some(_) => {
                        return Err(bad(
                            "server",
                            "mcpServers must be the only key, a non-empty object of server entries"
                                .into(),
                        ));
                    }
                    None => vec![server_entry(
                        DEFAULT_SERVER_NAME,
                        &Value::Object(entry.clone()),
                    )?],
                }
            }
            other => return Err(bad("server", format!("unexpected value {other}"))),
        };
        Ok(McpConfig {
            servers,
            timeout,
            max_retries,
            delay_between_retries,
            validate_on_init: config["validate_on_init"].as_bool().unwrap_or(true),
        })
    }
}

/// One server entry; the transport is inferred as GEM does (stdio when there is a command).
fn server_entry(name: &str, entry: &Value) -> Result<ServerSpec> {
    let key = |k: &str| format!("server.{name}.{k}");
    let Value::Object(entry) = entry else {
        return Err(bad(
            &format!("server.{name}"),
            format!("must be an object, got {entry}"),
        ));
    };
    for k in entry.keys() {
        if !matches!(
            k.as_str(),
            "transport" | "command" | "args" | "env" | "cwd" | "url" | "headers" | "auth"
        ) {
            return Err(bad(
                &key(k),
                "unknown key; server entries take transport, command, args, env, cwd, url, headers, auth".into(),
            ));
        }
    }
    let text = |k: &str| -> Result<Option<String>> {
        match entry.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(bad(&key(k), format!("must be a string, got {other}"))),
        }
    };
    let has_command = entry.contains_key("command") || entry.contains_key("args");
    let transport =
        text("transport")?.unwrap_or_else(|| if has_command { "stdio" } else { "http" }.to_owned());
    let transport = match transport.as_str() {
        "stdio" => {
            let command = text("command")?
                .filter(|c| !c.is_empty())
                .ok_or_else(|| bad(&key("command"), "a stdio server needs a command".into()))?;
            let args = match entry.get("args") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(items)) => items
                    .iter()
                    .map(|a| a.as_str().map(str::to_owned))
                    .collect::<Option<_>>()
                    .ok_or_else(|| bad(&key("args"), "must be a list of strings".into()))?,
                Some(other) => {
                    return Err(bad(&key("args"), format!("must be a list, got {other}")));
                }
            };
            Transport::Stdio {
                command,
                args,
                env: string_map(entry.get("env").unwrap_or(&Value::Null), &key("env"))?,
                cwd: text("cwd")?,
            }
        }
        "http" | "streamable-http" => {
            let url = text("url")?
                .filter(|u| !u.is_empty())
                .ok_or_else(|| bad(&key("url"), "an HTTP server needs a url".into()))?;
            let mut headers = string_map(
                entry.get("headers").unwrap_or(&Value::Null),
                &key("headers"),
            )?;
            if let Some(token) = text("auth")? {
                headers.insert("Authorization".into(), format!("Bearer {token}"));
            }
            Transport::Http { url, headers }
        }
        other => {
            return Err(bad(
                &key("transport"),
                format!(
                    "unsupported transport `{other}`; transports are stdio, http (streamable HTTP)"
                ),
            ));
        }
    };
    Ok(ServerSpec {
        name: name.to_owned(),
        transport,
    })
}

fn string_map(value: &Value, key: &str) -> Result<BTreeMap<String, String>> {
    match value {
        Value::Null => Ok(BTreeMap::new()),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), s.clone())),
                other => Err(bad(key, format!("`{k}` must be a string, got {other}"))),
            })
            .collect(),
        other => Err(bad(
            key,
            format!("must be an object of strings, got {other}"),
        )),
    }
}

fn seconds(config: &Map<String, Value>, key: &str, zero_ok: bool) -> Result<Duration> {
    match config[key].as_f64() {
        Some(s) if s.is_finite() && (s > 0.0 || (zero_ok && s == 0.0)) => {
            Ok(Duration::from_secs_f64(s))
        }
        _ => Err(bad(
            key,
            format!("must be a positive number of seconds, got {}", config[key]),
        )),
    }
}

fn bad(key: &str, message: String) -> Error {
    Error::BadConfig {
        id: MCP_TOOL_ID.to_owned(),
        key: key.to_owned(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_one_http_server_with_gems_bearer_header() {
        let config =
            McpConfig::parse(&json!({"server": "http://127.0.0.1:9/mcp", "auth": "t"})).unwrap();
        assert_eq!(config.timeout, Duration::from_secs(30));
        assert_eq!((config.max_retries, config.validate_on_init), (3, true));
        let headers = BTreeMap::from([("Authorization".into(), "Bearer t".into())]);
        assert_eq!(
            config.servers,
            vec![ServerSpec {
                name: "default".into(),
                transport: Transport::Http {
                    url: "http://127.0.0.1:9/mcp".into(),
                    headers
                },
            }]
        );
    }

    #[test]
    fn entries_infer_their_transport() {
        let config = McpConfig::parse(&json!({"server": {"mcpServers": {
            "db": {"command": "db-server", "args": ["--ro"], "env": {"A": "1"}},
            "web": {"url": "http://127.0.0.1:9/mcp"},
        }}}))
        .unwrap();
        let names: Vec<_> = config.servers.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["db", "web"]);
        assert!(matches!(&config.servers[0].transport,
            Transport::Stdio { command, args, env, .. }
                if command == "db-server" && args == &["--ro"] && env["A"] == "1"));
        let single = McpConfig::parse(&json!({"server": {"command": "x"}})).unwrap();
        assert_eq!(single.servers[0].name, "default");
    }

    #[test]
    fn bad_keys_are_named() {
        let cases = [
            (json!({}), "server"),
            (json!({"server": "http://x", "timeout": 0}), "timeout"),
            (
                json!({"server": "http://x", "max_retries": 0}),
                "max_retries",
            ),
            (
                json!({"server": "http://x", "execution_timeout": 3}),
                "execution_timeout",
            ),
            (
                json!({"server": {"command": "x", "tools": {}}}),
                "server.default.tools",
            ),
            (
                json!({"server": {"transport": "sse", "url": "http://x"}}),
                "server.default.transport",
            ),
            (
                json!({"server": {"transport": "stdio"}}),
                "server.default.command",
            ),
            (
                json!({"server": {"command": "x", "args": [1]}}),
                "server.default.args",
            ),
            (json!({"server": {"command": "x"}, "auth": "t"}), "auth"),
            (json!({"server": {"mcpServers": {}}}), "server"),
            (json!({"server": 3}), "server"),
            (json!({"server": "http://x", "auth": 3}), "auth"),
            (
                json!({"server": "http://x", "validate_on_init": 1}),
                "validate_on_init",
            ),
        ];
        for (overrides, key) in cases {
            match McpConfig::parse(&overrides) {
                Err(Error::BadConfig { key: named, .. }) => assert_eq!(named, key, "{overrides}"),
                other => panic!("{overrides}: {other:?}"),
            }
        }
    }
}
