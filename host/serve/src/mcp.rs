//! MCP over JSON-RPC 2.0 (OpenEnv's RFC 003): `tools/list` and `tools/call` on the served env's
//! tools ([`crate::tools`]), plus OpenEnv's session methods `openenv/session/create` and
//! `openenv/session/close`, which keep a session by id for later `/mcp` calls (`session_id`
//! param) and WebSockets (`/ws?session_id=`). Served as `POST /mcp`, on the `/mcp` WebSocket
//! (one session per connection) and as `mcp` messages on `/ws` (that connection's session).
//! Every error, malformed requests included, is a JSON-RPC error object.

use crate::sessions::{self, Sessions, Shared};
use crate::tools::SessionTools;
use crate::wire::Failure;
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// JSON-RPC's error codes.
#[derive(Debug, Clone, Copy)]
enum RpcCode {
    ParseError = -32700,
    InvalidRequest = -32600,
    MethodNotFound = -32601,
    InvalidParams = -32602,
    InternalError = -32603,
    ServerError = -32000,
}

/// A JSON-RPC error: its code, message and optional data.
struct RpcError(RpcCode, String, Value);

impl RpcError {
    fn new(code: RpcCode, message: impl Into<String>) -> Self {
        RpcError(code, message.into(), Value::Null)
    }
}

/// A failure of a session or an env call, with OpenEnv's code and geode's kind in `data`.
impl From<Failure> for RpcError {
    fn from(failure: Failure) -> Self {
        let code = match failure.code {
            crate::wire::Code::CapacityReached | crate::wire::Code::FactoryError => {
                RpcCode::ServerError
            }
            _ => RpcCode::InternalError,
        };
        let data = failure.data();
        RpcError(code, failure.message, data)
    }
}

/// A well-formed request: its id, method and params.
struct Rpc {
    id: Value,
    method: String,
    params: Map<String, Value>,
}

/// The reply to `id`: `result`, or `error`.
fn reply(id: Value, outcome: Result<Value, RpcError>) -> Value {
    match outcome {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(RpcError(code, message, data)) => {
            let mut error = json!({"code": code as i64, "message": message});
            if !data.is_null() {
                error["data"] = data;
            }
            json!({"jsonrpc": "2.0", "id": id, "error": error})
        }
    }
}

/// Reads a request from its text, or the error reply for text that is not one.
fn parse(text: &[u8]) -> Result<Rpc, Value> {
    let value: Value = serde_json::from_slice(text).map_err(|e| {
        reply(
            Value::Null,
            Err(RpcError::new(
                RpcCode::ParseError,
                format!("Parse error: {e}"),
            )),
        )
    })?;
    request(value)
}

/// Checks a parsed value is a JSON-RPC 2.0 request with an object of params.
fn request(value: Value) -> Result<Rpc, Value> {
    let Value::Object(mut fields) = value else {
        return Err(invalid(Value::Null, "a request must be a JSON object"));
    };
    let id = fields.remove("id").unwrap_or(Value::Null);
    if !(id.is_null() || id.is_string() || id.is_i64() || id.is_u64()) {
        return Err(invalid(
            Value::Null,
            "`id` must be a string, an integer or null",
        ));
    }
    if fields.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid(id, "`jsonrpc` must be \"2.0\""));
    }
    let method = match fields.remove("method") {
        Some(Value::String(method)) => method,
        _ => return Err(invalid(id, "`method` must be a string")),
    };
    let params = match fields.remove("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(params)) => params,
        Some(_) => return Err(invalid(id, "`params` must be an object")),
    };
    if let Some(key) = fields.keys().find(|key| *key != "jsonrpc") {
        return Err(invalid(id, format!("unknown field `{key}`")));
    }
    Ok(Rpc { id, method, params })
}

fn invalid(id: Value, message: impl Into<String>) -> Value {
    let message = format!("Invalid request: {}", message.into());
    reply(id, Err(RpcError::new(RpcCode::InvalidRequest, message)))
}

/// Answers one request. `bound` is the session of the connection it came on, if any; without
/// one, `session_id` names a kept session, and else a call runs on one-shot tools.
async fn answer(server: &Arc<Sessions>, rpc: Rpc, bound: Option<&Shared>) -> Value {
    let Rpc { id, method, params } = rpc;
    let outcome = match method.as_str() {
        "openenv/session/create" => create(server).await,
        "openenv/session/close" => close(server, &params),
        "tools/list" => list(server).await,
        "tools/call" => call(server, &params, bound).await,
        other => Err(RpcError::new(
            RpcCode::MethodNotFound,
            format!(
                "Method not found: {other} (this server answers tools/list, tools/call, openenv/session/create, openenv/session/close)"
            ),
        )),
    };
    reply(id, outcome)
}

async fn create(server: &Arc<Sessions>) -> Result<Value, RpcError> {
    let session = server.open().await?;
    let id = uuid::Uuid::new_v4().to_string();
    server.name(&id, session);
    Ok(json!({"session_id": id}))
}

fn close(server: &Sessions, params: &Map<String, Value>) -> Result<Value, RpcError> {
    let id = session_id(params)?
        .ok_or_else(|| RpcError::new(RpcCode::InvalidParams, "`session_id` is required"))?;
    if !server.forget(&id) {
        return Err(RpcError::new(
            RpcCode::InvalidParams,
            format!("Unknown session_id: {id}"),
        ));
    }
    Ok(json!({"session_id": id, "closed": true}))
}

async fn list(server: &Arc<Sessions>) -> Result<Value, RpcError> {
    let this = server.clone();
    let tools = server
        .run(move || this.toolbox().list(this.registry()))
        .await??;
    Ok(json!({"tools": tools}))
}

async fn call(
    server: &Arc<Sessions>,
    params: &Map<String, Value>,
    bound: Option<&Shared>,
) -> Result<Value, RpcError> {
    let bad = |message: String| RpcError::new(RpcCode::InvalidParams, message);
    let name = match params.get("name") {
        Some(Value::String(name)) => name,
        _ => return Err(bad("`name` must be the tool's name".into())),
    };
    let index = server.toolbox().find(name).ok_or_else(|| {
        bad(format!(
            "Tool not found: {name:?} (tools/list names the tools)"
        ))
    })?;
    let action = match params.get("arguments") {
        Some(Value::Object(arguments)) => match (arguments.get("action"), arguments.len()) {
            (Some(Value::String(action)), 1) => action.clone(),
            _ => {
                return Err(bad(
                    "`arguments` must be {\"action\": \"<text holding the call>\"}".into(),
                ));
            }
        },
        _ => return Err(bad("`arguments` must be an object".into())),
    };
    let session = match (bound, session_id(params)?) {
        (Some(session), _) => Some(session.clone()),
        (None, Some(id)) => Some(server.named(&id).map_err(|f| bad(f.message))?),
        (None, None) => None,
    };
    // Without a session, the call runs on tools of its own (no env is made), under a slot of
    // the session budget.
    let slot = match session {
        Some(_) => None,
        None => Some(server.acquire()?),
    };
    let this = server.clone();
    let result = server
        .run(move || {
            let run = |tools: &mut SessionTools| {
                tools.call(this.toolbox(), this.registry(), index, &action)
            };
            let out = match &session {
                Some(session) => run(&mut sessions::lock(session).tools),
                None => run(&mut SessionTools::default()),
            };
            drop(slot);
            out
        })
        .await??;
    Ok(result)
}

fn session_id(params: &Map<String, Value>) -> Result<Option<String>, RpcError> {
    match params.get("session_id") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(id)) => Ok(Some(id.clone())),
        Some(_) => Err(RpcError::new(
            RpcCode::InvalidParams,
            "`session_id` must be a string",
        )),
    }
}

/// `POST /mcp`: one JSON-RPC request, answered with status 200 whatever its outcome.
pub async fn http(State(server): State<Arc<Sessions>>, body: Bytes) -> Json<Value> {
    Json(match parse(&body) {
        Ok(rpc) => answer(&server, rpc, None).await,
        Err(error) => error,
    })
}

/// A JSON-RPC request carried in a `/ws` `mcp` message's `data`, answered on `session`.
pub async fn on_session(server: &Arc<Sessions>, data: Option<&Value>, session: &Shared) -> Value {
    match request(data.cloned().unwrap_or(Value::Null)) {
        Ok(rpc) => answer(server, rpc, Some(session)).await,
        Err(error) => error,
    }
}

/// `GET /mcp` as a WebSocket: a session of its own, one JSON-RPC reply per text message.
pub async fn upgrade(State(server): State<Arc<Sessions>>, ws: WebSocketUpgrade) -> Response {
    crate::ws::sized(ws, &server).on_upgrade(move |socket| socket_session(server, socket))
}

async fn socket_session(server: Arc<Sessions>, mut socket: WebSocket) {
    let session = match server.open().await {
        Ok(session) => session,
        Err(failure) => {
            let error = reply(Value::Null, Err(failure.into()));
            let _ = socket.send(Message::Text(error.to_string().into())).await;
            let _ = socket.send(Message::Close(None)).await;
            return;
        }
    };
    let idle = server.config().idle_timeout;
    while let Ok(Some(Ok(message))) = tokio::time::timeout(idle, socket.recv()).await {
        let text = match message {
            Message::Text(text) => text.as_bytes().to_vec(),
            Message::Binary(bytes) => bytes.to_vec(),
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        let out = match parse(&text) {
            Ok(rpc) => answer(&server, rpc, Some(&session)).await,
            Err(error) => error,
        };
        if socket
            .send(Message::Text(out.to_string().into()))
            .await
            .is_err()
        {
            break;
        }
    }
    let _ = socket.send(Message::Close(None)).await;
}
