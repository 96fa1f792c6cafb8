//! Multi-agent environments: several named agents in one episode, acting in turns or all at
//! once, with messages between them. [`MultiAgentEnv`] is the Rust API (GEM's `MultiAgentEnv`
//! call shapes: results keyed by agent), [`ComponentMultiAgentEnv`] runs a multi-agent plugin
//! under the same limits and fault isolation as single-agent envs, [`Roster`] checks actions
//! before they reach a guest, and [`MultiAgentVec`] steps many episodes (self-play) at once.

mod component;
mod roster;
mod vec;

pub use component::ComponentMultiAgentEnv;
pub use roster::Roster;
pub use vec::{MultiAgentVec, VecEnvStep};

use crate::{Info, Result};

/// What one agent got from a `reset` or a `step`.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentOutput {
    /// The agent's id.
    pub agent: String,
    /// What the agent sees now.
    pub observation: String,
    /// This step's reward (0 on reset).
    pub reward: f64,
    /// Done inside the task; the agent has left the roster.
    pub terminated: bool,
    /// Cut short from outside the task; the agent has left the roster.
    pub truncated: bool,
    /// Extra information (a JSON object).
    pub info: Info,
}

/// Actions for one step: `(agent, action)` pairs, one per active agent.
pub type AgentActions = [(String, String)];

/// A multi-agent environment.
pub trait MultiAgentEnv: Send {
    /// The env's id.
    fn id(&self) -> &str;
    /// Every agent an episode may have, in turn order.
    fn possible_agents(&self) -> &[String];
    /// Who is live and who acts next.
    fn roster(&self) -> &Roster;
    /// The live agents, in turn order.
    fn agents(&self) -> &[String] {
        &self.roster().agents
    }
    /// The agents whose actions the next `step` takes.
    fn active_agents(&self) -> &[String] {
        &self.roster().active
    }
    /// Starts an episode; one output per agent. `Some(seed)` makes it replayable.
    fn reset(&mut self, seed: Option<u64>) -> Result<Vec<AgentOutput>>;
    /// Steps the active agents, one action each; one output per agent live before the step.
    /// Actions for unknown or inactive agents, or a missing one, are refused before the env
    /// sees them.
    fn step(&mut self, actions: &AgentActions) -> Result<Vec<AgentOutput>>;
    /// What `agent` sees now.
    fn observe(&mut self, agent: &str) -> Result<String>;
    /// A random action for `agent`, legal now (drawn from the env's seeded randomness).
    fn sample_random_action(&mut self, agent: &str) -> Result<String>;
    /// Sends `message` from `sender` to `receiver` (both live).
    fn send_message(&mut self, sender: &str, receiver: &str, message: &str) -> Result<()>;
    /// Sends `message` from `sender` to every other live agent.
    fn broadcast_message(&mut self, sender: &str, message: &str) -> Result<()>;
    /// Brings `agent` into the episode, last in turn order.
    fn add_agent(&mut self, agent: &str) -> Result<()>;
    /// Takes `agent` out of the episode.
    fn remove_agent(&mut self, agent: &str) -> Result<()>;
    /// A snapshot of the whole state.
    fn get_state(&mut self) -> Result<Vec<u8>>;
    /// Restores a snapshot from `get_state`.
    fn set_state(&mut self, state: &[u8]) -> Result<()>;
    /// A fresh env of the same id and configuration (not reset).
    fn spawn(&self) -> Result<Box<dyn MultiAgentEnv>>;
}

impl std::fmt::Debug for dyn MultiAgentEnv + '_ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MultiAgentEnv")
            .field("id", &self.id())
            .field("roster", self.roster())
            .finish()
    }
}
