//! A dataset row read as a question and its accepted answers.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The question of an episode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    /// The row it came from.
    pub index: usize,
    /// The question as the dataset states it (without the prompt).
    pub text: String,
    /// Every accepted answer, as text.
    pub answers: Vec<String>,
}

/// An answer value as Python's `str()` writes it (GEM turns every answer into text that way).
fn as_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Null => "None".to_owned(),
        other => other.to_string(),
    }
}

impl Question {
    /// Reads `row`'s question (a string under `question_key`) and answers (under `answer_key`:
    /// one string or number, or a list of them).
    pub fn from_row(
        row: &Map<String, Value>,
        index: usize,
        question_key: &str,
        answer_key: &str,
    ) -> Result<Self, String> {
        let text = match row.get(question_key) {
            Some(Value::String(text)) => text.clone(),
            Some(_) => return Err(format!("field `{question_key}` is not text")),
            None => return Err(format!("no field `{question_key}`")),
        };
        let answers = match row.get(answer_key) {
            Some(Value::Array(items)) => items.iter().map(as_text).collect(),
            Some(value @ (Value::String(_) | Value::Number(_) | Value::Bool(_))) => {
                vec![as_text(value)]
            }
            Some(_) => {
                return Err(format!(
                    "field `{answer_key}` is neither text, a number nor a list"
                ));
            }
            None => return Err(format!("no field `{answer_key}`")),
        };
        Ok(Question {
            index,
            text,
            answers,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn row(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn answers_as_text() {
        let q = Question::from_row(
            &row(json!({"q": "x", "a": ["Paris", 42, true]})),
            3,
            "q",
            "a",
        );
        assert_eq!(q.unwrap().answers, ["Paris", "42", "True"]);
        let q = Question::from_row(&row(json!({"q": "x", "a": 1.5})), 0, "q", "a").unwrap();
        assert_eq!(q.answers, ["1.5"]);
    }

    #[test]
    fn bad_rows_name_the_field() {
        let err = Question::from_row(&row(json!({"a": "x"})), 0, "q", "a").unwrap_err();
        assert!(err.contains("`q`"), "{err}");
        let err = Question::from_row(&row(json!({"q": "x", "a": {"b": 1}})), 0, "q", "a");
        assert!(err.unwrap_err().contains("`a`"));
    }
}
