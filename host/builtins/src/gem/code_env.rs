//! [`CodeEnv`]: GEM's `CodeEnv` (`code:CodeContest`, `code:Taco8k`, `code:PrimeIntellect15k`,
//! `eval:CodeContest`) as a native env on the sandbox. Each episode is one problem; the single
//! step grades the answer's last fenced code block against the problem's tests: no code block
//! is a format error (−0.1), 1.0 needs every selected test to pass, anything else is 0.0.
//!
//! The tests of an answer run in parallel across the cores and stop at the first failure (the
//! reward is already 0 then); all of them together get one wall-clock budget
//! (`answer_timeout`, by default the per-test `timeout`), so an answer that loops forever is
//! judged in about one timeout whatever the number of tests.

use super::code_tests::{TestCase, Verdict, parse_tests, select_tests};
use super::extract::last_fenced_block;
use super::run_python::run_python_with_stop;
use super::settings::RunSettings;
use crate::episodes::{Episodes, last_step};
use crate::rows::{broken_row, question_row};
use geode_runtime::config::merge_value;
use geode_runtime::sandbox::Sandbox;
use geode_runtime::sandbox::{AnswerBudget, StopSignal};
use geode_runtime::{Dataset, Datasets, Env, Error, Info, Limits, ResetOutput, Result, StepOutput};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::time::Duration;

/// The code env ids, each with GEM's dataset and split, and a description.
pub const CODE_ENV_IDS: &[(&str, &str)] = &[
    (
        "code:CodeContest",
        "Code problems (axon-rl/CodeContest, train) graded on stdin/stdout tests",
    ),
    (
        "code:Taco8k",
        "Code problems (axon-rl/TACO-8k, train) graded on stdin/stdout tests",
    ),
    (
        "code:PrimeIntellect15k",
        "Code problems (axon-rl/PrimeIntellect-15k, train) graded on stdin/stdout tests",
    ),
    (
        "eval:CodeContest",
        "Code problems (axon-rl/CodeContest, test) graded on stdin/stdout tests",
    ),
];

/// GEM's observation once an episode is over.
pub const TERMINAL_STATE: &str = "<｜TERMINAL_STATE｜>";
/// The reward of an answer without a code block.
pub const FORMAT_ERROR_REWARD: f64 = -0.1;
/// The dataset name of the sample compiled into geode.
pub const SAMPLE_DATASET: &str = "geode:code-sample";
const SAMPLE_JSONL: &str = include_str!("data/code_sample.jsonl");

/// The default configuration of every code env id.
pub fn default_config() -> Value {
    json!({
        "dataset": "",
        "question_key": "problem",
        "test_key": "tests",
        "max_tests": 12,
        "seed": 0,
        "timeout": 10.0,
        "answer_timeout": null,
        "early_exit": true,
        "fuel": null,
        "memory_bytes": 256u64 << 20,
        "output_bytes": 1u64 << 20,
    })
}

/// The problem of the current episode.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Problem {
    index: usize,
    question: String,
    tests: Vec<TestCase>,
}

/// A code env over one dataset.
#[derive(Clone)]
pub struct CodeEnv {
    id: String,
    sandbox: Sandbox,
    dataset: Arc<Dataset>,
    settings: RunSettings,
    /// Wall-clock budget of all the tests of one answer together.
    answer_timeout: Duration,
    /// Stop an answer's remaining tests at its first failure.
    early_exit: bool,
    question_key: String,
    test_key: String,
    max_tests: usize,
    max_action_bytes: usize,
    /// The walk over the rows and the current problem.
    episodes: Episodes<Problem>,
}

impl std::fmt::Debug for CodeEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeEnv")
            .field("id", &self.id)
            .field("dataset", &self.dataset.source)
            .finish_non_exhaustive()
    }
}

/// Loads the dataset a configuration names: a file under one of the runtime's data
/// directories, an absolute or `~/` path (the configuration is the user's own: code envs have
/// no plugin defaults), or the shipped sample when `dataset` is empty.
fn open_dataset(datasets: &Datasets, path: &str) -> Result<Arc<Dataset>> {
    if path.is_empty() {
        return datasets.insert_jsonl(SAMPLE_DATASET, "geode code sample", SAMPLE_JSONL.as_bytes());
    }
    datasets.load_user_path(path, path)
}

impl CodeEnv {
    /// Makes code env `id` with `overrides` merged into its default configuration.
    pub fn new(
        id: &str,
        sandbox: Sandbox,
        datasets: &Datasets,
        overrides: &Value,
        limits: &Limits,
    ) -> Result<Self> {
        if !CODE_ENV_IDS.iter().any(|(known, _)| *known == id) {
            return Err(Error::InvalidArgument(format!(
                "`{id}` is not a code env id"
            )));
        }
        let config = merge_value(id, &default_config(), overrides)?;
        let text = |key: &str| config[key].as_str().unwrap_or_default().to_owned();
        let dataset = open_dataset(datasets, &text("dataset"))?;
        if dataset.is_empty() {
            return Err(Error::BadConfig {
                id: id.to_owned(),
                key: "dataset".to_owned(),
                message: format!("{} has no rows", dataset.source),
            });
        }
        let positive = |key: &str| {
            config[key].as_u64().ok_or_else(|| Error::BadConfig {
                id: id.to_owned(),
                key: key.to_owned(),
                message: "expected a non-negative integer".to_owned(),
            })
        };
        let seed = positive("seed")?;
        let max_tests = positive("max_tests")?.max(1) as usize;
        let settings = RunSettings::from_config(id, &config)?;
        let answer_timeout = match &config["answer_timeout"] {
            Value::Null => settings.timeout,
            value => value
                .as_f64()
                .filter(|t| *t > 0.0 && *t <= 3600.0)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| Error::BadConfig {
                    id: id.to_owned(),
                    key: "answer_timeout".to_owned(),
                    message: "expected seconds in (0, 3600] or null (the per-test timeout)"
                        .to_owned(),
                })?,
        };
        Ok(CodeEnv {
            id: id.to_owned(),
            settings,
            answer_timeout,
            early_exit: config["early_exit"].as_bool().unwrap_or(true),
            sandbox,
            episodes: Episodes::new("problem", dataset.len(), seed, false),
            dataset,
            question_key: text("question_key"),
            test_key: text("test_key"),
            max_tests,
            max_action_bytes: limits.max_action_bytes,
        })
    }

    /// The rows this env draws problems from.
    pub fn dataset(&self) -> &Arc<Dataset> {
        &self.dataset
    }

    fn load_problem(&self, index: usize) -> Result<Problem> {
        let (row, question) = question_row(&self.id, &self.dataset, index, &self.question_key)?;
        let broken = |message: String| broken_row(&self.id, &self.dataset, index, message);
        let tests = row
            .get(&self.test_key)
            .ok_or_else(|| broken(format!("no field `{}`", self.test_key)))
            .and_then(|field| parse_tests(field).map_err(broken))?;
        Ok(Problem {
            index,
            question,
            tests,
        })
    }

    /// Runs `code` on the selected tests of `problem`, in parallel, until the first failure
    /// (with `early_exit`) or the answer's budget; returns the reward and info. A failure stops
    /// only the tests after it, so the first failing test (in test order) and every verdict
    /// before it are the same run after run; the tests after it are reported as skipped.
    fn grade(&self, problem: &Problem, code: &str) -> (f64, Map<String, Value>) {
        let selected = select_tests(&problem.tests, self.max_tests);
        let budget = AnswerBudget::new(self.answer_timeout);
        let stops: Vec<_> = (0..selected.len())
            .map(|_| StopSignal::with_budget(budget.clone()))
            .collect();
        let mut results: Vec<(Verdict, Value, String)> = selected
            .par_iter()
            .enumerate()
            .map(|(i, test)| {
                let request = self.settings.request(code, &test.input);
                let outcome = run_python_with_stop(&self.sandbox, &request, &stops[i]);
                if outcome.stopped {
                    return (
                        Verdict::Skipped,
                        json!({"verdict": "skipped"}),
                        String::new(),
                    );
                }
                let verdict = Verdict::of(&outcome, test);
                if verdict != Verdict::Passed && self.early_exit {
                    stops[i + 1..].iter().for_each(|later| later.stop());
                }
                // No wall time here: fuel is the deterministic measure of what a run cost.
                let record = json!({
                    "verdict": verdict.as_str(),
                    "exit_code": outcome.exit_code,
                    "fuel": outcome.fuel_used,
                });
                (verdict, record, outcome.stderr)
            })
            .collect();
        let failed =
            |r: &(Verdict, Value, String)| r.0 != Verdict::Passed && r.0 != Verdict::Skipped;
        if let Some(first) = results.iter().position(failed).filter(|_| self.early_exit) {
            for later in &mut results[first + 1..] {
                *later = (
                    Verdict::Skipped,
                    json!({"verdict": "skipped"}),
                    String::new(),
                );
            }
        }
        let passed = results.iter().filter(|r| r.0 == Verdict::Passed).count();
        let mut info = Map::new();
        info.insert("problem_index".into(), json!(problem.index));
        info.insert("passed".into(), json!(passed));
        info.insert("total".into(), json!(selected.len()));
        let failure = results
            .iter()
            .enumerate()
            .find(|(_, r)| r.0 != Verdict::Passed && r.0 != Verdict::Skipped);
        if let Some((index, (verdict, _, stderr))) = failure {
            let tail: String = stderr
                .chars()
                .rev()
                .take(500)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            info.insert(
                "first_failure".into(),
                json!({"test": index, "verdict": verdict.as_str(), "stderr": tail}),
            );
        }
        info.insert(
            "tests".into(),
            Value::Array(results.into_iter().map(|r| r.1).collect()),
        );
        let reward = if passed == selected.len() { 1.0 } else { 0.0 };
        (reward, info)
    }
}

impl Env for CodeEnv {
    fn id(&self) -> &str {
        &self.id
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        let index = self.episodes.next(seed);
        let problem = self.load_problem(index)?;
        let observation = problem.question.clone();
        self.episodes.start(problem);
        Ok(ResetOutput {
            observation,
            info: Info::from_map(&Map::from_iter([(
                "problem_index".to_owned(),
                json!(index),
            )])),
        })
    }

    fn step(&mut self, action: &str) -> Result<StepOutput> {
        let problem = self
            .episodes
            .answered(&self.id, action, self.max_action_bytes)?;
        let (reward, info) = match last_fenced_block(action) {
            None => {
                let info = Map::from_iter([
                    ("format_error".to_owned(), json!(true)),
                    ("passed".to_owned(), json!(0)),
                    ("tests".to_owned(), json!([])),
                ]);
                (FORMAT_ERROR_REWARD, info)
            }
            Some(code) => self.grade(problem, &code),
        };
        Ok(last_step(reward, &info))
    }

    fn sample_random_action(&mut self) -> Result<String> {
        Ok("```python\nprint(input())\n```".to_owned())
    }

    fn get_state(&mut self) -> Result<Vec<u8>> {
        self.episodes.snapshot()
    }

    fn set_state(&mut self, state: &[u8]) -> Result<()> {
        self.episodes.restore(&self.id, "code env", state)
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
