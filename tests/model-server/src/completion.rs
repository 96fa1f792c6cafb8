//! A finished reply and its `chat.completion` JSON.

use crate::tokens;
use crate::wire::ChatRequest;
use serde_json::{Map, Value, json};

/// A reply to one request, with what the response reports about it.
#[derive(Debug, Clone)]
pub struct Completion {
    /// `chatcmpl-N`, N the request's sequence number.
    pub id: String,
    /// Unix seconds.
    pub created: u64,
    /// The model name.
    pub model: String,
    /// The reply text.
    pub content: String,
    /// `stop`, or `length` when `max_tokens` cut the reply.
    pub finish_reason: &'static str,
    /// The prompt's token count.
    pub prompt_tokens: u64,
    /// Whether to report log-probabilities.
    pub logprobs: bool,
    /// Whether to report token ids.
    pub token_ids: bool,
}

impl Completion {
    /// The completion of request number `n` with reply `content` (cut to the request's budget).
    pub fn new(n: u64, request: &ChatRequest, mut content: String) -> Self {
        let cut = tokens::truncate(&mut content, request.token_limit());
        Completion {
            id: format!("chatcmpl-{n}"),
            created: unix_now(),
            model: request.model.clone(),
            content,
            finish_reason: if cut { "length" } else { "stop" },
            prompt_tokens: tokens::prompt_tokens(&request.messages),
            logprobs: request.logprobs.unwrap_or(false),
            token_ids: request.return_token_ids.unwrap_or(false),
        }
    }

    /// The `usage` object.
    pub fn usage(&self) -> Value {
        let completion = self.content.len() as u64;
        json!({
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": completion,
            "total_tokens": self.prompt_tokens + completion,
        })
    }

    /// Adds `logprobs` and `token_ids` for `text` to a choice, as far as they were asked for.
    pub fn annotate(&self, choice: &mut Map<String, Value>, text: &str) {
        if self.logprobs {
            choice.insert(
                "logprobs".into(),
                json!({ "content": tokens::logprob_entries(text) }),
            );
        }
        if self.token_ids {
            choice.insert("token_ids".into(), json!(tokens::token_ids(text)));
        }
    }

    /// The non-streamed `chat.completion` body.
    pub fn to_json(&self) -> Value {
        let mut choice = Map::new();
        choice.insert("index".into(), json!(0));
        choice.insert(
            "message".into(),
            json!({ "role": "assistant", "content": self.content }),
        );
        choice.insert("finish_reason".into(), json!(self.finish_reason));
        self.annotate(&mut choice, &self.content);
        json!({
            "id": self.id,
            "object": "chat.completion",
            "created": self.created,
            "model": self.model,
            "choices": [choice],
            "usage": self.usage(),
        })
    }
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
