//! [`SweConfig`]: the settings of a coding env (its configuration's keys, with defaults in
//! [`default_config`]).

use geode_runtime::config::merge_value;
use geode_runtime::sandbox::{FUEL_PER_SECOND, RunRequest};
use geode_runtime::workspace::Quota;
use geode_runtime::{Error, Limits, Result};
use serde_json::{Value, json};
use std::time::Duration;

/// The default configuration of every `swe:*` id.
pub fn default_config() -> Value {
    json!({
        "dataset": "",
        "repos": null,
        "seed": 0,
        "max_turns": 50,
        "max_output_chars": 10_000,
        "tool_timeout": 30.0,
        "tool_fuel": null,
        "tool_memory_bytes": 512u64 << 20,
        "grade_timeout": 300.0,
        "grade_fuel": null,
        "grade_memory_bytes": 1u64 << 30,
        "workspace_bytes": 64u64 << 20,
        "workspace_files": 10_000,
    })
}

/// A coding env's settings.
#[derive(Debug, Clone)]
pub struct SweConfig {
    /// The tasks' file (empty: the tasks shipped with geode).
    pub dataset: String,
    /// Where rows that name a repository find it.
    pub repos: Option<String>,
    /// Seed of the walk over the tasks.
    pub seed: u64,
    /// Steps before the episode is graded as it stands and truncated.
    pub max_turns: u32,
    /// Characters of a tool's output shown before the rest is cut.
    pub max_output_chars: usize,
    /// Limits of one `python` or `pytest` call.
    pub tool: Budget,
    /// Limits of the grading run.
    pub grade: Budget,
    /// What a workspace may hold.
    pub quota: Quota,
    /// The longest action accepted.
    pub max_action_bytes: usize,
}

/// The limits of one sandbox run.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Wall-clock backstop.
    pub timeout: Duration,
    /// Deterministic CPU budget.
    pub fuel: u64,
    /// Memory cap.
    pub memory_bytes: u64,
}

impl Budget {
    fn request(&self) -> RunRequest {
        RunRequest::python("", "")
            .with_timeout(self.timeout)
            .with_fuel(self.fuel)
            .with_memory_bytes(self.memory_bytes)
            .with_output_bytes(4 << 20)
    }
}

impl SweConfig {
    /// The settings of env `id` with `overrides` merged into the defaults.
    pub fn new(id: &str, overrides: &Value, limits: &Limits) -> Result<Self> {
        let config = merge_value(id, &default_config(), overrides)?;
        let bad = |key: &str, message: &str| Error::BadConfig {
            id: id.to_owned(),
            key: key.to_owned(),
            message: message.to_owned(),
        };
        let count = |key: &str| {
            config[key]
                .as_u64()
                .filter(|n| *n > 0)
                .ok_or_else(|| bad(key, "expected a positive integer"))
        };
        let seconds = |key: &str| {
            config[key]
                .as_f64()
                .filter(|t| *t > 0.0 && *t <= 3600.0)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| bad(key, "expected seconds in (0, 3600]"))
        };
        let budget = |prefix: &str| -> Result<Budget> {
            let timeout = seconds(&format!("{prefix}_timeout"))?;
            let fuel_key = format!("{prefix}_fuel");
            let fuel = match &config[&fuel_key] {
                Value::Null => (timeout.as_secs_f64() * FUEL_PER_SECOND as f64) as u64,
                value => value
                    .as_u64()
                    .filter(|f| *f > 0)
                    .ok_or_else(|| bad(&fuel_key, "expected a positive integer or null"))?,
            };
            Ok(Budget {
                timeout,
                fuel,
                memory_bytes: count(&format!("{prefix}_memory_bytes"))?,
            })
        };
        Ok(SweConfig {
            dataset: config["dataset"].as_str().unwrap_or_default().to_owned(),
            repos: config["repos"].as_str().map(str::to_owned),
            seed: config["seed"]
                .as_u64()
                .ok_or_else(|| bad("seed", "expected a non-negative integer"))?,
            max_turns: u32::try_from(count("max_turns")?)
                .map_err(|_| bad("max_turns", "too large"))?,
            max_output_chars: count("max_output_chars")? as usize,
            tool: budget("tool")?,
            grade: budget("grade")?,
            quota: Quota {
                bytes: count("workspace_bytes")?,
                nodes: count("workspace_files")?,
            },
            max_action_bytes: limits.max_action_bytes,
        })
    }

    /// A request with the limits of one tool call.
    pub fn tool_request(&self) -> RunRequest {
        self.tool.request()
    }

    /// A request with the limits of grading.
    pub fn grade_request(&self) -> RunRequest {
        self.grade.request()
    }
}
