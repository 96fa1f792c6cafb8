//! OpenEnv's wire format as `openenv-core` 0.3 and `openenv` 0.10 speak it: what a text env's observation,
//! action and state look like in JSON, the WebSocket envelopes, the error codes.

use geode_runtime::{Error, ResetOutput, StepOutput};
use serde_json::{Map, Value, json};

/// OpenEnv's WebSocket error codes (`WSErrorCode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// The message is not JSON.
    InvalidJson,
    /// The message's `type` is none of reset, step, state, close.
    UnknownType,
    /// The message or action does not have the expected shape.
    ValidationError,
    /// The env failed to run the call (a trap, a limit, a refusal).
    ExecutionError,
    /// The server holds its maximum number of sessions.
    CapacityReached,
    /// The env could not be made.
    FactoryError,
    /// The session ended (idle timeout) or failed as a whole.
    SessionError,
}

impl Code {
    /// The code as OpenEnv spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvalidJson => "INVALID_JSON",
            Code::UnknownType => "UNKNOWN_TYPE",
            Code::ValidationError => "VALIDATION_ERROR",
            Code::ExecutionError => "EXECUTION_ERROR",
            Code::CapacityReached => "CAPACITY_REACHED",
            Code::FactoryError => "FACTORY_ERROR",
            Code::SessionError => "SESSION_ERROR",
        }
    }
}

/// A failure to report to the client: an OpenEnv code, a message, and for env errors geode's
/// typed kind (the name of the matching `geode.errors` exception) in `kind`.
#[derive(Debug, Clone)]
pub struct Failure {
    /// OpenEnv's code.
    pub code: Code,
    /// What went wrong, in words.
    pub message: String,
    /// Extra fields of the error object (`kind`, `active_sessions`...).
    pub extra: Map<String, Value>,
}

impl Failure {
    /// A failure with no extra fields.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Failure {
            code,
            message: message.into(),
            extra: Map::new(),
        }
    }

    /// Adds one field to the error object.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.extra.insert(key.to_owned(), value.into());
        self
    }

    /// An env's error: `EXECUTION_ERROR` with geode's typed kind.
    pub fn env(error: &Error) -> Self {
        Failure::new(Code::ExecutionError, error.to_string()).with("kind", error_kind(error))
    }

    /// The `data` object of OpenEnv's error envelope: message, code, extra fields.
    pub fn data(&self) -> Value {
        let mut data = self.extra.clone();
        data.insert("message".into(), self.message.clone().into());
        data.insert("code".into(), self.code.as_str().into());
        Value::Object(data)
    }

    /// The WebSocket error message (`{"type": "error", "data": ...}`).
    pub fn ws_message(&self) -> String {
        json!({"type": "error", "data": self.data()}).to_string()
    }
}

/// The name of the `geode.errors` exception matching `error`: the typed kind clients branch on.
pub fn error_kind(error: &Error) -> &'static str {
    match error {
        Error::OutOfFuel { .. } => "OutOfFuelError",
        Error::Deadline { .. } => "DeadlineExceededError",
        Error::MemoryLimit { .. } => "MemoryLimitError",
        Error::StackOverflow { .. } => "StackOverflowError",
        Error::GuestTrap { .. } => "GuestTrapError",
        Error::Contract { .. } => "ContractError",
        Error::NonDeterministic { .. } => "NonDeterministicError",
        Error::Refused { .. } => "EnvRefusedError",
        Error::BadConfig { .. } => "BadConfigError",
        Error::UnknownEnv { .. } => "UnknownEnvError",
        Error::NotAPlugin { .. } => "NotAPluginError",
        Error::DuplicateId { .. } => "DuplicateIdError",
        Error::InputTooLarge { .. } => "InputTooLargeError",
        Error::InvalidState { .. } => "InvalidStateError",
        Error::InvalidArgument(_) => "InvalidArgumentError",
        Error::Io { .. } => "PluginIOError",
        _ => "GeodeError",
    }
}

/// The action of a text env, `{"message": "<text>"}` (plus OpenEnv's optional `metadata`
/// object); anything else is a validation error, said in words.
pub fn parse_action(action: &Value) -> Result<String, Failure> {
    let invalid = |message: String| Failure::new(Code::ValidationError, message);
    let Value::Object(fields) = action else {
        return Err(invalid(format!(
            "the action must be an object {{\"message\": \"<text>\"}}, got {}",
            kind_of(action)
        )));
    };
    for key in fields.keys() {
        if key != "message" && key != "metadata" {
            return Err(invalid(format!(
                "unknown action field `{key}`: a text action is {{\"message\": \"<text>\"}}"
            )));
        }
    }
    match fields.get("message") {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(other) => Err(invalid(format!(
            "action field `message` must be a string, got {}",
            kind_of(other)
        ))),
        None => Err(invalid(
            "the action has no `message` field: a text action is {\"message\": \"<text>\"}".into(),
        )),
    }
}

/// The seed of a reset's parameters: absent or null for none, else a non-negative integer.
pub fn parse_seed(params: &Map<String, Value>) -> Result<Option<u64>, Failure> {
    match params.get("seed") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) if n.as_u64().is_some() => Ok(n.as_u64()),
        Some(other) => Err(Failure::new(
            Code::ValidationError,
            format!("`seed` must be a non-negative integer or null, got {other}"),
        )),
    }
}

/// OpenEnv's reset parameters as geode reads them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResetParams {
    /// The seed (none: the env's own randomness goes on).
    pub seed: Option<u64>,
    /// A task to start (`index`, with an optional `split`): a dataset env's row. The seed is
    /// then unused, as in GEM's `reset(idx=)`.
    pub task: Option<u64>,
    /// The episode id to report in the state (a fresh one when absent).
    pub episode_id: Option<String>,
}

impl ResetParams {
    /// Reads `seed`, `episode_id`, `index` and `split` (which must be `env_id`'s split when
    /// given); other keys are ignored, as OpenEnv ignores parameters an env does not take.
    pub fn parse(params: &Map<String, Value>, env_id: &str) -> Result<Self, Failure> {
        let invalid = |message: String| Failure::new(Code::ValidationError, message);
        let task = match params.get("index") {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) if n.as_u64().is_some() => n.as_u64(),
            Some(other) => {
                return Err(invalid(format!(
                    "`index` must be a non-negative integer, got {other}"
                )));
            }
        };
        match params.get("split") {
            None | Some(Value::Null) => {}
            Some(Value::String(split)) if task.is_none() => {
                return Err(invalid(format!(
                    "`split` {split:?} without `index`: name the task to start"
                )));
            }
            Some(Value::String(split)) => crate::tasks::check_split(env_id, split)?,
            Some(other) => {
                return Err(invalid(format!(
                    "`split` must be a string, got {}",
                    kind_of(other)
                )));
            }
        }
        Ok(ResetParams {
            seed: parse_seed(params)?,
            task,
            episode_id: parse_episode_id(params)?,
        })
    }
}

/// The episode id of a reset's or step's parameters, if any (a string of at most 255 bytes).
pub fn parse_episode_id(params: &Map<String, Value>) -> Result<Option<String>, Failure> {
    match params.get("episode_id") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(id)) if id.len() <= 255 => Ok(Some(id.clone())),
        Some(other) => Err(Failure::new(
            Code::ValidationError,
            format!(
                "`episode_id` must be a string of at most 255 bytes, got {}",
                kind_of(other)
            ),
        )),
    }
}

/// The observation after a reset as OpenEnv serializes one: `observation` (the text, not
/// terminated or truncated, the info, OpenEnv's empty `metadata`), `reward` null, `done` false.
pub fn reset_result(out: &ResetOutput) -> Value {
    json!({
        "observation": {
            "text": out.observation,
            "terminated": false,
            "truncated": false,
            "info": Value::Object(out.info.to_map()),
            "metadata": {},
        },
        "reward": Value::Null,
        "done": false,
    })
}

/// The observation after a step: the text, terminated, truncated and info in `observation`;
/// `reward` and `done` (terminated or truncated) beside it, where OpenEnv's clients read them.
pub fn step_result(out: &StepOutput) -> Value {
    json!({
        "observation": {
            "text": out.observation,
            "terminated": out.terminated,
            "truncated": out.truncated,
            "info": Value::Object(out.info.to_map()),
            "metadata": {},
        },
        "reward": out.reward,
        "done": out.done(),
    })
}

/// A session's state as OpenEnv's `State`: episode id and step count, plus the env id.
pub fn state(env_id: &str, episode_id: Option<&str>, step_count: u64) -> Value {
    json!({"episode_id": episode_id, "step_count": step_count, "env_id": env_id})
}

/// The JSON schemas `GET /schema` returns: a text action, a text observation, the state.
pub fn schema() -> Value {
    json!({
        "action": {
            "title": "TextAction",
            "type": "object",
            "properties": {
                "message": {"type": "string", "description": "The agent's action text"},
                "metadata": {"type": "object", "description": "Ignored by geode"},
            },
            "required": ["message"],
            "additionalProperties": false,
        },
        "observation": {
            "title": "TextObservation",
            "type": "object",
            "properties": {
                "text": {"type": "string"},
                "terminated": {"type": "boolean"},
                "truncated": {"type": "boolean"},
                "info": {"type": "object"},
                "metadata": {"type": "object", "description": "Empty: geode's extras are in info"},
                "done": {"type": "boolean"},
                "reward": {"anyOf": [{"type": "number"}, {"type": "null"}]},
            },
            "required": ["text", "terminated", "truncated", "info"],
        },
        "state": {
            "title": "State",
            "type": "object",
            "properties": {
                "episode_id": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                "step_count": {"type": "integer", "minimum": 0},
                "env_id": {"type": "string"},
            },
        },
    })
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
