//! Scripted multi-agent episodes for `geode test`, in the `tests/*.json` files of a project
//! whose `geode.json` says `{"kind": "multiagent"}`. Each episode names the env `id`, optional
//! `config` overrides and `seed`, what the reset must show, then the `steps`: the actions of
//! the step (`{agent: action}`, sent in turn order) and what must follow. Every expectation is
//! optional: per agent, the same fields as a single-agent step (`reward`, `terminated`,
//! `observation_contains`, `info`...); for the roster after the call, `active` and `live`; or
//! an `error` the call must be refused with (the host's roster check included).
//!
//! ```json
//! [{"name": "an illegal move forfeits", "id": "demo:Race-v0", "seed": 3,
//!   "reset": {"active": ["player_0"]},
//!   "steps": [{"actions": {"player_0": "pass"}, "live": [],
//!              "agents": {"player_0": {"reward": -1.0, "terminated": true}}}]}]
//! ```

use crate::expect::Expect;
use geode_runtime::multiagent::AgentOutput;
use geode_runtime::{Limits, MultiAgentEnv, Registry};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// One scripted multi-agent episode.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultiAgentEpisode {
    /// What the episode shows, for the report.
    pub name: String,
    /// The env id.
    pub id: String,
    /// Configuration overrides.
    #[serde(default)]
    pub config: Map<String, Value>,
    /// The reset's seed (none: unseeded).
    #[serde(default)]
    pub seed: Option<u64>,
    /// What the reset must return.
    #[serde(default)]
    pub reset: TurnExpect,
    /// The steps, each with what it must return.
    #[serde(default)]
    pub steps: Vec<MultiAgentStep>,
}

/// One step's actions and its expected outcome.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultiAgentStep {
    /// The action of each acting agent.
    pub actions: BTreeMap<String, String>,
    /// What the step must return.
    #[serde(flatten)]
    pub expect: TurnExpect,
}

/// Expectations on a reset or step of a multi-agent env; each one left out is not checked.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct TurnExpect {
    /// Per agent, what its result must be.
    #[serde(default)]
    agents: BTreeMap<String, Expect>,
    /// The acting agents after the call, in turn order.
    active: Option<Vec<String>>,
    /// The live agents after the call, in turn order.
    live: Option<Vec<String>>,
    /// The call must be refused with an error whose text contains this (for `reset`: making
    /// the env or resetting it).
    error: Option<String>,
}

impl TurnExpect {
    fn check(
        &self,
        outcome: geode_runtime::Result<Vec<AgentOutput>>,
        env: &dyn MultiAgentEnv,
    ) -> Result<(), String> {
        let outputs = match (outcome, &self.error) {
            (Ok(_), Some(want)) => return Err(format!("expected an error containing {want:?}")),
            (Err(e), Some(want)) if e.to_string().contains(want.as_str()) => return Ok(()),
            (Err(e), _) => return Err(format!("error: {e}")),
            (Ok(outputs), None) => outputs,
        };
        for (agent, expect) in &self.agents {
            let Some(o) = outputs.iter().find(|o| &o.agent == agent) else {
                return Err(format!("no result for agent `{agent}`"));
            };
            expect
                .check_outcome(
                    &o.observation,
                    o.reward,
                    o.terminated,
                    o.truncated,
                    &o.info.to_map(),
                )
                .map_err(|e| format!("{agent}: {e}"))?;
        }
        for (what, want, now) in [
            ("active", &self.active, env.active_agents()),
            ("live", &self.live, env.agents()),
        ] {
            if let Some(want) = want
                && want.as_slice() != now
            {
                return Err(format!("{what} agents {now:?}, expected {want:?}"));
            }
        }
        Ok(())
    }
}

/// The actions of `step`, in the turn order of `active` (agents not acting last, by name).
fn in_turn_order(step: &MultiAgentStep, active: &[String]) -> Vec<(String, String)> {
    let mut actions: Vec<(String, String)> = step
        .actions
        .iter()
        .map(|(a, b)| (a.clone(), b.clone()))
        .collect();
    actions.sort_by_key(|(agent, _)| active.iter().position(|a| a == agent).unwrap_or(usize::MAX));
    actions
}

/// Plays `episode` on a multi-agent env made from `registry`; `Err` says which call differed
/// and how.
pub fn play(registry: &Registry, episode: &MultiAgentEpisode) -> Result<(), String> {
    let overrides = Value::Object(episode.config.clone());
    let made = registry.make_multiagent(&episode.id, &overrides, &Limits::default());
    let mut env = match (made, &episode.reset.error) {
        // A configuration the env refuses: the script expects the refusal at creation.
        (Err(e), Some(want)) if e.to_string().contains(want.as_str()) => return Ok(()),
        (made, _) => made.map_err(|e| format!("make: {e}"))?,
    };
    let reset = env.reset(episode.seed);
    episode
        .reset
        .check(reset, &*env)
        .map_err(|e| format!("reset: {e}"))?;
    for (n, step) in episode.steps.iter().enumerate() {
        let actions = in_turn_order(step, env.active_agents());
        let outcome = env.step(&actions);
        step.expect
            .check(outcome, &*env)
            .map_err(|e| format!("step {} ({actions:?}): {e}", n + 1))?;
    }
    Ok(())
}
