//! The server's deterministic tokenizer: prompts cost a token per 4 bytes of each message's
//! content (rounded up); a reply is one token per byte, its id the byte's value, its
//! log-probability −0.5.

use crate::wire::Message;
use serde_json::{Value, json};

/// The log-probability of every reply token.
pub const TOKEN_LOGPROB: f64 = -0.5;

/// The prompt's token count: the sum over messages of ⌈content bytes / 4⌉.
pub fn prompt_tokens(messages: &[Message]) -> u64 {
    messages
        .iter()
        .map(|m| m.text().len().div_ceil(4) as u64)
        .sum()
}

/// The token ids of a reply: its bytes.
pub fn token_ids(text: &str) -> Vec<u32> {
    text.bytes().map(u32::from).collect()
}

/// The `logprobs.content` entries of a reply, one per byte.
pub fn logprob_entries(text: &str) -> Vec<Value> {
    text.bytes()
        .map(|byte| {
            json!({
                "token": String::from_utf8_lossy(&[byte]),
                "logprob": TOKEN_LOGPROB,
                "bytes": [byte],
                "top_logprobs": [],
            })
        })
        .collect()
}

/// Cuts `text` to at most `limit` tokens (bytes) at a character boundary; true when cut.
pub fn truncate(text: &mut String, limit: Option<u64>) -> bool {
    let Some(limit) = limit else { return false };
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    if text.len() <= limit {
        return false;
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    true
}
