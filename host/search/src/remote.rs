//! [`RemoteSearch`]: a client of GEM's retrieval server. The host makes the request (a guest
//! never reaches the network), only to the configured address, with a deadline on the whole
//! exchange; every failure becomes a message for `[SearchTool Error: …]`. The client is
//! reqwest's over rustls (the platform's roots), the stack `geode eval` and `tool:mcp` use, so
//! `https://` servers work.

use crate::protocol::{QueryRequest, RetrievalResponse};
use std::io::Read;
use std::time::Duration;

/// The largest response body read (a topk of thousands of long passages fits).
const MAX_RESPONSE_BYTES: u64 = 64 << 20;

/// A retrieval-server client for one address.
#[derive(Clone)]
pub struct RemoteSearch {
    url: String,
    timeout: Duration,
    client: Result<reqwest::blocking::Client, String>,
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
        let client = reqwest::blocking::Client::builder()
            .timeout(timeout)
            .build()
            .map_err(|e| {
                format!(
                    "{url}: cannot build the HTTP client: {:#}",
                    anyhow::Error::new(e)
                )
            });
        RemoteSearch {
            url: url.to_owned(),
            timeout,
            client,
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
        let client = self.client.as_ref().map_err(Clone::clone)?;
        let response = client
            .post(&self.url)
            .header("content-type", "application/msgpack")
            .body(body)
            .send()
            .map_err(|e| self.describe(e))?;
        let status = response.status();
        let mut bytes = Vec::new();
        response
            .take(MAX_RESPONSE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| self.describe_io(&e))?;
        if bytes.len() as u64 > MAX_RESPONSE_BYTES {
            return Err(format!(
                "the response of {} is over {MAX_RESPONSE_BYTES} bytes",
                self.url
            ));
        }
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

    fn timed_out(&self) -> String {
        format!(
            "no answer from {} within {} s (timeout)",
            self.url,
            self.timeout.as_secs_f64()
        )
    }

    fn describe(&self, error: reqwest::Error) -> String {
        let (timeout, connect, builder) =
            (error.is_timeout(), error.is_connect(), error.is_builder());
        let chain = format!("{:#}", anyhow::Error::new(error));
        if timeout {
            self.timed_out()
        } else if connect {
            format!("cannot connect to {} ({chain})", self.url)
        } else if builder {
            format!("bad search_url `{}`: {chain}", self.url)
        } else {
            format!("{}: {chain}", self.url)
        }
    }

    fn describe_io(&self, error: &std::io::Error) -> String {
        let timeout = std::error::Error::source(error)
            .and_then(|e| e.downcast_ref::<reqwest::Error>())
            .is_some_and(reqwest::Error::is_timeout);
        if timeout || error.kind() == std::io::ErrorKind::TimedOut {
            self.timed_out()
        } else {
            format!("reading the response of {}: {error}", self.url)
        }
    }
}
