//! The request side of OpenAI's Chat Completions wire format: the fields the server reads.

use serde::Deserialize;
use serde_json::Number;

/// A `POST /v1/chat/completions` body; fields not listed here are ignored.
#[derive(Debug, Clone, Deserialize)]
pub struct ChatRequest {
    /// The model asked for; must equal `--model`.
    pub model: String,
    /// The conversation.
    pub messages: Vec<Message>,
    /// Answer as server-sent events.
    #[serde(default)]
    pub stream: bool,
    /// Options of a streamed answer.
    #[serde(default)]
    pub stream_options: Option<StreamOptions>,
    /// Seeds the `math` policy's draw (0 when absent).
    #[serde(default)]
    pub seed: Option<Number>,
    /// Accepted and ignored.
    #[serde(default)]
    pub temperature: Option<f64>,
    /// Accepted and ignored.
    #[serde(default)]
    pub top_p: Option<f64>,
    /// Cuts the reply to this many tokens (bytes), with `finish_reason: "length"`.
    #[serde(default)]
    pub max_tokens: Option<u64>,
    /// The newer name of `max_tokens`; the smaller of the two applies.
    #[serde(default)]
    pub max_completion_tokens: Option<u64>,
    /// Return each reply token's log-probability.
    #[serde(default)]
    pub logprobs: Option<bool>,
    /// Return the reply's token ids (vLLM's extension).
    #[serde(default)]
    pub return_token_ids: Option<bool>,
}

/// `stream_options`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct StreamOptions {
    /// End the stream with a chunk carrying `usage`.
    #[serde(default)]
    pub include_usage: bool,
}

/// One message of the conversation.
#[derive(Debug, Clone, Deserialize)]
pub struct Message {
    /// `system`, `user`, `assistant` or `tool`.
    pub role: String,
    /// A string, content parts, or null.
    #[serde(default)]
    pub content: Option<Content>,
}

/// A message's content: a string, or parts whose `text` fields are joined.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Content {
    /// Plain text.
    Text(String),
    /// `[{"type": "text", "text": …}, …]`; parts without text count as empty.
    Parts(Vec<Part>),
}

/// One content part.
#[derive(Debug, Clone, Deserialize)]
pub struct Part {
    /// The part's text, when it is a text part.
    #[serde(default)]
    pub text: Option<String>,
}

impl Message {
    /// The message's text ("" for null content).
    pub fn text(&self) -> String {
        match &self.content {
            None => String::new(),
            Some(Content::Text(text)) => text.clone(),
            Some(Content::Parts(parts)) => parts.iter().filter_map(|p| p.text.as_deref()).collect(),
        }
    }
}

impl ChatRequest {
    /// The texts of the user messages, in order.
    pub fn user_texts(&self) -> Vec<String> {
        self.messages
            .iter()
            .filter(|m| m.role == "user")
            .map(Message::text)
            .collect()
    }

    /// The seed as written (`0` when absent), the key of the `math` policy's draw.
    pub fn seed_text(&self) -> String {
        self.seed
            .as_ref()
            .map_or_else(|| "0".to_owned(), Number::to_string)
    }

    /// The summed length, in characters, of all message contents.
    pub fn content_chars(&self) -> usize {
        self.messages.iter().map(|m| m.text().chars().count()).sum()
    }

    /// The reply's token budget, if any.
    pub fn token_limit(&self) -> Option<u64> {
        match (self.max_tokens, self.max_completion_tokens) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Whether a streamed answer ends with a usage chunk.
    pub fn include_usage(&self) -> bool {
        self.stream_options
            .as_ref()
            .is_some_and(|o| o.include_usage)
    }
}
