//! OpenEnv's HTTP routes. `/reset` and `/step` are one-shot as OpenEnv's are (a fresh env per
//! request) unless the request names an episode with `episode_id`: then `/reset` keeps that
//! env as a session and `/step` (and `GET /state?episode_id=`) go on with it, so an episode can
//! be played over plain HTTP.

use crate::metrics::Call;
use crate::sessions::{self, Sessions};
use crate::wire::{self, Code, Failure, ResetParams};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::sync::Arc;

/// A failure as an HTTP response: the status its code calls for, and a JSON body with the
/// reason in `detail` (FastAPI's key, which OpenEnv's clients print) beside code and kind.
impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let status = match self.code {
            Code::InvalidJson => StatusCode::BAD_REQUEST,
            Code::UnknownType | Code::ValidationError => StatusCode::UNPROCESSABLE_ENTITY,
            Code::CapacityReached => StatusCode::SERVICE_UNAVAILABLE,
            Code::SessionError => StatusCode::NOT_FOUND,
            Code::FactoryError => StatusCode::INTERNAL_SERVER_ERROR,
            Code::ExecutionError => match self.extra.get("kind").and_then(Value::as_str) {
                Some("InputTooLargeError") => StatusCode::PAYLOAD_TOO_LARGE,
                Some("InvalidStateError") => StatusCode::CONFLICT,
                Some("InvalidArgumentError" | "EnvRefusedError") => {
                    StatusCode::UNPROCESSABLE_ENTITY
                }
                _ => StatusCode::INTERNAL_SERVER_ERROR,
            },
        };
        let mut body = self.data();
        if let Value::Object(map) = &mut body {
            let message = map.remove("message").unwrap_or_default();
            map.insert("detail".into(), message);
        }
        let mut response = (status, Json(body)).into_response();
        // Read by the router's failure counter (`crate::count_failures`).
        response.extensions_mut().insert(self.code);
        response
    }
}

/// The body as a JSON object: empty means `{}`; anything else not an object is a 4xx.
pub(crate) fn object(body: &Bytes) -> Result<Map<String, Value>, Failure> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(Failure::new(
            Code::ValidationError,
            format!("the request body must be a JSON object, got {other}"),
        )),
        Err(e) => Err(Failure::new(
            Code::InvalidJson,
            format!("invalid JSON: {e}"),
        )),
    }
}

/// `POST /reset`: a fresh env's first observation (of a chosen task with `index`); with
/// `episode_id`, the env is kept.
pub async fn reset(
    State(server): State<Arc<Sessions>>,
    body: Bytes,
) -> Result<Json<Value>, Failure> {
    let params = ResetParams::parse(&object(&body)?, &server.config().env_id)?;
    let episode_id = params.episode_id.clone();
    let session = server.open().await?;
    let runner = session.clone();
    let out = server
        .call(Call::Reset, move || sessions::lock(&runner).reset(params))
        .await??;
    if let Some(id) = episode_id {
        server.name(&id, session);
    }
    Ok(Json(out))
}

/// `POST /step`: `{"action": {"message": ...}}`, on the episode named by `episode_id`, or
/// else on a fresh env reset with the request's reset parameters (`seed`, or `split` and
/// `index`: OpenEnv's one-shot step).
pub async fn step(
    State(server): State<Arc<Sessions>>,
    body: Bytes,
) -> Result<Json<Value>, Failure> {
    let params = object(&body)?;
    let action = params.get("action").ok_or_else(|| {
        Failure::new(
            Code::ValidationError,
            "the request has no `action`: send {\"action\": {\"message\": \"<text>\"}}",
        )
    })?;
    let action = wire::parse_action(action)?;
    if let Some(timeout) = params.get("timeout_s")
        && !timeout.is_null()
        && !timeout.as_f64().is_some_and(|t| t > 0.0)
    {
        return Err(Failure::new(
            Code::ValidationError,
            format!("`timeout_s` must be a positive number, got {timeout}"),
        ));
    }
    let out = match wire::parse_episode_id(&params)? {
        Some(id) => {
            let session = server.named(&id)?;
            server
                .call(Call::Step, move || sessions::lock(&session).step(&action))
                .await??
        }
        None => {
            let reset = ResetParams::parse(&params, &server.config().env_id)?;
            let session = server.open().await?;
            server
                .call(Call::Step, move || {
                    let mut session = sessions::lock(&session);
                    session.reset(reset)?;
                    session.step(&action)
                })
                .await??
        }
    };
    Ok(Json(out))
}

/// `GET /state`: the state of the episode named by `?episode_id=`, or of a fresh env.
pub async fn state(
    State(server): State<Arc<Sessions>>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<Value>, Failure> {
    match query.get("episode_id") {
        Some(id) => {
            // On a worker: the episode may be mid-step, and its lock must not hold an async thread.
            let session = server.named(id)?;
            Ok(Json(
                server
                    .call(Call::State, move || sessions::lock(&session).state())
                    .await?,
            ))
        }
        None => Ok(Json(wire::state(&server.config().env_id, None, 0))),
    }
}

/// `GET /health`.
pub async fn health() -> Json<Value> {
    Json(json!({"status": "healthy"}))
}

/// `GET /schema`: the action, observation and state schemas.
pub async fn schema() -> Json<Value> {
    Json(wire::schema())
}

/// `GET /metadata`: the env's id, description and geode's version.
pub async fn metadata(State(server): State<Arc<Sessions>>) -> Json<Value> {
    let id = &server.config().env_id;
    let description = server
        .registry()
        .lookup(id)
        .map(|entry| entry.spec.description.clone())
        .unwrap_or_default();
    Json(json!({
        "name": id,
        "description": description,
        "readme_content": null,
        "version": env!("CARGO_PKG_VERSION"),
        "author": null,
        "documentation_url": null,
    }))
}
