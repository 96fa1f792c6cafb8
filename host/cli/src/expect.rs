//! [`Expect`]: what a scripted episode (`geode test`) expects of one reset or step, shared by
//! single-agent and multi-agent episode files.

use serde::Deserialize;
use serde_json::{Map, Value};

/// Expectations on a reset or step; each one left out is not checked.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The observation, exactly.
    observation: Option<String>,
    /// A piece of the observation.
    observation_contains: Option<String>,
    /// The reward (within 1e-9).
    reward: Option<f64>,
    /// The terminated flag.
    terminated: Option<bool>,
    /// The truncated flag.
    truncated: Option<bool>,
    /// Entries the info object must have (others may be there too).
    info: Option<Map<String, Value>>,
    /// The call must be refused with an error whose text contains this (for `reset`: making
    /// the env or resetting it).
    pub(crate) error: Option<String>,
}

impl Expect {
    pub(crate) fn check_text(
        &self,
        observation: &str,
        info: &Map<String, Value>,
    ) -> Result<(), String> {
        if let Some(want) = &self.observation
            && observation != want
        {
            return Err(format!("observation {observation:?}, expected {want:?}"));
        }
        if let Some(part) = &self.observation_contains
            && !observation.contains(part.as_str())
        {
            return Err(format!("observation {observation:?} lacks {part:?}"));
        }
        for (key, want) in self.info.iter().flatten() {
            if info.get(key) != Some(want) {
                return Err(format!(
                    "info[{key:?}] is {:?}, expected {want}",
                    info.get(key)
                ));
            }
        }
        Ok(())
    }

    /// Checks one outcome (observation, reward, flags, info) against the expectations.
    pub(crate) fn check_outcome(
        &self,
        observation: &str,
        reward: f64,
        terminated: bool,
        truncated: bool,
        info: &Map<String, Value>,
    ) -> Result<(), String> {
        if let Some(want) = self.reward
            && (reward - want).abs() > 1e-9
        {
            return Err(format!("reward {reward}, expected {want}"));
        }
        if let Some(want) = self.terminated
            && terminated != want
        {
            return Err(format!("terminated {terminated}, expected {want}"));
        }
        if let Some(want) = self.truncated
            && truncated != want
        {
            return Err(format!("truncated {truncated}, expected {want}"));
        }
        self.check_text(observation, info)
    }

    pub(crate) fn check<T>(
        &self,
        outcome: geode_runtime::Result<T>,
        fields: impl FnOnce(&T) -> Result<(), String>,
    ) -> Result<Option<T>, String> {
        match (outcome, &self.error) {
            (Ok(_), Some(want)) => Err(format!("expected an error containing {want:?}")),
            (Err(e), Some(want)) if e.to_string().contains(want.as_str()) => Ok(None),
            (Err(e), _) => Err(format!("error: {e}")),
            (Ok(out), None) => fields(&out).map(|()| Some(out)),
        }
    }
}
