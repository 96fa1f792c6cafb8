//! The values an environment hands back: specs, reset and step results, info maps.

use crate::json_text;
use serde::Serialize;
use serde_json::{Map, Value};

/// Extra information returned with an observation: a JSON object, built directly as JSON text
/// (no map, no second serialization: steps are hot). Insert each key once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    json: String,
}

impl Default for Info {
    fn default() -> Self {
        let mut json = String::with_capacity(64);
        json.push_str("{}");
        Info { json }
    }
}

impl Info {
    /// An empty object.
    pub fn new() -> Self {
        Info::default()
    }

    /// Adds `key: value` (serialized with serde). A value serde cannot encode is left out.
    /// Inlined, so constant keys and values are checked for escapes at compile time.
    #[inline(always)]
    pub fn insert(&mut self, key: &str, value: impl Serialize) {
        self.json.pop(); // the closing brace
        let mark = self.json.len();
        if mark > 1 {
            self.json.push(',');
        }
        json_text::push_str_literal(&mut self.json, key);
        self.json.push(':');
        if json_text::push_value(&mut self.json, &value).is_err() {
            self.json.truncate(mark);
        }
        self.json.push('}');
    }

    /// The JSON text of the object.
    pub fn as_json(&self) -> &str {
        &self.json
    }

    /// The JSON text, by value.
    pub fn into_json(self) -> String {
        self.json
    }

    /// Wraps JSON text received from the host (an object), e.g. the info of a wrapped env.
    pub fn from_json(json: String) -> Self {
        if json.trim_start().starts_with('{') {
            Info { json }
        } else {
            Info::default()
        }
    }

    /// The object as a map, to read entries.
    pub fn to_map(&self) -> Map<String, Value> {
        serde_json::from_str(&self.json).unwrap_or_default()
    }

    /// One entry, parsed.
    pub fn get(&self, key: &str) -> Option<Value> {
        self.to_map().remove(key)
    }
}

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
    /// The first observation.
    pub observation: String,
    /// Its info object.
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
    pub fn info(mut self, key: &str, value: impl Serialize) -> Self {
        self.info.insert(key, value);
        self
    }
}

/// The outcome of one step.
#[derive(Debug, Clone, Default)]
pub struct Step {
    /// The next observation.
    pub observation: String,
    /// The reward of this step.
    pub reward: f64,
    /// The episode ended by its own rules.
    pub terminated: bool,
    /// The episode was cut short (a turn limit).
    pub truncated: bool,
    /// The info object.
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
    pub fn info(mut self, key: &str, value: impl Serialize) -> Self {
        self.info.insert(key, value);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn info_builds_an_object_in_insertion_order() {
        let mut info = Info::new();
        info.insert("suffix", "Enter \"it\".");
        info.insert("n", 3);
        info.insert("list", [1.5, 2.0]);
        assert_eq!(
            info.as_json(),
            r#"{"suffix":"Enter \"it\".","n":3,"list":[1.5,2.0]}"#
        );
        assert_eq!(info.get("n"), Some(serde_json::json!(3)));
    }

    #[test]
    fn info_leaves_out_a_value_serde_cannot_encode() {
        let mut info = Info::new();
        info.insert("a", 1);
        let bad: BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into();
        info.insert("bad", bad);
        info.insert("b", "ü");
        assert_eq!(info.as_json(), r#"{"a":1,"b":"ü"}"#);
        let mut first_bad = Info::new();
        first_bad.insert("bad", BTreeMap::from([((1u8, 2u8), 3u8)]));
        assert_eq!(first_bad.as_json(), "{}");
    }
}
