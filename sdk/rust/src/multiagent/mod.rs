//! Multi-agent env plugins: implement [`MultiAgentEnvironment`] and call
//! [`export_multiagent!`](crate::export_multiagent). The SDK keeps what every multi-agent env
//! shares ([`Agents`]: the live agents, the turn, per-step outcomes, the mailbox, removal of
//! agents that are done); the env writes only its rules.

mod agents;
mod glue;
mod selector;

pub use agents::{Agents, Message};
pub use glue::{AgentTurn, Session};
#[doc(hidden)]
pub use glue::{Exports, Held};
pub use selector::{AgentSelector, Mode};

use crate::{Config, Error, Rng, Spec};

#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../wit/v0.1.0",
        world: "multiagent-plugin",
        pub_export_macro: true,
        export_macro_name: "export_multiagent_plugin",
        default_bindings_module: "geode_sdk::multiagent::bindings",
        // One `env-error` and `plugin-spec` for every world, so one conversion serves them all.
        with: { "geode:env/types@0.1.0": crate::bindings::geode::env::types },
        generate_all,
    });
}

/// The trait a multi-agent env implements. Randomness comes from the `rng` the SDK hands in
/// (seeded from `reset(seed)`), so an episode replays from its seed and actions.
pub trait MultiAgentEnvironment:
    serde::Serialize + serde::de::DeserializeOwned + Sized + 'static
{
    /// Every id this plugin provides, each with its default configuration.
    fn specs() -> Vec<Spec>;

    /// Builds the env for `id` from its configuration (defaults merged with overrides).
    fn create(id: &str, config: Config) -> Result<Self, Error>;

    /// Every agent an episode may have, in turn order; all are live after `reset`.
    fn possible_agents(&self) -> Vec<String>;

    /// Turn-based ([`Mode::Sequential`], the default) or simultaneous ([`Mode::Parallel`]).
    fn mode(&self) -> Mode {
        Mode::Sequential
    }

    /// Called just before [`reset`](Self::reset) with the seed the episode starts from (`None`:
    /// unseeded). Envs that pick a task by seed (task `seed mod N`) read it here; most envs only
    /// draw from the `rng` that `reset` gets.
    fn seed_episode(&mut self, _seed: Option<u64>) {}

    /// Starts a new episode. `agents` is already reset (every possible agent live, the first
    /// one's turn); the env may record reset infos on it.
    fn reset(&mut self, agents: &mut Agents, rng: &mut Rng) -> Result<(), Error>;

    /// Applies the actions of the active agents, `(agent, action)` in turn order, recording
    /// rewards, ends and infos on `agents`. Illegal moves are the game's business (a penalty,
    /// a loss), never `Err`.
    fn step(
        &mut self,
        actions: &[(String, String)],
        agents: &mut Agents,
        rng: &mut Rng,
    ) -> Result<(), Error>;

    /// What `agent` sees now.
    fn observe(&self, agent: &str, agents: &Agents) -> String;

    /// A random action for `agent`, legal in the current state.
    fn sample_random_action(&mut self, agent: &str, agents: &Agents, rng: &mut Rng) -> String;
}

/// Exports a [`MultiAgentEnvironment`]. Call it once per plugin crate. It expands to nothing
/// outside wasm, so plugin crates also build natively for unit tests.
#[macro_export]
macro_rules! export_multiagent {
    ($env:ty) => {
        #[cfg(target_arch = "wasm32")]
        #[doc(hidden)]
        type __GeodeMultiAgentPlugin = $crate::multiagent::Exports<$env>;
        #[cfg(target_arch = "wasm32")]
        $crate::multiagent::bindings::export_multiagent_plugin!(
            __GeodeMultiAgentPlugin with_types_in $crate::multiagent::bindings
        );
        #[cfg(not(target_arch = "wasm32"))]
        const _: () = {
            let _ = <$env as $crate::multiagent::MultiAgentEnvironment>::specs;
            let _ = <$env as $crate::multiagent::MultiAgentEnvironment>::create;
            let _ = <$env as $crate::multiagent::MultiAgentEnvironment>::reset;
            let _ = <$env as $crate::multiagent::MultiAgentEnvironment>::step;
            let _ = <$env as $crate::multiagent::MultiAgentEnvironment>::observe;
            let _ = <$env as $crate::multiagent::MultiAgentEnvironment>::sample_random_action;
        };
    };
}
