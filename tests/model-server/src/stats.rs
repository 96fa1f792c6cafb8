//! The counters behind `GET /stats`.

use serde_json::{Value, json};
use std::sync::atomic::{AtomicU64, Ordering};

/// Counters of chat requests and their outcomes.
#[derive(Debug, Default)]
pub struct Stats {
    /// Chat requests received (their sequence numbers).
    pub requests: AtomicU64,
    /// 200 answers carrying a completion.
    pub completed: AtomicU64,
    /// Completions sent as event streams.
    pub streamed: AtomicU64,
    /// Injected 429s.
    pub rate_limited: AtomicU64,
    /// Injected 500s.
    pub server_error: AtomicU64,
    /// Injected delays.
    pub slow: AtomicU64,
    /// Injected non-JSON bodies.
    pub malformed: AtomicU64,
    /// Injected dropped connections.
    pub dropped: AtomicU64,
    /// Injected context-length errors.
    pub context_length: AtomicU64,
    /// 401 answers.
    pub unauthorized: AtomicU64,
    /// 404 answers for an unknown model.
    pub unknown_model: AtomicU64,
}

/// Adds one to a counter.
pub fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

impl Stats {
    /// Counts a new chat request; returns its 1-based sequence number.
    pub fn next_request(&self) -> u64 {
        self.requests.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// The `/stats` JSON.
    pub fn to_json(&self) -> Value {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        json!({
            "requests": get(&self.requests),
            "completed": get(&self.completed),
            "streamed": get(&self.streamed),
            "injected": {
                "rate_limited": get(&self.rate_limited),
                "server_error": get(&self.server_error),
                "slow": get(&self.slow),
                "malformed": get(&self.malformed),
                "dropped": get(&self.dropped),
                "context_length": get(&self.context_length),
            },
            "unauthorized": get(&self.unauthorized),
            "unknown_model": get(&self.unknown_model),
        })
    }
}
