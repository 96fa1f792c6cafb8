//! [`MathEnv`]: GEM's `MathEnv` (`math:*` and the math `eval:*` ids) as a native env on the
//! sandboxed math grader. One question per episode; the single step grades the last `\boxed{}`
//! of the answer against the row's ground truth (a string, a number, or a list of either: any
//! may match) with GEM's `boxed_reward_fn(fast=False)` rules: reward 1.0 or 0.0, info
//! `{"correct": ...}`, observation `TERMINAL_STATE`, terminated and truncated both set. With
//! `use_format_error_reward`, an answer without a box scores −0.1 instead of 0.

use super::check::GradeStatus;
use super::extract::extract_boxed;
use super::grader::{GradeLimits, MathGrader};
use super::ids::{MathId, math_id, sample_rows};
use crate::episodes::{Episodes, last_step};
use crate::gem::FORMAT_ERROR_REWARD;
use crate::rows::{broken_row, question_row};
use geode_runtime::{Dataset, Datasets, Env, Error, Info, Limits, ResetOutput, Result, StepOutput};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The default configuration of every math id.
pub fn default_config() -> Value {
    json!({
        "dataset": "",
        "question_key": "problem",
        "answer_key": "answer",
        "seed": 0,
        "use_format_error_reward": false,
        "fuel": null,
        "memory_bytes": GradeLimits::default().memory_bytes,
    })
}

/// The question of the current episode.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Question {
    index: usize,
    question: String,
    truths: Vec<String>,
}

/// A math env over one dataset. Holds a clone of the shared grader, never an instance.
#[derive(Clone)]
pub struct MathEnv {
    id: &'static MathId,
    grader: MathGrader,
    dataset: Arc<Dataset>,
    question_key: String,
    answer_key: String,
    format_error_reward: bool,
    max_action_bytes: usize,
    /// The walk over the rows and the current question.
    episodes: Episodes<Question>,
}

impl std::fmt::Debug for MathEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MathEnv")
            .field("id", &self.id.id)
            .field("dataset", &self.dataset.source)
            .finish_non_exhaustive()
    }
}

/// A ground truth as GEM reads it: strings as they are, numbers through `str()`.
fn truth_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// The ground truths of a row's answer field (a list: any may match).
fn truths_of(value: &Value) -> Option<Vec<String>> {
    match value {
        Value::Array(items) => items.iter().map(truth_text).collect(),
        other => truth_text(other).map(|t| vec![t]),
    }
}

impl MathEnv {
    /// Makes math env `id` with `overrides` merged into [`default_config`].
    pub fn new(
        id: &str,
        grader: MathGrader,
        datasets: &Datasets,
        overrides: &Value,
        limits: &Limits,
    ) -> Result<Self> {
        let known = math_id(id)
            .ok_or_else(|| Error::InvalidArgument(format!("`{id}` is not a math env id")))?;
        let config = geode_runtime::config::merge_value(id, &default_config(), overrides)?;
        let bad = |key: &str, message: &str| Error::BadConfig {
            id: id.to_owned(),
            key: key.to_owned(),
            message: message.to_owned(),
        };
        let text = |key: &str| config[key].as_str().unwrap_or_default().to_owned();
        let path = text("dataset");
        let dataset = if path.is_empty() {
            datasets.insert_jsonl(
                &format!("geode:math-sample/{}", known.sample),
                &format!("geode math sample `{}`", known.sample),
                sample_rows(known.sample).as_bytes(),
            )?
        } else {
            datasets.load_user_path(&path, &path)?
        };
        if dataset.is_empty() {
            return Err(bad("dataset", &format!("{} has no rows", dataset.source)));
        }
        let seed = config["seed"]
            .as_u64()
            .ok_or_else(|| bad("seed", "expected a non-negative integer"))?;
        let mut grade_limits = grader.limits().clone();
        match &config["fuel"] {
            Value::Null => {}
            value => {
                grade_limits.fuel = value
                    .as_u64()
                    .filter(|f| *f > 0)
                    .ok_or_else(|| bad("fuel", "expected a positive integer or null"))?;
            }
        }
        grade_limits.memory_bytes = config["memory_bytes"]
            .as_u64()
            .filter(|m| *m >= 64 << 20)
            .ok_or_else(|| bad("memory_bytes", "expected at least 64 MiB"))?;
        let grader = if &grade_limits == grader.limits() {
            grader
        } else {
            grader.with_limits(grade_limits)
        };
        Ok(MathEnv {
            id: known,
            grader,
            episodes: Episodes::new("question", dataset.len(), seed, known.eval),
            dataset,
            question_key: text("question_key"),
            answer_key: text("answer_key"),
            format_error_reward: config["use_format_error_reward"].as_bool().unwrap_or(false),
            max_action_bytes: limits.max_action_bytes,
        })
    }

    /// The rows this env draws questions from.
    pub fn dataset(&self) -> &Arc<Dataset> {
        &self.dataset
    }

    fn load(&self, index: usize) -> Result<Question> {
        let (row, question) = question_row(self.id.id, &self.dataset, index, &self.question_key)?;
        let broken = |message: String| broken_row(self.id.id, &self.dataset, index, message);
        let truths = row
            .get(&self.answer_key)
            .and_then(truths_of)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                broken(format!(
                    "field `{}` is not a string, a number or a list of them",
                    self.answer_key
                ))
            })?;
        Ok(Question {
            index,
            question,
            truths,
        })
    }
}

impl Env for MathEnv {
    fn id(&self) -> &str {
        self.id.id
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        let index = self.episodes.next(seed);
        let question = self.load(index)?;
        let observation = question.question.clone();
        self.episodes.start(question);
        Ok(ResetOutput {
            observation,
            info: Info::from_map(&Map::new()),
        })
    }

    fn step(&mut self, action: &str) -> Result<StepOutput> {
        let question = self
            .episodes
            .answered(self.id.id, action, self.max_action_bytes)?;
        let mut info = Map::new();
        let reward = if extract_boxed(action).is_none() {
            // No answer to grade: no grader instance is made.
            info.insert("correct".into(), json!(false));
            if self.format_error_reward {
                FORMAT_ERROR_REWARD
            } else {
                0.0
            }
        } else {
            let grade = self.grader.boxed_reward(action, &question.truths);
            info.insert("correct".into(), json!(grade.correct));
            if grade.status != GradeStatus::Done {
                info.insert("grader".into(), json!(format!("{:?}", grade.status)));
            }
            info.insert("fuel".into(), json!(grade.fuel_used));
            if grade.correct { 1.0 } else { 0.0 }
        };
        Ok(last_step(reward, &info))
    }

    fn sample_random_action(&mut self) -> Result<String> {
        Ok("\\boxed{42}".to_owned())
    }

    fn get_state(&mut self) -> Result<Vec<u8>> {
        self.episodes.snapshot()
    }

    fn set_state(&mut self, state: &[u8]) -> Result<()> {
        self.episodes.restore(self.id.id, "math env", state)
    }

    fn spawn(&mut self, same_state: bool) -> Result<Box<dyn Env>> {
        let mut env = self.clone();
        if !same_state {
            env.episodes = self.episodes.restarted();
        }
        Ok(Box::new(env))
    }

    fn seek_episode(&mut self, number: u64) -> Result<()> {
        self.episodes.seek(number);
        Ok(())
    }

    fn episode_count(&self) -> Option<u64> {
        Some(self.episodes.rows() as u64)
    }
}
