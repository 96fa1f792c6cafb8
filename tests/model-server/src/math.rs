//! The `math` policy: look the problem up in an answer table and answer right with
//! probability `p_correct`, drawn from a hash of the request's seed and the problem.

use anyhow::{Context, bail};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::Path;

/// The wrong answer given when the draw says "wrong".
pub const WRONG: &str = "-123456789";
/// The wrong answer when the right one is [`WRONG`] (or equals it numerically).
pub const WRONG_ALT: &str = "-987654321";
/// The reply when no problem of the table occurs in the first user message.
pub const UNKNOWN: &str = "I do not know.";

/// One row of the answer table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The problem text, matched as a substring of the first user message.
    pub problem: String,
    /// The answer, as text.
    pub answer: String,
}

/// Problems and their answers, from a JSONL file.
#[derive(Debug, Clone, Default)]
pub struct AnswerTable {
    /// The rows, in file order.
    pub rows: Vec<Row>,
}

impl AnswerTable {
    /// Reads JSONL rows with `problem` (or `question`) and `answer` (a string or a number).
    pub fn load(path: &Path) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        Self::parse(&text).with_context(|| format!("in {}", path.display()))
    }

    /// Parses JSONL text; blank lines are skipped.
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        let mut rows = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let row: Value =
                serde_json::from_str(line).with_context(|| format!("line {}", i + 1))?;
            let problem = row
                .get("problem")
                .or_else(|| row.get("question"))
                .and_then(Value::as_str);
            let Some(problem) = problem else {
                bail!("line {}: no string `problem` or `question`", i + 1);
            };
            let answer = match row.get("answer") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => bail!("line {}: no `answer`", i + 1),
                Some(other) => other.to_string(),
            };
            let problem = problem.trim();
            if !problem.is_empty() {
                rows.push(Row {
                    problem: problem.to_owned(),
                    answer,
                });
            }
        }
        Ok(AnswerTable { rows })
    }

    /// The row whose problem occurs in `text`, the longest if several (the first of equals).
    pub fn find(&self, text: &str) -> Option<&Row> {
        self.rows
            .iter()
            .filter(|row| text.contains(&row.problem))
            .fold(None, |best: Option<&Row>, row| match best {
                Some(b) if b.problem.len() >= row.problem.len() => Some(b),
                _ => Some(row),
            })
    }
}

/// The `math` policy's state.
#[derive(Debug, Clone)]
pub struct MathPolicy {
    /// The answer table.
    pub table: AnswerTable,
    /// The probability of answering right.
    pub p_correct: f64,
}

impl MathPolicy {
    /// The reply to a conversation whose first user message is `first_user`.
    pub fn reply(&self, first_user: &str, seed: &str) -> String {
        let Some(row) = self.table.find(first_user) else {
            return UNKNOWN.to_owned();
        };
        let answer = if draw(seed, &row.problem) < self.p_correct {
            row.answer.as_str()
        } else {
            wrong_answer(&row.answer)
        };
        format!("The answer is \\boxed{{{answer}}}.")
    }
}

/// A number in [0, 1) from SHA-256 of `"{seed}\n{problem}"`: its first 8 bytes, big-endian,
/// top 53 bits over 2^53.
pub fn draw(seed: &str, problem: &str) -> f64 {
    let digest = Sha256::digest(format!("{seed}\n{problem}"));
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    (u64::from_be_bytes(first) >> 11) as f64 / (1u64 << 53) as f64
}

/// An answer that differs from `answer` as text and as a number.
pub fn wrong_answer(answer: &str) -> &'static str {
    let trimmed = answer.trim();
    let numerically = trimmed.parse::<f64>().is_ok_and(|x| x == -123_456_789.0);
    if trimmed == WRONG || numerically {
        WRONG_ALT
    } else {
        WRONG
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_answers_never_match() {
        assert_eq!(wrong_answer("4"), WRONG);
        assert_eq!(wrong_answer("-123456789"), WRONG_ALT);
        assert_eq!(wrong_answer(" -123456789.0 "), WRONG_ALT);
    }

    #[test]
    fn draws_are_fixed_and_in_range() {
        let u = draw("0", "What is 2 + 2?");
        assert!((0.0..1.0).contains(&u));
        assert_eq!(u, draw("0", "What is 2 + 2?"));
        assert_ne!(u, draw("1", "What is 2 + 2?"));
    }

    #[test]
    fn bad_rows_are_reported() {
        assert!(AnswerTable::parse("{\"problem\": \"p\"}").is_err());
        assert!(AnswerTable::parse("{\"answer\": 1}").is_err());
        let table = AnswerTable::parse("\n{\"question\": \" q \", \"answer\": 1.5}\n").unwrap();
        assert_eq!(
            table.rows[0],
            Row {
                problem: "q".into(),
                answer: "1.5".into()
            }
        );
    }
}
