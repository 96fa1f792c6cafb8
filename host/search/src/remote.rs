//! [`RemoteSearch`]: a client of GEM's retrieval server. The host makes the request (a guest
//! never reaches the network), only to the configured address, with a deadline on the whole
//! exchange; every failure becomes a message for `[SearchTool Error: …]`.

use crate::protocol::{QueryRequest, RetrievalResponse};
use std::time::Duration;

/// The largest response body read (a topk of thousands of long passages fits).
const MAX_RESPONSE_BYTES: u64 = 64 << 20;

/// A retrieval-server client for one address.
#[derive(Clone)]
pub struct RemoteSearch {
    url: String,
    timeout: Duration,
    agent: ureq::Agent,
}

impl std::fmt::Debug for RemoteSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteSearch")
            .field("url", &self.url)
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl RemoteSearch {
    /// A client of the server at `url` (e.g. `http://127.0.0.1:8000/retrieve`); each search
    /// gives up after `timeout`.
    pub fn new(url: &str, timeout: Duration) -> Self {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .build();
        RemoteSearch {
            url: url.to_owned(),
            timeout,
            agent: ureq::Agent::new_with_config(config),
        }
    }

    /// The server's address.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Asks the server for the `topk` best passages of `query`; `Err` holds the message GEM's
    /// tool would show inside `[SearchTool Error: …]`.
    pub fn search(&self, query: &str, topk: u64) -> Result<RetrievalResponse, String> {
        let request = QueryRequest {
            query: query.to_owned(),
            topk: Some(topk),
            return_scores: true,
        };
        let body =
            rmp_serde::to_vec_named(&request).map_err(|e| format!("encoding the request: {e}"))?;
        let mut response = self
            .agent
            .post(&self.url)
            .header("content-type", "application/msgpack")
            .send(&body[..])
            .map_err(|e| self.describe(e))?;
        let status = response.status();
        let bytes = response
            .body_mut()
            .with_config()
            .limit(MAX_RESPONSE_BYTES)
            .read_to_vec()
            .map_err(|e| self.describe(e))?;
        if !status.is_success() {
            let text = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
            return Err(format!("{status} for url: {} {}", self.url, text.trim()));
        }
        rmp_serde::from_slice(&bytes).map_err(|e| {
            format!(
                "the response of {} is not a msgpack {{\"result\": [...]}} map: {e}",
                self.url
            )
        })
    }

    fn describe(&self, error: ureq::Error) -> String {
        match error {
            ureq::Error::Timeout(_) => format!(
                "no answer from {} within {} s (timeout)",
                self.url,
                self.timeout.as_secs_f64()
            ),
            ureq::Error::ConnectionFailed => format!("cannot connect to {}", self.url),
            ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
                format!("cannot connect to {} (connection refused)", self.url)
            }
            ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::TimedOut => format!(
                "no answer from {} within {} s (timeout)",
                self.url,
                self.timeout.as_secs_f64()
            ),
            ureq::Error::HostNotFound => format!("host of {} not found", self.url),
            ureq::Error::BadUri(uri) => format!("bad search_url `{uri}`"),
            ureq::Error::TlsRequired | ureq::Error::Tls(_) => format!(
                "{}: https is not supported by geode's search client; use an http address",
                self.url
            ),
            ureq::Error::BodyExceedsLimit(limit) => {
                format!("the response of {} is over {limit} bytes", self.url)
            }
            other => format!("{}: {other}", self.url),
        }
    }
}
