//! [`ComponentMultiAgentEnv`]: a multi-agent env of a plugin, in an instance of its own.
//!
//! Every call runs through the same guard as single-agent envs: fresh fuel and deadline, the
//! memory limiter, output checks. A trap, a limit or a contract violation discards the instance
//! and ends the episode with a typed error of this env only; the next `reset` builds a fresh
//! instance from the plugin's template.

use super::{AgentActions, AgentOutput, MultiAgentEnv, Roster};
use crate::bindings::multiagent_world::MultiagentPlugin;
use crate::bindings::multiagent_world::exports::geode::env::multiagent::{
    Roster as RawRoster, Turn,
};
use crate::guest::{GuestCall, GuestInstance, Recipe, verdict};
use crate::limits::Limits;
use crate::plugin::Plugin;
use crate::{Error, Info, Result};
use std::sync::Arc;

/// A multi-agent env provided by a plugin.
pub struct ComponentMultiAgentEnv {
    guest: GuestInstance<MultiagentPlugin>,
    possible: Vec<String>,
    roster: Roster,
}

impl std::fmt::Debug for ComponentMultiAgentEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentMultiAgentEnv")
            .field("id", &self.guest.recipe.id())
            .field("roster", &self.roster)
            .field("live", &self.guest.is_live())
            .finish()
    }
}

impl ComponentMultiAgentEnv {
    /// Instantiates `id` of `plugin` with a merged configuration.
    pub fn new(plugin: Arc<Plugin>, id: &str, config_json: String, limits: Limits) -> Result<Self> {
        Self::from_recipe(Recipe::new(plugin, id, config_json, limits))
    }

    fn from_recipe(recipe: Recipe) -> Result<Self> {
        let mut env = ComponentMultiAgentEnv {
            guest: GuestInstance::new(recipe, None),
            possible: Vec::new(),
            roster: Roster::default(),
        };
        env.ensure_live()?;
        env.possible = env.call("possible-agents", &mut |store, api, h| {
            api.geode_env_multiagent()
                .instance()
                .call_possible_agents(store, h)
                .map(Ok)
        })?;
        if env.possible.is_empty() {
            return Err(env.violation("possible-agents", "the env has no agents".into()));
        }
        Ok(env)
    }

    /// Whether an instance is live (false after a trap, until the next `reset`).
    pub fn is_live(&self) -> bool {
        self.guest.is_live()
    }

    /// The limits this env runs under.
    pub fn limits(&self) -> &Limits {
        &self.guest.recipe.limits
    }

    fn ensure_live(&mut self) -> Result<()> {
        self.guest.ensure_live().map(|_| ())
    }

    /// One guarded guest call. A trap discards the instance and ends the episode.
    fn call<R>(&mut self, name: &'static str, f: GuestCall<'_, MultiagentPlugin, R>) -> Result<R> {
        let result = self.guest.call_live(0, name, f);
        if result.as_ref().is_err_and(Error::is_trap) {
            self.roster = Roster::default();
        }
        result
    }

    fn violation(&mut self, call: &'static str, message: String) -> Error {
        self.guest.discard();
        self.roster = Roster::default();
        Error::Contract {
            env: self.guest.recipe.id().to_owned(),
            call,
            message,
        }
    }

    /// Takes a roster the guest returned, after checking it names only possible or added
    /// agents, each once, and that the acting agents are live.
    fn accept_roster(&mut self, call: &'static str, raw: RawRoster) -> Result<()> {
        let limit = self.guest.recipe.limits.max_info_bytes;
        let size: usize = raw.agents.iter().chain(&raw.active).map(String::len).sum();
        if size > limit {
            return Err(self.violation(call, format!("roster is {size} bytes, over {limit}")));
        }
        let duplicated = raw
            .agents
            .iter()
            .enumerate()
            .any(|(i, a)| raw.agents[..i].contains(a));
        if duplicated || raw.active.iter().any(|a| !raw.agents.contains(a)) {
            return Err(self.violation(
                call,
                format!(
                    "roster is inconsistent (live {:?}, acting {:?})",
                    raw.agents, raw.active
                ),
            ));
        }
        self.roster = Roster {
            agents: raw.agents,
            active: raw.active,
        };
        Ok(())
    }

    /// Checks a turn's results (one per agent of `expected`, in order) and the new roster.
    fn accept_turn(
        &mut self,
        call: &'static str,
        expected: Option<&[String]>,
        turn: Turn,
    ) -> Result<Vec<AgentOutput>> {
        self.accept_roster(call, turn.roster)?;
        let expected = expected.unwrap_or(&self.roster.agents).to_vec();
        let names: Vec<&String> = turn.results.iter().map(|r| &r.agent).collect();
        if names.len() != expected.len() || names.iter().zip(&expected).any(|(a, b)| *a != b) {
            return Err(self.violation(
                call,
                format!("results are for {names:?}, expected one per agent of {expected:?}"),
            ));
        }
        let mut outputs = Vec::with_capacity(turn.results.len());
        for r in turn.results {
            let checked = verdict::check_result(
                &self.guest.recipe.limits,
                self.guest.recipe.id(),
                call,
                &r.observation,
                r.reward,
                Some(&r.info),
            );
            if let Err(error) = checked {
                self.guest.discard();
                self.roster = Roster::default();
                return Err(error);
            }
            outputs.push(AgentOutput {
                agent: r.agent,
                observation: r.observation,
                reward: r.reward,
                terminated: r.terminated,
                truncated: r.truncated,
                info: Info::from_validated(r.info),
            });
        }
        Ok(outputs)
    }

    fn check_agent(&self, agent: &str) -> Result<()> {
        if self.possible.iter().any(|a| a == agent) || self.roster.agents.iter().any(|a| a == agent)
        {
            return Ok(());
        }
        Err(Error::InvalidArgument(format!(
            "env `{}`: unknown agent `{agent}` (this env's agents: {})",
            self.guest.recipe.id(),
            self.possible.join(", ")
        )))
    }

    fn roster_call(
        &mut self,
        name: &'static str,
        f: GuestCall<'_, MultiagentPlugin, RawRoster>,
    ) -> Result<()> {
        if !self.guest.is_live() {
            return Err(Error::InvalidState {
                env: self.guest.recipe.id().to_owned(),
                message: format!("{name} needs a live episode; call reset"),
            });
        }
        let raw = self.call(name, f)?;
        self.accept_roster(name, raw)
    }
}

impl MultiAgentEnv for ComponentMultiAgentEnv {
    fn id(&self) -> &str {
        self.guest.recipe.id()
    }

    fn possible_agents(&self) -> &[String] {
        &self.possible
    }

    fn roster(&self) -> &Roster {
        &self.roster
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<Vec<AgentOutput>> {
        self.ensure_live()?;
        let turn = self.call("reset", &mut |store, api, h| {
            api.geode_env_multiagent()
                .instance()
                .call_reset(store, h, seed)
        })?;
        self.accept_turn("reset", None, turn)
    }

    fn step(&mut self, actions: &AgentActions) -> Result<Vec<AgentOutput>> {
        self.roster
            .check(self.guest.recipe.id(), &self.possible, actions)?;
        for (_, action) in actions {
            self.guest.recipe.check_action(0, action)?;
        }
        let before = self.roster.agents.clone();
        let turn = self.call("step", &mut |store, api, h| {
            api.geode_env_multiagent()
                .instance()
                .call_step(store, h, actions)
        })?;
        self.accept_turn("step", Some(&before), turn)
    }

    fn observe(&mut self, agent: &str) -> Result<String> {
        self.check_agent(agent)?;
        self.ensure_live()?;
        let text = self.call("observe", &mut |store, api, h| {
            api.geode_env_multiagent()
                .instance()
                .call_observe(store, h, agent)
        })?;
        if let Err(error) = verdict::check_result(
            &self.guest.recipe.limits,
            self.guest.recipe.id(),
            "observe",
            &text,
            0.0,
            None,
        ) {
            self.guest.discard();
            return Err(error);
        }
        Ok(text)
    }

    fn sample_random_action(&mut self, agent: &str) -> Result<String> {
        self.check_agent(agent)?;
        self.ensure_live()?;
        let action = self.call("sample-random-action", &mut |store, api, h| {
            api.geode_env_multiagent()
                .instance()
                .call_sample_random_action(store, h, agent)
        })?;
        if let Some(error) = self.guest.recipe.oversize(
            "sample-random-action",
            "action",
            action.len(),
            self.guest.recipe.limits.max_action_bytes,
        ) {
            self.guest.discard();
            return Err(error);
        }
        Ok(action)
    }

    fn send_message(&mut self, sender: &str, receiver: &str, message: &str) -> Result<()> {
        self.check_agent(sender)?;
        self.check_agent(receiver)?;
        self.guest.recipe.check_action(0, message)?;
        self.roster_call("send-message", &mut |store, api, h| {
            api.geode_env_multiagent()
                .instance()
                .call_send_message(store, h, sender, receiver, message)
        })
    }

    fn broadcast_message(&mut self, sender: &str, message: &str) -> Result<()> {
        self.check_agent(sender)?;
        self.guest.recipe.check_action(0, message)?;
        self.roster_call("broadcast-message", &mut |store, api, h| {
            api.geode_env_multiagent()
                .instance()
                .call_broadcast_message(store, h, sender, message)
        })
    }

    fn add_agent(&mut self, agent: &str) -> Result<()> {
        self.guest.recipe.check_action(0, agent)?;
        self.roster_call("add-agent", &mut |store, api, h| {
            api.geode_env_multiagent()
                .instance()
                .call_add_agent(store, h, agent)
        })
    }

    fn remove_agent(&mut self, agent: &str) -> Result<()> {
        self.roster_call("remove-agent", &mut |store, api, h| {
            api.geode_env_multiagent()
                .instance()
                .call_remove_agent(store, h, agent)
        })
    }

    fn get_state(&mut self) -> Result<Vec<u8>> {
        self.ensure_live()?;
        let state = self.call("get-state", &mut |store, api, h| {
            api.geode_env_multiagent()
                .instance()
                .call_get_state(store, h)
        })?;
        let limit = self.guest.recipe.limits.max_state_bytes;
        if let Some(error) = self
            .guest
            .recipe
            .oversize("get-state", "state", state.len(), limit)
        {
            self.guest.discard();
            return Err(error);
        }
        Ok(state)
    }

    fn set_state(&mut self, state: &[u8]) -> Result<()> {
        let limit = self.guest.recipe.limits.max_state_bytes;
        if state.len() > limit {
            return Err(Error::InputTooLarge {
                env: self.guest.recipe.id().to_owned(),
                what: "state",
                len: state.len(),
                limit,
            });
        }
        self.ensure_live()?;
        let raw = self.call("set-state", &mut |store, api, h| {
            api.geode_env_multiagent()
                .instance()
                .call_set_state(store, h, state)
        })?;
        self.accept_roster("set-state", raw)
    }

    fn spawn(&self) -> Result<Box<dyn MultiAgentEnv>> {
        Ok(Box::new(Self::from_recipe(self.guest.recipe.twin())?))
    }
}
