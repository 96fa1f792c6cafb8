//! What a run was asked to do: the model, its sampling settings and the envs, as recorded in
//! `run.json` of the output directory and repeated in `summary.json`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The sampling settings sent with every request (`None`: the server's default).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Sampling {
    /// `temperature`.
    pub temperature: Option<f64>,
    /// `top_p`.
    pub top_p: Option<f64>,
    /// `max_tokens`.
    pub max_tokens: Option<u32>,
    /// The base of each request's `seed` (episode `i` of the run sends `seed + i`).
    pub seed: Option<u64>,
}

/// One env of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnvSettings {
    /// The env id.
    pub id: String,
    /// How many tasks (dataset rows or seeds) of it the run plays.
    pub tasks: u64,
    /// The config overrides it was made with (`--config`).
    pub config: Value,
    /// Wrappers by GEM's names, in order.
    pub wrappers: Vec<String>,
    /// sha256 of the component that provides it (none for host envs).
    pub component_sha256: Option<String>,
}

fn default_opponent() -> String {
    "random".to_owned()
}

/// The model that plays the other agents of a multi-agent env (`--user-model`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UserModel {
    /// Its server's base URL.
    pub base_url: String,
    /// Its model name.
    pub model: String,
    /// Its sampling settings.
    pub sampling: Sampling,
}

/// The whole run's settings: what `--resume` checks a directory against.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// geode's version.
    pub geode_version: String,
    /// The server's base URL (`.../v1`).
    pub base_url: String,
    /// The model name sent in each request.
    pub model: String,
    /// Sampling settings.
    pub sampling: Sampling,
    /// A system message put first in every chat.
    pub system: Option<String>,
    /// Most model replies per episode.
    pub max_turns: u32,
    /// Episodes per task (pass@k for every k up to it).
    pub samples: u32,
    /// Episodes in flight at once.
    pub concurrency: usize,
    /// An episode whose total reward reaches this is a success.
    pub success_threshold: f64,
    /// Base env seed: task `t` of a seeded env resets with `env_seed + t`.
    pub env_seed: u64,
    /// The agent the model plays in a multi-agent env (`None`: the first in turn order).
    #[serde(default)]
    pub seat: Option<String>,
    /// The policy of the other agents of a multi-agent env (`random`).
    #[serde(default = "default_opponent")]
    pub opponent: String,
    /// The model playing the other agents instead of `opponent`, if any.
    #[serde(default)]
    pub user_model: Option<UserModel>,
    /// The envs, in the order given.
    pub envs: Vec<EnvSettings>,
}
