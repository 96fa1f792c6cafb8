//! The corpus a local index is built from: GEM's retrieval corpus layout, one JSON object per
//! line with an `id` and `contents` whose first line is the passage's title
//! (`{"id": "17", "contents": "Danube\nThe Danube is ..."}`).

use geode_runtime::{Error, Result};
use sha2::{Digest, Sha256};
use std::io::BufRead;

/// One passage of a corpus.
#[derive(Debug, Clone, PartialEq)]
pub struct Passage {
    /// The passage's id, as text (a numeric id is written in decimal).
    pub id: String,
    /// Title on the first line, then the text.
    pub contents: String,
}

/// Reads every passage of a JSONL corpus, checking each line; `source` names the corpus in
/// messages. Blank lines are skipped.
pub fn read_passages(reader: impl BufRead, source: &str) -> Result<Vec<Passage>> {
    let mut passages = Vec::new();
    for (number, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| Error::Io {
            context: format!("reading search corpus {source}"),
            source: e,
        })?;
        if line.trim().is_empty() {
            continue;
        }
        passages.push(parse_line(&line, source, number + 1)?);
    }
    if passages.is_empty() {
        return Err(Error::InvalidArgument(format!(
            "search corpus {source} holds no passages"
        )));
    }
    Ok(passages)
}

fn parse_line(line: &str, source: &str, number: usize) -> Result<Passage> {
    let bad = |what: &str| {
        Error::InvalidArgument(format!(
            "search corpus {source}, line {number}: {what} (each line must be a JSON object \
             {{\"id\": ..., \"contents\": \"title\\ntext\"}})"
        ))
    };
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|e| bad(&format!("not JSON: {e}")))?;
    let object = value.as_object().ok_or_else(|| bad("not a JSON object"))?;
    let contents = match object.get("contents") {
        Some(serde_json::Value::String(text)) => text.clone(),
        Some(_) => return Err(bad("`contents` is not a string")),
        None => return Err(bad("no `contents` key")),
    };
    let id = match object.get("id") {
        Some(serde_json::Value::String(id)) => id.clone(),
        Some(serde_json::Value::Number(id)) => id.to_string(),
        Some(_) => return Err(bad("`id` is neither a string nor a number")),
        None => return Err(bad("no `id` key")),
    };
    Ok(Passage { id, contents })
}

/// The SHA-256 of a corpus file's bytes, as hex: the key its index is cached under.
pub fn content_hash(mut reader: impl std::io::Read, source: &str) -> Result<String> {
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let read = reader.read(&mut buffer).map_err(|e| Error::Io {
            context: format!("hashing search corpus {source}"),
            source: e,
        })?;
        if read == 0 {
            return Ok(hex::encode(hasher.finalize()));
        }
        hasher.update(&buffer[..read]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_gem_layout_and_numeric_ids() {
        let text =
            "{\"id\": \"a\", \"contents\": \"T\\nbody\"}\n\n{\"id\": 7, \"contents\": \"U\"}\n";
        let passages = read_passages(text.as_bytes(), "c.jsonl").unwrap();
        assert_eq!(passages[0].contents, "T\nbody");
        assert_eq!(passages[1].id, "7");
    }

    #[test]
    fn bad_lines_are_named() {
        let error = read_passages("{\"id\": 1}\n".as_bytes(), "c.jsonl").unwrap_err();
        assert!(
            error
                .to_string()
                .contains("c.jsonl, line 1: no `contents` key"),
            "{error}"
        );
        let error = read_passages("[1]".as_bytes(), "c.jsonl").unwrap_err();
        assert!(error.to_string().contains("not a JSON object"), "{error}");
        let error = read_passages("\n".as_bytes(), "c.jsonl").unwrap_err();
        assert!(error.to_string().contains("no passages"), "{error}");
    }
}
