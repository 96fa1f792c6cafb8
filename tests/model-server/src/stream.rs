//! A completion as server-sent `chat.completion.chunk` events.

use crate::completion::Completion;
use serde_json::{Map, Value, json};

/// How many content chunks a reply is split into (fewer when it is short).
const PIECES: usize = 3;

/// The chunks of a streamed reply: the role, the content in a few pieces, the finish reason,
/// then the usage when `include_usage`.
pub fn chunks(completion: &Completion, include_usage: bool) -> Vec<Value> {
    let mut out = vec![chunk(
        completion,
        json!({ "role": "assistant", "content": "" }),
        None,
        None,
    )];
    for piece in split(&completion.content, PIECES) {
        out.push(chunk(
            completion,
            json!({ "content": piece }),
            Some(piece),
            None,
        ));
    }
    out.push(chunk(
        completion,
        json!({}),
        None,
        Some(completion.finish_reason),
    ));
    if include_usage {
        out.push(json!({
            "id": completion.id,
            "object": "chat.completion.chunk",
            "created": completion.created,
            "model": completion.model,
            "choices": [],
            "usage": completion.usage(),
        }));
    }
    out
}

/// The `text/event-stream` body: one `data:` event per chunk, then `data: [DONE]`.
pub fn events(chunks: &[Value]) -> Vec<String> {
    chunks
        .iter()
        .map(|c| format!("data: {c}\n\n"))
        .chain(std::iter::once("data: [DONE]\n\n".to_owned()))
        .collect()
}

fn chunk(
    completion: &Completion,
    delta: Value,
    text: Option<&str>,
    finish_reason: Option<&str>,
) -> Value {
    let mut choice = Map::new();
    choice.insert("index".into(), json!(0));
    choice.insert("delta".into(), delta);
    if let Some(text) = text {
        completion.annotate(&mut choice, text);
    }
    choice.insert("finish_reason".into(), json!(finish_reason));
    json!({
        "id": completion.id,
        "object": "chat.completion.chunk",
        "created": completion.created,
        "model": completion.model,
        "choices": [choice],
    })
}

/// Splits `text` into at most `pieces` non-empty parts at character boundaries.
fn split(text: &str, pieces: usize) -> Vec<&str> {
    let chars = text.chars().count();
    if chars == 0 {
        return Vec::new();
    }
    let per = chars.div_ceil(pieces);
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let end = rest.char_indices().nth(per).map_or(rest.len(), |(i, _)| i);
        let (head, tail) = rest.split_at(end);
        out.push(head);
        rest = tail;
    }
    out
}
