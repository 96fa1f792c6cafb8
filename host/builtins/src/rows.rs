//! Reading one dataset row of a one-row-per-episode env (code and math envs): a JSON object with
//! the question text under the env's question key, and errors that name the env and the row.

use geode_runtime::{Dataset, Error, Result};
use serde_json::{Map, Value};

/// The error for row `index` of `dataset` that env `env` cannot use.
pub(crate) fn broken_row(env: &str, dataset: &Dataset, index: usize, message: String) -> Error {
    Error::InvalidState {
        env: env.to_owned(),
        message: format!("row {index} of {}: {message}", dataset.source),
    }
}

/// Row `index` of `dataset` as a JSON object, and its text field `question_key`.
pub(crate) fn question_row(
    env: &str,
    dataset: &Dataset,
    index: usize,
    question_key: &str,
) -> Result<(Map<String, Value>, String)> {
    let broken = |message: String| broken_row(env, dataset, index, message);
    let row: Map<String, Value> = dataset
        .row(index)
        .and_then(|text| serde_json::from_str(text).ok())
        .ok_or_else(|| broken("missing or not a JSON object".to_owned()))?;
    match row.get(question_key) {
        Some(Value::String(text)) => {
            let question = text.clone();
            Ok((row, question))
        }
        _ => Err(broken(format!("no text field `{question_key}`"))),
    }
}
