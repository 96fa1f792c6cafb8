//! Failure injection by a chat request's 1-based sequence number n, counted across the server.

use std::time::Duration;

/// Which failures to inject, and how often.
#[derive(Debug, Clone, Default)]
pub struct Failures {
    /// 429 when n is a multiple of this.
    pub fail_429_every: Option<u64>,
    /// The `Retry-After` seconds of an injected 429.
    pub retry_after_secs: u64,
    /// 500 when n is a multiple of this.
    pub fail_500_every: Option<u64>,
    /// Delay by `slow_ms` when n is a multiple of this.
    pub slow_every: Option<u64>,
    /// The delay of a slow request, in milliseconds.
    pub slow_ms: u64,
    /// A 200 whose body is not JSON when n is a multiple of this.
    pub malformed_every: Option<u64>,
    /// Close the connection unanswered when n is a multiple of this.
    pub drop_every: Option<u64>,
    /// 400 `context_length_exceeded` when the messages' contents exceed this many characters.
    pub context_limit_chars: Option<usize>,
}

/// The failure injected into one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Injection {
    /// 429 with `Retry-After` seconds.
    RateLimited(u64),
    /// 500.
    ServerError,
    /// Answer normally after a delay.
    Slow(Duration),
    /// 200 with `{"choices": [` as the body.
    Malformed,
    /// Close the connection without an answer.
    Dropped,
}

impl Failures {
    /// The injection for request number `n`: the first that applies in the order 429, 500,
    /// slow, malformed, dropped.
    pub fn for_request(&self, n: u64) -> Option<Injection> {
        let hits = |every: Option<u64>| every.is_some_and(|e| e > 0 && n.is_multiple_of(e));
        if hits(self.fail_429_every) {
            Some(Injection::RateLimited(self.retry_after_secs))
        } else if hits(self.fail_500_every) {
            Some(Injection::ServerError)
        } else if hits(self.slow_every) {
            Some(Injection::Slow(Duration::from_millis(self.slow_ms)))
        } else if hits(self.malformed_every) {
            Some(Injection::Malformed)
        } else if hits(self.drop_every) {
            Some(Injection::Dropped)
        } else {
            None
        }
    }

    /// Whether a request whose contents total `chars` characters is over the context limit.
    pub fn over_context(&self, chars: usize) -> bool {
        self.context_limit_chars.is_some_and(|limit| chars > limit)
    }
}
