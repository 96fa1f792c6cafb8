//! The routes: chat completions, the model list and the stats.

use crate::completion::Completion;
use crate::errors::ApiError;
use crate::failures::{Failures, Injection};
use crate::policy::Policy;
use crate::stats::{Stats, bump};
use crate::stream;
use crate::wire::ChatRequest;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Extension, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;
use std::convert::Infallible;
use std::sync::Arc;
use tokio::sync::Notify;

/// The largest request body accepted.
const BODY_LIMIT: usize = 64 << 20;
/// The body of an injected malformed answer.
pub const MALFORMED_BODY: &str = "{\"choices\": [";

/// What the handlers share.
#[derive(Debug)]
pub struct App {
    /// The model name served.
    pub model: String,
    /// The bearer token required, if any.
    pub api_key: Option<String>,
    /// The reply policy.
    pub policy: Policy,
    /// The failures to inject.
    pub failures: Failures,
    /// The counters.
    pub stats: Stats,
}

/// Closes the connection a request came on, unanswered (inserted per connection by the server).
#[derive(Debug, Clone, Default)]
pub struct Abort(pub Arc<Notify>);

impl Abort {
    /// Asks the server to drop the connection.
    pub fn abort(&self) {
        self.0.notify_one();
    }
}

/// The router over `app`.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/v1/chat/completions", post(chat))
        .route("/v1/models", get(models))
        .route("/stats", get(stats))
        .fallback(|uri: Uri| async move { ApiError::no_route(uri.path()) })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(app)
}

impl App {
    /// Whether `headers` carry the bearer token (always, when none is required).
    fn authorized(&self, headers: &HeaderMap) -> bool {
        let Some(key) = &self.api_key else {
            return true;
        };
        headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .is_some_and(|token| token.trim() == key)
    }
}

async fn models(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    if !app.authorized(&headers) {
        bump(&app.stats.unauthorized);
        return ApiError::invalid_api_key().into_response();
    }
    Json(json!({
        "object": "list",
        "data": [{ "id": app.model, "object": "model", "created": 0, "owned_by": "geode" }],
    }))
    .into_response()
}

async fn stats(State(app): State<Arc<App>>) -> Json<serde_json::Value> {
    Json(app.stats.to_json())
}

async fn chat(
    State(app): State<Arc<App>>,
    abort: Option<Extension<Abort>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let n = app.stats.next_request();
    if !app.authorized(&headers) {
        bump(&app.stats.unauthorized);
        return ApiError::invalid_api_key().into_response();
    }
    let request: ChatRequest = match serde_json::from_slice(&body) {
        Ok(request) => request,
        Err(e) => {
            return ApiError::bad_request(format!("Invalid chat request: {e}")).into_response();
        }
    };
    if request.model != app.model {
        bump(&app.stats.unknown_model);
        return ApiError::model_not_found(&request.model).into_response();
    }
    if let Some(response) = inject(&app, n, abort).await {
        return response;
    }
    let chars = request.content_chars();
    if app.failures.over_context(chars) {
        bump(&app.stats.context_length);
        let limit = app.failures.context_limit_chars.unwrap_or_default();
        return ApiError::context_length(limit, chars).into_response();
    }
    let completion = Completion::new(n, &request, app.policy.reply(&request));
    bump(&app.stats.completed);
    if request.stream {
        bump(&app.stats.streamed);
        event_stream(&completion, request.include_usage())
    } else {
        Json(completion.to_json()).into_response()
    }
}

/// Applies the injection for request `n`: a response that replaces the answer, or `None` to
/// answer (after the delay of a slow request). A dropped request never returns.
async fn inject(app: &App, n: u64, abort: Option<Extension<Abort>>) -> Option<Response> {
    match app.failures.for_request(n)? {
        Injection::RateLimited(secs) => {
            bump(&app.stats.rate_limited);
            Some(ApiError::rate_limited(secs).into_response())
        }
        Injection::ServerError => {
            bump(&app.stats.server_error);
            Some(ApiError::server_error().into_response())
        }
        Injection::Slow(delay) => {
            bump(&app.stats.slow);
            tokio::time::sleep(delay).await;
            None
        }
        Injection::Malformed => {
            bump(&app.stats.malformed);
            let mut response = (StatusCode::OK, MALFORMED_BODY).into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                header::HeaderValue::from_static("application/json"),
            );
            Some(response)
        }
        Injection::Dropped => {
            bump(&app.stats.dropped);
            match abort {
                Some(Extension(abort)) => {
                    abort.abort();
                    std::future::pending::<()>().await;
                    None
                }
                // Served without the server's connection loop: nothing to drop.
                None => Some(ApiError::server_error().into_response()),
            }
        }
    }
}

fn event_stream(completion: &Completion, include_usage: bool) -> Response {
    let events = stream::events(&stream::chunks(completion, include_usage));
    let body = Body::from_stream(futures_util::stream::iter(
        events
            .into_iter()
            .map(|e| Ok::<_, Infallible>(Bytes::from(e))),
    ));
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}
