//! Request bodies are read whole before a route runs, within the header timeout: a client that
//! sends its headers, then trickles its body (or never sends it), is answered 408 and closed
//! instead of holding a connection for as long as it likes.

use crate::sessions::Sessions;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// Reads the request's body within the header timeout, then runs the route on it.
pub async fn read_within_deadline(
    State(server): State<Arc<Sessions>>,
    request: Request,
    next: Next,
) -> Response {
    let deadline = server.config().header_timeout;
    let (parts, body) = request.into_parts();
    // The body limit layer outside this one caps how much is read.
    match tokio::time::timeout(deadline, axum::body::to_bytes(body, usize::MAX)).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(error)) if is_over_limit(&error) => {
            (StatusCode::PAYLOAD_TOO_LARGE, "length limit exceeded").into_response()
        }
        Ok(Err(error)) => closing(
            StatusCode::BAD_REQUEST,
            format!("the request body could not be read: {error}"),
        ),
        Err(_) => closing(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {} s of its headers",
                deadline.as_secs_f64()
            ),
        ),
    }
}

/// Whether reading failed on the body size limit.
fn is_over_limit(error: &axum::Error) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = cause {
        if e.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        cause = e.source();
    }
    false
}

/// A refusal in FastAPI's shape (`{"detail": ...}`) that closes the connection: the rest of the
/// body may still be on its way.
fn closing(status: StatusCode, detail: String) -> Response {
    let mut response =
        (status, axum::Json(serde_json::json!({ "detail": detail }))).into_response();
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
