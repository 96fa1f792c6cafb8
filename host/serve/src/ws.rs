//! OpenEnv's `/ws` session protocol: one env per connection, made when the connection opens
//! and freed when it closes, drops or stays idle past the timeout. Messages are
//! `{"type": "reset"|"step"|"state"|"mcp"|"close", "data": ...}`; replies are `observation`,
//! `state`, `mcp` (a JSON-RPC reply, see [`crate::mcp`]) or `error` envelopes. A failed call
//! leaves the session open.

use crate::metrics::Call;
use crate::sessions::{self, Sessions, Shared};
use crate::wire::{self, Code, Failure, ResetParams};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Query, State};
use axum::response::Response;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `GET /ws`: upgrades to a WebSocket whose messages are capped at the request size limit.
/// With `?session_id=`, the connection plays that kept session (one made by MCP's
/// `openenv/session/create`, or a named HTTP episode) instead of a fresh one.
pub async fn upgrade(
    State(server): State<Arc<Sessions>>,
    Query(query): Query<HashMap<String, String>>,
    ws: WebSocketUpgrade,
) -> Response {
    let attach = query.get("session_id").cloned();
    sized(ws, &server).on_upgrade(move |socket| {
        let tracker = server.clone();
        tracker.shutdown().track(session(server, socket, attach))
    })
}

/// Bytes read from a socket at a time: the read buffer is this large (and filled with zeros)
/// from a connection's first message, so it is most of an idle session's memory. A message
/// larger than this still arrives whole: the buffer grows to hold it.
const READ_BUFFER_BYTES: usize = 8 << 10;

/// A WebSocket upgrade with the server's message size limit and a small read buffer.
pub fn sized(ws: WebSocketUpgrade, server: &Sessions) -> WebSocketUpgrade {
    let limit = server.config().max_request_bytes;
    ws.max_message_size(limit)
        .max_frame_size(limit)
        .read_buffer_size(READ_BUFFER_BYTES)
}

/// Closes `socket` with 1001 ("going away") and the shutdown's reason.
async fn close_for_shutdown(socket: &mut WebSocket) {
    let frame = CloseFrame {
        code: close_code::AWAY,
        reason: crate::shutdown::CLOSE_REASON.into(),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

/// Pings and pongs a session may send per second; a client past it floods the server (each
/// ping is read and answered) and loses its session with 1008 (policy violation). Client
/// libraries ping every few seconds.
const CONTROL_FRAMES_PER_SECOND: u32 = 100;

/// A session's count of control frames in the current one-second window.
struct ControlBudget {
    window: Instant,
    spent: u32,
}

impl Default for ControlBudget {
    fn default() -> Self {
        ControlBudget {
            window: Instant::now(),
            spent: 0,
        }
    }
}

impl ControlBudget {
    /// Counts one frame; false once the window's budget is spent.
    fn spend(&mut self) -> bool {
        if self.window.elapsed() >= Duration::from_secs(1) {
            *self = ControlBudget::default();
        }
        self.spent += 1;
        self.spent <= CONTROL_FRAMES_PER_SECOND
    }
}

/// What to do after a message.
enum Next {
    Reply(String),
    Close,
}

async fn session(server: Arc<Sessions>, mut socket: WebSocket, attach: Option<String>) {
    let opened = match attach {
        Some(id) => server.named(&id),
        None => server.open().await,
    };
    let env = match opened {
        Ok(env) => env,
        Err(failure) => {
            server.metrics().failure(failure.code);
            // Said at once, and again in answer to the client's first message (for up to 5 s),
            // so a client that sends before it reads gets the refusal, not a closed socket.
            let refusal = failure.ws_message();
            let _ = socket.send(Message::Text(refusal.clone().into())).await;
            let first = tokio::time::timeout(Duration::from_secs(5), socket.recv()).await;
            if let Ok(Some(Ok(Message::Text(_) | Message::Binary(_)))) = first {
                let _ = socket.send(Message::Text(refusal.into())).await;
            }
            let _ = socket.send(Message::Close(None)).await;
            return;
        }
    };
    let idle = server.config().idle_timeout;
    let stopping = server.shutdown().begins();
    tokio::pin!(stopping);
    // Only messages count as activity: a client library's keepalive pings do not hold an env.
    let mut last_message = Instant::now();
    let mut control = ControlBudget::default();
    loop {
        let left = idle.saturating_sub(last_message.elapsed());
        // The server stopping ends the session between calls, never inside one.
        let received = tokio::select! {
            biased;
            () = &mut stopping => None,
            received = tokio::time::timeout(left, socket.recv()) => Some(received),
        };
        let Some(received) = received else {
            close_for_shutdown(&mut socket).await;
            return;
        };
        let message = match received {
            Err(_) => {
                let failure = Failure::new(
                    Code::SessionError,
                    format!(
                        "session closed after {} s without a message",
                        idle.as_secs_f64()
                    ),
                );
                let _ = socket
                    .send(Message::Text(failure.ws_message().into()))
                    .await;
                break;
            }
            Ok(None) => break,
            Ok(Some(Err(error))) => {
                // A message over the size limit: say so, and close with 1009 ("message too big").
                if error.to_string().contains("Message too long") {
                    let limit = server.config().max_request_bytes;
                    let failure = Failure::new(
                        Code::ValidationError,
                        format!("message over the server's limit of {limit} bytes"),
                    );
                    let _ = socket
                        .send(Message::Text(failure.ws_message().into()))
                        .await;
                    let frame = CloseFrame {
                        code: close_code::SIZE,
                        reason: "message too big".into(),
                    };
                    let _ = socket.send(Message::Close(Some(frame))).await;
                    return;
                }
                break;
            }
            Ok(Some(Ok(message))) => message,
        };
        let text = match message {
            Message::Text(text) => text.to_string(),
            Message::Binary(bytes) => match String::from_utf8(bytes.to_vec()) {
                Ok(text) => text,
                Err(_) => {
                    let reply =
                        Failure::new(Code::InvalidJson, "a binary message that is not UTF-8");
                    if socket
                        .send(Message::Text(reply.ws_message().into()))
                        .await
                        .is_err()
                    {
                        break;
                    }
                    continue;
                }
            },
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => {
                if control.spend() {
                    continue;
                }
                let frame = CloseFrame {
                    code: close_code::POLICY,
                    reason: "more than 100 pings or pongs per second".into(),
                };
                let _ = socket.send(Message::Close(Some(frame))).await;
                return;
            }
        };
        last_message = Instant::now();
        match handle(&server, &env, &text).await {
            Next::Reply(reply) => {
                // A client that stops reading its replies is given the idle timeout to take
                // this one, then loses the session: the server never queues replies for it.
                let sent = tokio::time::timeout(idle, socket.send(Message::Text(reply.into())));
                if !matches!(sent.await, Ok(Ok(()))) {
                    return;
                }
                // One message per turn: a client that floods messages waits behind every other
                // session's next message instead of holding an async thread for a burst.
                tokio::task::yield_now().await;
            }
            Next::Close => break,
        }
    }
    let _ = socket.send(Message::Close(None)).await;
    // The env (and its capacity slot) is freed with the last handle, here.
    drop(env);
}

/// Answers one `/ws` message `text` on session `env` as the route does: the reply envelope, or
/// `None` for `close` (the route then ends the session). Never fails: a bad message gets an
/// `error` envelope with its OpenEnv code.
pub async fn reply(server: &Arc<Sessions>, env: &Shared, text: &str) -> Option<String> {
    match handle(server, env, text).await {
        Next::Reply(reply) => Some(reply),
        Next::Close => None,
    }
}

async fn handle(server: &Arc<Sessions>, env: &Shared, text: &str) -> Next {
    let outcome = match serde_json::from_str::<Value>(text) {
        Err(e) => Err(Failure::new(
            Code::InvalidJson,
            format!("Invalid JSON: {e}"),
        )),
        Ok(Value::Object(message)) => match message.get("type").and_then(Value::as_str) {
            Some("close") => return Next::Close,
            Some("reset") => reset(server, env, &message).await,
            Some("step") => step(server, env, &message).await,
            Some("mcp") => match only(&message, &["type", "data"]) {
                Ok(()) => {
                    let reply = crate::mcp::on_session(server, message.get("data"), env).await;
                    Ok(json!({"type": "mcp", "data": reply}))
                }
                Err(failure) => Err(failure),
            },
            Some("state") => only(&message, &["type"])
                .map(|()| json!({"type": "state", "data": sessions::lock(env).state()})),
            other => Err(Failure::new(
                Code::UnknownType,
                format!("Unknown message type: {}", other.unwrap_or("")),
            )),
        },
        Ok(other) => Err(Failure::new(
            Code::ValidationError,
            format!("a message must be a JSON object, got {other}"),
        )),
    };
    Next::Reply(match outcome {
        Ok(reply) => reply.to_string(),
        Err(failure) => {
            server.metrics().failure(failure.code);
            failure.ws_message()
        }
    })
}

async fn reset(
    server: &Sessions,
    env: &Shared,
    message: &Map<String, Value>,
) -> Result<Value, Failure> {
    only(message, &["type", "data"])?;
    let params = match message.get("data") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(params)) => params.clone(),
        Some(other) => {
            return Err(Failure::new(
                Code::ValidationError,
                format!("reset `data` must be an object, got {other}"),
            ));
        }
    };
    let params = ResetParams::parse(&params, &server.config().env_id)?;
    let env = env.clone();
    let out = server
        .call(Call::Reset, move || sessions::lock(&env).reset(params))
        .await??;
    Ok(json!({"type": "observation", "data": out}))
}

async fn step(
    server: &Sessions,
    env: &Shared,
    message: &Map<String, Value>,
) -> Result<Value, Failure> {
    only(message, &["type", "data"])?;
    let data = message.get("data").ok_or_else(|| {
        Failure::new(
            Code::ValidationError,
            "a step message needs `data`: {\"message\": \"<text>\"}",
        )
    })?;
    let action = wire::parse_action(data)?;
    let env = env.clone();
    let out = server
        .call(Call::Step, move || sessions::lock(&env).step(&action))
        .await??;
    Ok(json!({"type": "observation", "data": out}))
}

/// OpenEnv's messages forbid unknown fields.
fn only(message: &Map<String, Value>, allowed: &[&str]) -> Result<(), Failure> {
    match message.keys().find(|key| !allowed.contains(&key.as_str())) {
        Some(key) => Err(Failure::new(
            Code::ValidationError,
            format!("Invalid message: unknown field `{key}`"),
        )),
        None => Ok(()),
    }
}
