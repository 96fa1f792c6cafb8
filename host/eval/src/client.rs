//! The model's side: OpenAI Chat Completions over HTTP/1.1 or HTTP/2 (TLS by rustls with the
//! platform's roots and any `--ca-cert`), streamed or not, each request bounded by a timeout and
//! retried with backoff on failures that may pass.

use crate::record::Usage;
use crate::settings::Sampling;
use futures_util::StreamExt;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How to reach the server.
#[derive(Debug, Clone)]
pub struct ClientSettings {
    /// The API's base URL, e.g. `http://127.0.0.1:8000/v1`.
    pub base_url: String,
    /// The bearer token, if the server wants one.
    pub api_key: Option<String>,
    /// Extra root certificates (PEM) to trust beside the platform's.
    pub ca_cert: Option<PathBuf>,
    /// Most time one request may take, connection included.
    pub timeout: Duration,
    /// How often a request that failed in a way that may pass is tried again.
    pub max_retries: u32,
    /// The first backoff; each retry doubles it (up to 30 s) unless the server says
    /// `Retry-After`.
    pub backoff: Duration,
    /// Stream replies (server-sent events) instead of one JSON body.
    pub stream: bool,
    /// Speak HTTP/2 without TLS's negotiation (h2c); over TLS HTTP/2 is negotiated anyway.
    pub http2_prior_knowledge: bool,
    /// Connections kept open per host (the run's concurrency).
    pub max_idle_connections: usize,
}

/// One reply of the model.
#[derive(Debug, Clone, Default)]
pub struct Reply {
    /// The assistant message's text.
    pub content: String,
    /// Why generation stopped (`stop`, `length`...).
    pub finish_reason: Option<String>,
    /// The server's token counts.
    pub usage: Usage,
    /// The generated token ids (servers that return them, such as vLLM with `return_token_ids`).
    pub token_ids: Option<Vec<u64>>,
    /// The choice's `logprobs` object as the server sent it.
    pub logprobs: Option<Value>,
}

/// A request that did not give a reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The server refused in a way no retry mends (bad key, unknown model, bad request): the
    /// run stops.
    Fatal(String),
    /// The prompt is longer than the model's context: the episode ends there.
    ContextLength(String),
    /// Retries used up; `kind` is the last failure's.
    GaveUp {
        /// `rate_limited`, `server_error`, `timeout`, `connection` or `malformed`.
        kind: &'static str,
        /// The last failure, in words.
        message: String,
    },
}

/// What one chat request came to, with the retries it took.
#[derive(Debug)]
pub struct Exchange {
    /// The reply, or why there is none.
    pub result: Result<Reply, Failure>,
    /// Failed attempts before the last, by kind.
    pub retries: BTreeMap<String, u64>,
    /// Wall-clock time of all attempts.
    pub latency: Duration,
}

/// What the model is asked, besides the messages.
#[derive(Debug, Clone)]
pub struct ChatOptions {
    /// The model name.
    pub model: String,
    /// Sampling settings.
    pub sampling: Sampling,
    /// Ask for the tokens' logprobs.
    pub logprobs: bool,
    /// Ask for the generated token ids (vLLM's `return_token_ids`).
    pub return_token_ids: bool,
}

/// A failed attempt: retried when `retry` says so.
struct Attempt {
    kind: &'static str,
    message: String,
    retry_after: Option<Duration>,
}

enum AttemptError {
    Retry(Attempt),
    Stop(Failure),
}

/// An OpenAI-compatible chat client.
#[derive(Debug, Clone)]
pub struct ChatClient {
    http: reqwest::Client,
    url: String,
    settings: ClientSettings,
}

impl ChatClient {
    /// A client of `settings.base_url`; fails on an unreadable `ca_cert` or a bad URL.
    pub fn new(settings: ClientSettings) -> anyhow::Result<Self> {
        let mut builder = reqwest::Client::builder()
            .timeout(settings.timeout)
            .connect_timeout(settings.timeout.min(Duration::from_secs(30)))
            .pool_max_idle_per_host(settings.max_idle_connections.max(1))
            .user_agent(concat!("geode-eval/", env!("CARGO_PKG_VERSION")));
        if let Some(path) = &settings.ca_cert {
            let pem = std::fs::read(path)
                .map_err(|e| anyhow::anyhow!("--ca-cert {}: {e}", path.display()))?;
            let certs = reqwest::Certificate::from_pem_bundle(&pem).map_err(|e| {
                anyhow::anyhow!("--ca-cert {}: not PEM certificates: {e}", path.display())
            })?;
            if certs.is_empty() {
                anyhow::bail!("--ca-cert {}: holds no certificate", path.display());
            }
            builder = builder.tls_certs_merge(certs);
        }
        if settings.http2_prior_knowledge {
            builder = builder.http2_prior_knowledge();
        }
        let http = builder.build()?;
        let base = settings.base_url.trim_end_matches('/');
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            anyhow::bail!("--base-url must start with http:// or https://, got `{base}`");
        }
        let url = format!("{base}/chat/completions");
        reqwest::Url::parse(&url).map_err(|e| anyhow::anyhow!("--base-url `{base}`: {e}"))?;
        Ok(ChatClient {
            http,
            url,
            settings,
        })
    }

    /// Asks for the next assistant message of `messages`, retrying what may pass.
    pub async fn chat(
        &self,
        messages: &[Value],
        options: &ChatOptions,
        seed: Option<u64>,
    ) -> Exchange {
        let body = self.body(messages, options, seed);
        let started = Instant::now();
        let mut retries = BTreeMap::new();
        let mut backoff = self.settings.backoff;
        let mut attempt = 0;
        loop {
            match self.attempt(&body).await {
                Ok(reply) => {
                    return Exchange {
                        result: Ok(reply),
                        retries,
                        latency: started.elapsed(),
                    };
                }
                Err(AttemptError::Stop(failure)) => {
                    return Exchange {
                        result: Err(failure),
                        retries,
                        latency: started.elapsed(),
                    };
                }
                Err(AttemptError::Retry(failed)) => {
                    if attempt >= self.settings.max_retries {
                        return Exchange {
                            result: Err(Failure::GaveUp {
                                kind: failed.kind,
                                message: failed.message,
                            }),
                            retries,
                            latency: started.elapsed(),
                        };
                    }
                    *retries.entry(failed.kind.to_owned()).or_insert(0) += 1;
                    attempt += 1;
                    let wait = failed
                        .retry_after
                        .unwrap_or(backoff)
                        .min(Duration::from_secs(60));
                    backoff = (backoff * 2).min(Duration::from_secs(30));
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }

    fn body(&self, messages: &[Value], options: &ChatOptions, seed: Option<u64>) -> Value {
        let mut body = Map::new();
        body.insert("model".into(), json!(options.model));
        body.insert("messages".into(), Value::Array(messages.to_vec()));
        let sampling = &options.sampling;
        if let Some(t) = sampling.temperature {
            body.insert("temperature".into(), json!(t));
        }
        if let Some(p) = sampling.top_p {
            body.insert("top_p".into(), json!(p));
        }
        if let Some(m) = sampling.max_tokens {
            body.insert("max_tokens".into(), json!(m));
        }
        if let Some(s) = seed {
            body.insert("seed".into(), json!(s));
        }
        if options.logprobs {
            body.insert("logprobs".into(), json!(true));
        }
        if options.return_token_ids {
            body.insert("return_token_ids".into(), json!(true));
        }
        if self.settings.stream {
            body.insert("stream".into(), json!(true));
            body.insert("stream_options".into(), json!({"include_usage": true}));
        }
        Value::Object(body)
    }

    async fn attempt(&self, body: &Value) -> Result<Reply, AttemptError> {
        let mut request = self.http.post(&self.url).json(body);
        if let Some(key) = &self.settings.api_key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.map_err(transport_failure)?;
        let status = response.status();
        if !status.is_success() {
            let retry_after = retry_after(response.headers());
            let text = response.text().await.unwrap_or_default();
            return Err(status_failure(status.as_u16(), &text, retry_after));
        }
        if self.settings.stream {
            read_stream(response).await
        } else {
            let bytes = response.bytes().await.map_err(transport_failure)?;
            let value: Value = serde_json::from_slice(&bytes).map_err(|e| malformed(&e, &bytes))?;
            parse_completion(&value)
        }
    }
}

fn malformed(error: &dyn std::fmt::Display, bytes: &[u8]) -> AttemptError {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(120)]).into_owned();
    AttemptError::Retry(Attempt {
        kind: "malformed",
        message: format!("the reply is not a chat completion ({error}): `{head}`"),
        retry_after: None,
    })
}

fn transport_failure(error: reqwest::Error) -> AttemptError {
    let kind = if error.is_timeout() {
        "timeout"
    } else {
        "connection"
    };
    AttemptError::Retry(Attempt {
        kind,
        message: format!("{:#}", anyhow::Error::new(error)),
        retry_after: None,
    })
}

fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let value = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
}

/// The error object of an OpenAI-style error body: (code, message).
fn error_fields(text: &str) -> (String, String) {
    let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    let error = value.get("error").unwrap_or(&value);
    let field = |key: &str| match error.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    let message = match field("message") {
        m if m.is_empty() => text.chars().take(200).collect(),
        m => m,
    };
    (field("code"), message)
}

fn status_failure(status: u16, text: &str, retry_after: Option<Duration>) -> AttemptError {
    let (code, message) = error_fields(text);
    let context = code == "context_length_exceeded"
        || message.contains("context length")
        || message.contains("maximum context")
        || status == 413;
    let described = if code.is_empty() {
        format!("HTTP {status}: {message}")
    } else {
        format!("HTTP {status} {code}: {message}")
    };
    match status {
        429 => AttemptError::Retry(Attempt {
            kind: "rate_limited",
            message: described,
            retry_after,
        }),
        408 => AttemptError::Retry(Attempt {
            kind: "timeout",
            message: described,
            retry_after,
        }),
        500..=599 => AttemptError::Retry(Attempt {
            kind: "server_error",
            message: described,
            retry_after,
        }),
        _ if context => AttemptError::Stop(Failure::ContextLength(described)),
        _ => AttemptError::Stop(Failure::Fatal(described)),
    }
}

/// Reads a non-streamed `chat.completion`.
fn parse_completion(value: &Value) -> Result<Reply, AttemptError> {
    let bad = |what: &str| {
        AttemptError::Retry(Attempt {
            kind: "malformed",
            message: format!("the reply has no {what}"),
            retry_after: None,
        })
    };
    let choice = value
        .get("choices")
        .and_then(|c| c.get(0))
        .ok_or_else(|| bad("choices[0]"))?;
    let content = match choice.get("message").and_then(|m| m.get("content")) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) => String::new(),
        _ => return Err(bad("choices[0].message.content")),
    };
    Ok(Reply {
        content,
        finish_reason: choice
            .get("finish_reason")
            .and_then(Value::as_str)
            .map(str::to_owned),
        usage: usage_of(value.get("usage")),
        token_ids: token_ids_of(choice),
        logprobs: choice.get("logprobs").filter(|v| !v.is_null()).cloned(),
    })
}

fn usage_of(usage: Option<&Value>) -> Usage {
    let count = |key: &str| {
        usage
            .and_then(|u| u.get(key))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    Usage {
        prompt_tokens: count("prompt_tokens"),
        completion_tokens: count("completion_tokens"),
    }
}

fn token_ids_of(choice: &Value) -> Option<Vec<u64>> {
    choice
        .get("token_ids")?
        .as_array()?
        .iter()
        .map(Value::as_u64)
        .collect()
}

/// Reads a streamed reply: `data: {chunk}` events up to `data: [DONE]`.
async fn read_stream(response: reqwest::Response) -> Result<Reply, AttemptError> {
    let mut reply = Reply::default();
    let mut pending: Vec<u8> = Vec::new();
    let mut stream = response.bytes_stream();
    let mut done = false;
    while let Some(chunk) = stream.next().await {
        pending.extend_from_slice(&chunk.map_err(transport_failure)?);
        while let Some(end) = pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = pending.drain(..=end).collect();
            let line = String::from_utf8_lossy(&line);
            let Some(data) = line.trim_end().strip_prefix("data:") else {
                continue;
            };
            let data = data.trim();
            if data == "[DONE]" {
                done = true;
                break;
            }
            let event: Value =
                serde_json::from_str(data).map_err(|e| malformed(&e, data.as_bytes()))?;
            absorb_chunk(&mut reply, &event);
        }
        if done {
            break;
        }
    }
    if !done {
        return Err(AttemptError::Retry(Attempt {
            kind: "connection",
            message: "the stream ended before `data: [DONE]`".into(),
            retry_after: None,
        }));
    }
    Ok(reply)
}

fn absorb_chunk(reply: &mut Reply, event: &Value) {
    if let Some(usage) = event.get("usage").filter(|u| !u.is_null()) {
        reply.usage = usage_of(Some(usage));
    }
    let Some(choice) = event.get("choices").and_then(|c| c.get(0)) else {
        return;
    };
    if let Some(text) = choice
        .get("delta")
        .and_then(|d| d.get("content"))
        .and_then(Value::as_str)
    {
        reply.content.push_str(text);
    }
    if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
        reply.finish_reason = Some(reason.to_owned());
    }
    if let Some(ids) = token_ids_of(choice) {
        reply.token_ids.get_or_insert_with(Vec::new).extend(ids);
    }
    if let Some(content) = choice
        .get("logprobs")
        .and_then(|l| l.get("content"))
        .and_then(Value::as_array)
    {
        let all = reply.logprobs.get_or_insert_with(|| json!({"content": []}));
        if let Some(list) = all.get_mut("content").and_then(Value::as_array_mut) {
            list.extend(content.iter().cloned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_classified() {
        let stop = |s, t| match status_failure(s, t, None) {
            AttemptError::Stop(f) => Some(f),
            AttemptError::Retry(_) => None,
        };
        let body = r#"{"error":{"message":"This model's maximum context length is 10 tokens","code":"context_length_exceeded"}}"#;
        assert!(matches!(stop(400, body), Some(Failure::ContextLength(_))));
        let unknown =
            r#"{"error":{"message":"The model `x` does not exist","code":"model_not_found"}}"#;
        assert_eq!(
            stop(404, unknown),
            Some(Failure::Fatal(
                "HTTP 404 model_not_found: The model `x` does not exist".into()
            ))
        );
        assert!(stop(429, "{}").is_none() && stop(503, "oops").is_none());
    }

    #[test]
    fn a_streamed_reply_is_assembled() {
        let mut reply = Reply::default();
        for event in [
            json!({"choices":[{"delta":{"role":"assistant"}}]}),
            json!({"choices":[{"delta":{"content":"\\boxed"}}]}),
            json!({"choices":[{"delta":{"content":"{4}"},"finish_reason":"stop"}]}),
            json!({"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3}}),
        ] {
            absorb_chunk(&mut reply, &event);
        }
        assert_eq!(reply.content, "\\boxed{4}");
        assert_eq!(reply.finish_reason.as_deref(), Some("stop"));
        assert_eq!(reply.usage.completion_tokens, 3);
    }
}
