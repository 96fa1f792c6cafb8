//! The values an environment hands back: specs, reset and step results, info maps.

use serde_json::{Map, Value};

/// Extra information returned with an observation (a JSON object on the wire).
pub type Info = Map<String, Value>;

/// One id a plugin provides, with its default configuration.
#[derive(Debug, Clone)]
pub struct Spec {
    /// The id passed to `make`, e.g. `game:GuessTheNumber-v0-hard`.
    pub id: String,
    /// One line shown by `geode list`.
    pub description: String,
    /// The full default configuration, a JSON object. The host rejects keys not in it.
    pub default_config: Value,
}

impl Spec {
    /// A spec for `id` with a description and a default configuration (a JSON object).
    pub fn new(
        id: impl Into<String>,
        description: impl Into<String>,
        default_config: Value,
    ) -> Self {
        Spec {
            id: id.into(),
            description: description.into(),
            default_config,
        }
    }
}

/// The start of an episode: the first observation and its info.
#[derive(Debug, Clone, Default)]
pub struct Reset {
    pub observation: String,
    pub info: Info,
}

impl Reset {
    /// A reset result with an empty info.
    pub fn new(observation: impl Into<String>) -> Self {
        Reset {
            observation: observation.into(),
            info: Info::new(),
        }
    }

    /// Adds one info entry.
    pub fn info(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.info.insert(key.to_owned(), value.into());
        self
    }
}

/// The outcome of one step.
#[derive(Debug, Clone, Default)]
pub struct Step {
    pub observation: String,
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
    pub info: Info,
}

impl Step {
    /// A step that continues the episode.
    pub fn new(observation: impl Into<String>, reward: f64) -> Self {
        Step {
            observation: observation.into(),
            reward,
            ..Step::default()
        }
    }

    /// Marks the episode as ended inside the task.
    pub fn terminated(mut self) -> Self {
        self.terminated = true;
        self
    }

    /// Sets whether the episode was cut short from outside the task (a turn limit).
    pub fn truncated_if(mut self, truncated: bool) -> Self {
        self.truncated = truncated;
        self
    }

    /// Adds one info entry.
    pub fn info(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.info.insert(key.to_owned(), value.into());
        self
    }
}
