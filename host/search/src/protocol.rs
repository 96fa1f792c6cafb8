//! GEM's retrieval-server protocol (`gem/tools/search_engine/retrieval_server.py`): a POST whose
//! body is a msgpack map `{"query", "topk", "return_scores"}`, answered with a msgpack map
//! `{"result": [{"document": {"id", "contents"}, "score"}, ...]}`.

use serde::{Deserialize, Serialize};

/// The path GEM's server serves (`http://host:port/retrieve`).
pub const RETRIEVE_PATH: &str = "/retrieve";

/// A search request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryRequest {
    /// The query text.
    pub query: String,
    /// How many passages; `None` (or 0) for the server's default.
    #[serde(default)]
    pub topk: Option<u64>,
    /// Whether scores are returned (else each score is nil).
    #[serde(default)]
    pub return_scores: bool,
}

/// A passage in a response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Document {
    /// The passage's id.
    #[serde(default)]
    pub id: serde_json::Value,
    /// Title on the first line, then the text.
    pub contents: String,
}

/// One result: a passage and its score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scored {
    /// The passage.
    pub document: Document,
    /// Its score, when scores were asked for.
    #[serde(default)]
    pub score: Option<f64>,
}

/// A search response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RetrievalResponse {
    /// The passages, best first.
    pub result: Vec<Scored>,
}
