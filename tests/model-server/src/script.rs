//! The `script` policy: multi-turn replies read from a file. Each JSONL row has `match` (text
//! the first user message contains) and `replies` (the model's turns in order); the reply to a
//! request is the matching row's turn numbered by the assistant messages already in it (the
//! last one again once they run out).

use anyhow::{Context, bail};
use std::path::Path;

/// The scripts, in file order.
#[derive(Debug, Clone)]
pub struct Scripts(Vec<(String, Vec<String>)>);

impl Scripts {
    /// Reads `path`.
    pub fn load(path: &Path) -> anyhow::Result<Self> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let mut rows = Vec::new();
        for (number, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let row: serde_json::Value = serde_json::from_str(line)
                .with_context(|| format!("{} line {}", path.display(), number + 1))?;
            let matches = row["match"].as_str().unwrap_or_default().to_owned();
            let replies: Vec<String> = row["replies"]
                .as_array()
                .map(|r| {
                    r.iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            if replies.is_empty() {
                bail!("{} line {}: no `replies`", path.display(), number + 1);
            }
            rows.push((matches, replies));
        }
        Ok(Scripts(rows))
    }

    /// The reply in the conversation whose first user message is `first`, after `turns`
    /// replies of the model.
    pub fn reply(&self, first: &str, turns: usize) -> String {
        match self.0.iter().find(|(m, _)| first.contains(m.as_str())) {
            Some((_, replies)) => replies[turns.min(replies.len() - 1)].clone(),
            None => "no script matches this prompt".to_owned(),
        }
    }
}
