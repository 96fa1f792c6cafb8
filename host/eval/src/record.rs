//! What an evaluation writes per episode: one line of `trajectories.jsonl` each.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Which episode of a run this is: the env, the task within it and the sample of that task.
/// A run's episodes are every `(env, task, sample)` with `task < tasks` and `sample < samples`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct EpisodeKey {
    /// The env id.
    pub env: String,
    /// The task number within the env: a dataset row or a seed offset.
    pub task: u64,
    /// The sample number of that task (`0..samples`), for pass@k.
    pub sample: u32,
}

/// How a task's episode starts: a seeded reset, or a dataset row (GEM's `reset(idx=row)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// `reset(seed)`.
    Seed(u64),
    /// Row `n` of the env's dataset walk.
    Row(u64),
}

/// Token counts as the server reported them (summed over an episode's requests).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens of the prompts.
    pub prompt_tokens: u64,
    /// Tokens the model generated.
    pub completion_tokens: u64,
}

impl Usage {
    /// Adds `other` into `self`.
    pub fn add(&mut self, other: Usage) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
    }
}

/// One turn: the model's reply and what the env made of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    /// The model's reply, the action the env stepped.
    pub action: String,
    /// The observation the step returned.
    pub observation: String,
    /// The step's reward.
    pub reward: f64,
    /// The step ended the episode (success or failure).
    pub terminated: bool,
    /// The step cut the episode short.
    pub truncated: bool,
    /// The step's info object.
    pub info: Map<String, Value>,
    /// Wall-clock time of the model request(s) of this turn, retries included, in milliseconds.
    pub latency_ms: f64,
    /// The server's token counts for this turn.
    pub usage: Usage,
    /// The server's `finish_reason` (`stop`, `length`...).
    pub finish_reason: Option<String>,
    /// The generated token ids, when the server returned them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_ids: Option<Vec<u64>>,
    /// The generated tokens' logprobs, as the server returned them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logprobs: Option<Value>,
}

/// Why an episode ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The env terminated it.
    Terminated,
    /// The env truncated it.
    Truncated,
    /// `--max-turns` replies were played without the env ending it.
    MaxTurns,
    /// The server refused the prompt as longer than the model's context.
    ContextLength,
    /// A request failed for good (retries used up) or the env raised: see `error`.
    Error,
}

/// A failure that ended an episode early.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EpisodeError {
    /// Its kind (`timeout`, `rate_limited`, `server_error`, `malformed`, `connection`,
    /// `context_length`, `env`).
    pub kind: String,
    /// What happened, in words.
    pub message: String,
}

/// One finished episode: a line of `trajectories.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EpisodeRecord {
    /// Which episode.
    #[serde(flatten)]
    pub key: EpisodeKey,
    /// How it started.
    pub start: Start,
    /// The chat history the model saw, as sent (system, then user/assistant turns), and the
    /// last observation as a final user message when the env did not end the episode.
    pub messages: Vec<Value>,
    /// The first observation (the reset's).
    pub first_observation: String,
    /// The reset's info object.
    pub reset_info: Map<String, Value>,
    /// The turns played.
    pub turns: Vec<Turn>,
    /// The sum of the turns' rewards.
    pub reward: f64,
    /// Whether `reward` reached the run's success threshold.
    pub success: bool,
    /// Why it ended.
    pub ending: Ending,
    /// The failure that ended it, for `Ending::Error` and `Ending::ContextLength`.
    pub error: Option<EpisodeError>,
    /// Requests retried during the episode, by kind (`rate_limited`, `server_error`,
    /// `timeout`, `malformed`, `connection`).
    pub retries: std::collections::BTreeMap<String, u64>,
    /// Token counts of all its requests.
    pub usage: Usage,
    /// Wall-clock time of the whole episode, in milliseconds.
    pub latency_ms: f64,
}
