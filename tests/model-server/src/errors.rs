//! OpenAI's error responses: `{"error": {"message", "type", "param", "code"}}`.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// An error answer.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The human-readable message.
    pub message: String,
    /// OpenAI's `type`.
    pub kind: &'static str,
    /// OpenAI's `code`.
    pub code: &'static str,
    /// The `Retry-After` header, in seconds.
    pub retry_after: Option<u64>,
}

impl ApiError {
    fn new(status: StatusCode, kind: &'static str, code: &'static str, message: String) -> Self {
        ApiError {
            status,
            message,
            kind,
            code,
            retry_after: None,
        }
    }

    /// 401: missing or wrong bearer token.
    pub fn invalid_api_key() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "invalid_request_error",
            "invalid_api_key",
            "Incorrect API key provided.".into(),
        )
    }

    /// 404: a model other than the one served.
    pub fn model_not_found(model: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "invalid_request_error",
            "model_not_found",
            format!("The model `{model}` does not exist"),
        )
    }

    /// 400: a body that is not a chat request.
    pub fn bad_request(message: String) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            "invalid_request",
            message,
        )
    }

    /// 404: no such endpoint.
    pub fn no_route(path: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "invalid_request_error",
            "not_found",
            format!("No endpoint {path}"),
        )
    }

    /// 429 with `Retry-After: secs` (injected).
    pub fn rate_limited(secs: u64) -> Self {
        let mut error = Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "requests",
            "rate_limit_exceeded",
            format!("Rate limit reached. Please try again in {secs}s."),
        );
        error.retry_after = Some(secs);
        error
    }

    /// 500 (injected).
    pub fn server_error() -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "server_error",
            "internal_error",
            "The server had an error while processing your request.".into(),
        )
    }

    /// 400: the messages' contents are longer than `limit` characters (injected).
    pub fn context_length(limit: usize, chars: usize) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            "context_length_exceeded",
            format!(
                "This model's maximum context length is {limit} tokens. However, your messages \
                 resulted in {chars} tokens. Please reduce the length of the messages."
            ),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({
            "error": {
                "message": self.message,
                "type": self.kind,
                "param": null,
                "code": self.code,
            }
        });
        let mut response = (self.status, axum::Json(body)).into_response();
        if let Some(secs) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}
