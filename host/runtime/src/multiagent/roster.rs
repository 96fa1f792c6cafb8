//! [`Roster`]: the live and acting agents after the last call, and the check of a step's
//! actions against them (the host refuses bad actions before the guest sees them).

use crate::{Error, Result};

/// Who is in the episode and who acts next.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Roster {
    /// The live agents, in turn order.
    pub agents: Vec<String>,
    /// The agents whose actions the next step takes.
    pub active: Vec<String>,
}

impl Roster {
    /// Checks `actions` for env `env`: each names a live, acting agent once, and every acting
    /// agent has one. `possible` tells unknown agents from agents that left.
    pub fn check(
        &self,
        env: &str,
        possible: &[String],
        actions: &[(String, String)],
    ) -> Result<()> {
        let refuse =
            |message: String| Err(Error::InvalidArgument(format!("env `{env}`: {message}")));
        if self.agents.is_empty() {
            return Err(Error::InvalidState {
                env: env.to_owned(),
                message: "no live agents: call reset to start an episode".into(),
            });
        }
        for (i, (agent, _)) in actions.iter().enumerate() {
            if actions[..i].iter().any(|(a, _)| a == agent) {
                return refuse(format!("two actions for agent `{agent}`"));
            }
            if !self.agents.contains(agent) {
                return if possible.contains(agent) {
                    refuse(format!(
                        "agent `{agent}` is no longer in the episode (live: {})",
                        self.agents.join(", ")
                    ))
                } else {
                    refuse(format!(
                        "unknown agent `{agent}` (this env's agents: {})",
                        possible.join(", ")
                    ))
                };
            }
            if !self.active.contains(agent) {
                return refuse(format!(
                    "agent `{agent}` provided an action but is not active (acting now: {})",
                    self.active.join(", ")
                ));
            }
        }
        if let Some(missing) = self
            .active
            .iter()
            .find(|a| !actions.iter().any(|(b, _)| b == *a))
        {
            return refuse(format!("missing action for active agent `{missing}`"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(list: &[&str]) -> Vec<String> {
        list.iter().map(|a| a.to_string()).collect()
    }

    fn act(list: &[&str]) -> Vec<(String, String)> {
        list.iter()
            .map(|a| (a.to_string(), "x".to_string()))
            .collect()
    }

    #[test]
    fn refuses_unknown_inactive_missing_and_duplicate_agents() {
        let roster = Roster {
            agents: s(&["a", "b"]),
            active: s(&["a"]),
        };
        let possible = s(&["a", "b", "c"]);
        let err = |actions: &[&str]| {
            roster
                .check("t", &possible, &act(actions))
                .unwrap_err()
                .to_string()
        };
        assert!(roster.check("t", &possible, &act(&["a"])).is_ok());
        assert!(err(&["z"]).contains("unknown agent `z`"));
        assert!(err(&["c"]).contains("no longer in the episode"));
        assert!(err(&["a", "b"]).contains("`b` provided an action but is not active"));
        assert!(err(&[]).contains("missing action for active agent `a`"));
        assert!(err(&["a", "a"]).contains("two actions"));
    }
}
