//! [`Session`]: one multi-agent env with the state the SDK keeps for it, and the reset/step
//! flow every multi-agent env shares. The component export is a thin layer over it, and
//! plugins' native tests drive it directly.

use super::MultiAgentEnvironment;
use super::agents::Agents;
use super::bindings::exports::geode::env::multiagent::{
    AgentResult, EnvError, Guest, GuestInstance, Instance, PluginSpec, Roster, Turn,
};
use crate::{Config, Error, Rng};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::marker::PhantomData;

/// What one agent got from a reset or a step.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentTurn {
    /// The agent.
    pub agent: String,
    /// What it sees now.
    pub observation: String,
    /// This step's reward.
    pub reward: f64,
    /// Done inside the task.
    pub terminated: bool,
    /// Cut short.
    pub truncated: bool,
    /// Extra information (a JSON object).
    pub info: String,
}

/// A multi-agent env, its agents and its randomness.
#[derive(Serialize, Deserialize)]
pub struct Session<E> {
    env: E,
    agents: Agents,
    rng: Option<Rng>,
    started: bool,
}

fn entropy_seed() -> u64 {
    // WASI randomness is virtualized and seeded by the host per instance, so this replays too.
    getrandom::u64().unwrap_or(0x9e37_79b9_7f4a_7c15)
}

impl<E: MultiAgentEnvironment> Session<E> {
    /// Env `id` with `config` (the defaults merged with overrides).
    pub fn create(id: &str, config: Config) -> Result<Self, Error> {
        let env = E::create(id, config)?;
        let agents = Agents::new(env.possible_agents(), env.mode());
        Ok(Session {
            env,
            agents,
            rng: None,
            started: false,
        })
    }

    /// Env `id` configured like the host does it: the id's defaults with `overrides` merged.
    pub fn make(id: &str, overrides: &serde_json::Value) -> Result<Self, Error> {
        let spec = E::specs()
            .into_iter()
            .find(|s| s.id == id)
            .ok_or_else(|| Error::UnknownId(id.to_owned()))?;
        let mut config = spec.default_config.as_object().cloned().unwrap_or_default();
        if let Some(overrides) = overrides.as_object() {
            config.extend(overrides.clone());
        }
        Self::create(id, Config::new(config))
    }

    /// The env.
    pub fn env(&self) -> &E {
        &self.env
    }

    /// The agents, turn and mailbox.
    pub fn agents(&self) -> &Agents {
        &self.agents
    }

    /// The agents, to change the roster or send messages from outside a step.
    pub fn agents_mut(&mut self) -> &mut Agents {
        &mut self.agents
    }

    /// The outputs of `who` for the call that just ran: each agent's outcome, then (once
    /// agents that ended left and the turn passed on, when `finish` is set) what it sees.
    fn results(&mut self, who: &[String], finish: bool) -> Vec<AgentTurn> {
        let outcomes: Vec<_> = who.iter().map(|a| self.agents.take_outcome(a)).collect();
        if finish {
            self.agents.finish_step();
        }
        who.iter()
            .zip(outcomes)
            .map(|(agent, outcome)| AgentTurn {
                agent: agent.clone(),
                observation: self.env.observe(agent, &self.agents),
                reward: outcome.reward,
                terminated: outcome.terminated,
                truncated: outcome.truncated,
                info: outcome.info.into_json(),
            })
            .collect()
    }

    /// Starts an episode: `Some(seed)` reseeds the randomness, `None` goes on with it.
    pub fn reset(&mut self, seed: Option<u64>) -> Result<Vec<AgentTurn>, Error> {
        let rng = match (seed, self.rng.as_mut()) {
            (Some(seed), Some(rng)) => {
                rng.seed(seed);
                rng
            }
            (Some(seed), None) => self.rng.insert(Rng::seeded(seed)),
            (None, _) => self.rng.get_or_insert_with(|| Rng::seeded(entropy_seed())),
        };
        self.agents.restart();
        self.env.seed_episode(seed);
        self.env.reset(&mut self.agents, rng)?;
        self.agents.start_turn();
        self.started = true;
        let live = self.agents.agents().to_vec();
        Ok(self.results(&live, false))
    }

    /// Steps the active agents with `actions` (`(agent, action)`): each active agent exactly
    /// once, nobody else. Agents that end leave the roster; the turn passes on.
    pub fn step(&mut self, actions: &[(String, String)]) -> Result<Vec<AgentTurn>, Error> {
        if !self.started {
            return Err(Error::InvalidState("step called before reset".into()));
        }
        // The host checks actions against the roster before calling; this guards the guest's
        // own invariants against any other caller.
        let active = self.agents.active();
        let acting_once = actions.len() == active.len()
            && actions
                .iter()
                .enumerate()
                .all(|(i, (a, _))| active.contains(a) && !actions[..i].iter().any(|(b, _)| b == a));
        if !acting_once {
            return Err(Error::InvalidState(format!(
                "step needs one action from each active agent ({})",
                active.join(", ")
            )));
        }
        let before = self.agents.agents().to_vec();
        self.agents.clear_outcomes();
        let rng = self.rng.get_or_insert_with(|| Rng::seeded(entropy_seed()));
        self.env.step(actions, &mut self.agents, rng)?;
        Ok(self.results(&before, true))
    }

    /// What `agent` sees now.
    pub fn observe(&self, agent: &str) -> Result<String, Error> {
        if !self.agents.possible_agents().iter().any(|a| a == agent) && !self.agents.is_live(agent)
        {
            return Err(Error::InvalidState(format!(
                "no agent `{agent}` in this env"
            )));
        }
        Ok(self.env.observe(agent, &self.agents))
    }

    /// A random legal action for `agent`.
    pub fn sample_random_action(&mut self, agent: &str) -> Result<String, Error> {
        if !self.agents.is_live(agent) {
            return Err(Error::InvalidState(format!(
                "agent `{agent}` is not in the episode"
            )));
        }
        let rng = self.rng.get_or_insert_with(|| Rng::seeded(entropy_seed()));
        Ok(self.env.sample_random_action(agent, &self.agents, rng))
    }
}

impl From<AgentTurn> for AgentResult {
    fn from(t: AgentTurn) -> Self {
        AgentResult {
            agent: t.agent,
            observation: t.observation,
            reward: t.reward,
            terminated: t.terminated,
            truncated: t.truncated,
            info: t.info,
        }
    }
}

#[doc(hidden)]
pub struct Exports<E>(PhantomData<E>);

#[doc(hidden)]
pub struct Held<E>(RefCell<Session<E>>);

impl<E> Held<E> {
    fn roster(session: &Session<E>) -> Roster {
        Roster {
            agents: session.agents.agents().to_vec(),
            active: session.agents.active(),
        }
    }

    fn turn(session: &Session<E>, results: Vec<AgentTurn>) -> Turn {
        Turn {
            results: results.into_iter().map(AgentResult::from).collect(),
            roster: Self::roster(session),
        }
    }
}

impl<E: MultiAgentEnvironment> Guest for Exports<E> {
    type Instance = Held<E>;

    fn describe() -> Vec<PluginSpec> {
        crate::plugin::describe(E::specs())
    }

    fn create(id: String, config: String) -> Result<Instance, EnvError> {
        let config = Config::from_json(&config)?;
        Ok(Instance::new(Held(RefCell::new(Session::<E>::create(
            &id, config,
        )?))))
    }
}

impl<E: MultiAgentEnvironment> GuestInstance for Held<E> {
    fn possible_agents(&self) -> Vec<String> {
        self.0.borrow().agents.possible_agents().to_vec()
    }

    fn reset(&self, seed: Option<u64>) -> Result<Turn, EnvError> {
        let mut session = self.0.borrow_mut();
        let results = session.reset(seed)?;
        Ok(Self::turn(&session, results))
    }

    fn step(&self, actions: Vec<(String, String)>) -> Result<Turn, EnvError> {
        let mut session = self.0.borrow_mut();
        let results = session.step(&actions)?;
        Ok(Self::turn(&session, results))
    }

    fn observe(&self, agent: String) -> Result<String, EnvError> {
        Ok(self.0.borrow().observe(&agent)?)
    }

    fn sample_random_action(&self, agent: String) -> Result<String, EnvError> {
        Ok(self.0.borrow_mut().sample_random_action(&agent)?)
    }

    fn send_message(
        &self,
        sender: String,
        receiver: String,
        message: String,
    ) -> Result<Roster, EnvError> {
        let mut session = self.0.borrow_mut();
        session.agents.send_message(&sender, &receiver, &message)?;
        Ok(Self::roster(&session))
    }

    fn broadcast_message(&self, sender: String, message: String) -> Result<Roster, EnvError> {
        let mut session = self.0.borrow_mut();
        session.agents.broadcast_message(&sender, &message)?;
        Ok(Self::roster(&session))
    }

    fn add_agent(&self, agent: String) -> Result<Roster, EnvError> {
        let mut session = self.0.borrow_mut();
        session.agents.add_agent(&agent);
        Ok(Self::roster(&session))
    }

    fn remove_agent(&self, agent: String) -> Result<Roster, EnvError> {
        let mut session = self.0.borrow_mut();
        session.agents.remove_agent(&agent);
        Ok(Self::roster(&session))
    }

    fn get_state(&self) -> Result<Vec<u8>, EnvError> {
        serde_json::to_vec(&*self.0.borrow())
            .map_err(|e| Error::Internal(format!("cannot encode state: {e}")).into())
    }

    fn set_state(&self, state: Vec<u8>) -> Result<Roster, EnvError> {
        let decoded: Session<E> = serde_json::from_slice(&state)
            .map_err(|e| EnvError::from(Error::BadState(e.to_string())))?;
        *self.0.borrow_mut() = decoded;
        Ok(Self::roster(&self.0.borrow()))
    }
}
